// Flow dependencies: the rows of prerequisites and the tracker that starts waiting flows.
#include "net/flow_dependencies.h"

#include <fmt/format.h>

#include "core/error.h"

namespace dcqcn {

void FlowAfter::Add(std::span<const uint32_t> after, Time delay) {
  if (offsets.empty()) offsets.push_back(0);
  prerequisites.insert(prerequisites.end(), after.begin(), after.end());
  offsets.push_back(static_cast<uint32_t>(prerequisites.size()));
  if (delay != 0) {
    delays.resize(offsets.size() - 1, 0);
    delays.back() = delay;
  }
}

void FlowAfter::Resize(size_t num_flows) {
  if (offsets.empty()) offsets.push_back(0);
  offsets.resize(num_flows + 1, offsets.back());
}

FlowDependencies::FlowDependencies(Simulator* sim, std::span<const FlowSpec> specs,
                                   const FlowAfter& after, std::function<void(uint32_t)> start)
    : sim_(sim), specs_(specs), after_(after), start_(std::move(start)) {
  const size_t n = specs.size();
  if (after.offsets.size() != n + 1 || after.offsets.back() != after.prerequisites.size()) {
    throw InvariantError(fmt::format("flow dependencies: rows for {} flows, expected {}",
                                     after.offsets.size() - 1, n));
  }
  unfinished_.assign(n, 0);
  starts_.assign(n, kTimeNever);
  dependent_offsets_.assign(n + 1, 0);
  for (uint32_t id = 0; id < n; ++id) {
    for (const uint32_t p : after.of(id)) {
      if (p >= n || !ObservesCompletion(specs[id], specs[p])) {
        throw InvariantError(fmt::format(
            "flow {} waits for flow {}, which its source host neither sends nor receives", id, p));
      }
      ++unfinished_[id];
      ++dependent_offsets_[p + 1];
    }
  }
  for (size_t i = 0; i < n; ++i) dependent_offsets_[i + 1] += dependent_offsets_[i];
  dependents_.resize(dependent_offsets_[n]);
  std::vector<uint32_t> fill(dependent_offsets_.begin(), dependent_offsets_.end() - 1);
  for (uint32_t id = 0; id < n; ++id) {
    for (const uint32_t p : after.of(id)) dependents_[fill[p]++] = id;
  }
}

void FlowDependencies::Complete(uint32_t id, int host) {
  for (uint32_t i = dependent_offsets_[id]; i < dependent_offsets_[id + 1]; ++i) {
    const uint32_t d = dependents_[i];
    if (specs_[d].src != host || --unfinished_[d] != 0) continue;
    // The last prerequisite: start after the delay, and not before the flow's own start.
    const Time now = sim_->Now();
    const Time delay = after_.delay(d);
    const Time at = std::max(specs_[d].start, delay > kTimeNever - now ? kTimeNever : now + delay);
    if (at < kTimeNever) sim_->Schedule(at, this, 0, d);
  }
}

void FlowDependencies::HandleEvent(uint32_t, uint64_t arg) {
  const auto id = static_cast<uint32_t>(arg);
  starts_[id] = sim_->Now();
  start_(id);
}

}  // namespace dcqcn
