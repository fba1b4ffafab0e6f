// Flow dependencies ([[flow]] after): which flows each flow waits for, and the tracker that starts
// a waiting flow once the last of them is complete. A host acts only on what it observes, so a
// flow waits only for flows its own source host receives (complete when their last byte is
// delivered in order) or sends (complete when their last byte is acknowledged): every trigger is
// local to the waiting flow's source host, as a partitioned engine needs.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/simulator.h"
#include "net/flow_spec.h"

namespace dcqcn {

// The prerequisites of every flow, by flow id, in compressed rows (millions of flows, most of
// them waiting, cost 4 bytes per flow and per prerequisite): flow i waits for
// `prerequisites[offsets[i] .. offsets[i + 1])`, then `delays[i]` more. No rows: no flow waits.
struct FlowAfter {
  std::vector<uint32_t> offsets;  // one more than the flows, or none
  std::vector<uint32_t> prerequisites;
  std::vector<Time> delays;  // by flow id; may be shorter (0 past the end)

  bool empty() const { return prerequisites.empty(); }
  // Appends the next flow's row (flow ids in order from 0).
  void Add(std::span<const uint32_t> after, Time delay);
  // Rows for flows up to `num_flows` (those not added wait for nothing).
  void Resize(size_t num_flows);
  std::span<const uint32_t> of(uint32_t id) const {
    if (id + 1 >= offsets.size()) return {};
    return std::span<const uint32_t>(prerequisites)
        .subspan(offsets[id], offsets[id + 1] - offsets[id]);
  }
  bool waits(uint32_t id) const {
    return id + 1 < offsets.size() && offsets[id] != offsets[id + 1];
  }
  Time delay(uint32_t id) const { return id < delays.size() ? delays[id] : 0; }
};

// Whether flow `waiting`'s source host observes flow `prerequisite` complete: it receives it or
// sends it.
inline bool ObservesCompletion(const FlowSpec& waiting, const FlowSpec& prerequisite) {
  return prerequisite.dst == waiting.src || prerequisite.src == waiting.src;
}

// Counts each waiting flow's unfinished prerequisites and, when the last one completes at `now`,
// starts it at max(its spec's start, now + its delay), with one event per waiting flow scheduled
// then (equal times: in the order the completions happened). Flows that wait for nothing are
// FlowStarter's.
class FlowDependencies final : public EventHandler {
 public:
  // `after` must outlive the tracker and hold rows for every flow; every prerequisite must be
  // observable (ObservesCompletion), else InvariantError (the scenario layer checks input).
  FlowDependencies(Simulator* sim, std::span<const FlowSpec> specs, const FlowAfter& after,
                   std::function<void(uint32_t)> start);
  bool Waits(uint32_t id) const { return after_.waits(id); }
  // Flow `id`'s last byte reached its receiver in order.
  void OnDelivered(uint32_t id) { Complete(id, specs_[id].dst); }
  // Flow `id`'s sender got the ACK of its last byte.
  void OnAcked(uint32_t id) { Complete(id, specs_[id].src); }
  // When waiting flow `id` started; kTimeNever until it has.
  Time start(uint32_t id) const { return starts_[id]; }
  void HandleEvent(uint32_t kind, uint64_t arg) override;

 private:
  // Flow `id` is complete as host `host` sees it: its dependents sent by `host` have one
  // prerequisite less.
  void Complete(uint32_t id, int host);
  Simulator* sim_;
  std::span<const FlowSpec> specs_;
  const FlowAfter& after_;
  std::function<void(uint32_t)> start_;
  std::vector<uint32_t> unfinished_;  // per flow: prerequisites not yet complete
  // The flows that wait for each flow, in compressed rows as FlowAfter's.
  std::vector<uint32_t> dependent_offsets_;
  std::vector<uint32_t> dependents_;
  std::vector<Time> starts_;  // per flow: when a waiting flow started (kTimeNever: not yet)
};

}  // namespace dcqcn
