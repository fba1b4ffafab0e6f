// Convergence time from the per-flow delivered-bytes samples.
#include "output/convergence.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace dcqcn {
namespace {

// Delivered bytes of one flow at sample k: 0 before its first sample (not started yet).
std::optional<Bytes> DeliveredAt(const std::vector<std::pair<uint32_t, Bytes>>& samples,
                                 uint32_t k) {
  auto it = std::lower_bound(samples.begin(), samples.end(), std::make_pair(k, Bytes{0}),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
  if (it != samples.end() && it->first == k) return it->second;
  if (it == samples.begin()) return Bytes{0};
  return std::nullopt;  // a gap: the flow was not sampled although it had started
}

// Calls `visit` with each instant at which the set of active flows changes: an active flow's
// start, and its finish before `end`.
template <class Visit>
void ForEachChange(const FlowOutcomes& flows, Time end, Visit&& visit) {
  for (size_t i = 0; i < flows.size(); ++i) {
    const FlowOutcome f = flows[i];
    if (!WasActive(f, end)) continue;
    visit(f.start);
    if (ActiveUntil(f, end) < end) visit(ActiveUntil(f, end));
  }
}

}  // namespace

std::vector<std::pair<Time, Time>> LongPeriods(const FlowOutcomes& flows, Time end, Time length,
                                               Time max_buckets) {
  std::vector<std::pair<Time, Time>> periods;
  // In buckets `length` wide, two instants of one bucket are less than `length` apart: only a
  // period from one occupied bucket's latest instant to the next one's earliest can last that
  // long, so each bucket's earliest and latest instants are all that is kept (with millions of
  // flows, a list of every instant would cost 16 bytes a flow), unless the buckets would be
  // more than the instants could be.
  const Time buckets = length > 0 ? end / length + 1 : max_buckets + 1;
  if (buckets <= max_buckets && buckets <= 2 * static_cast<Time>(flows.size())) {
    std::vector<std::pair<Time, Time>> range(static_cast<size_t>(buckets), {kTimeNever, -1});
    auto add = [&](Time t) {
      auto& [first, last] = range[static_cast<size_t>(t / length)];
      first = std::min(first, t);
      last = std::max(last, t);
    };
    ForEachChange(flows, end, add);
    Time next = end;  // the earliest instant after the bucket (or the end)
    for (size_t b = range.size(); b-- > 0;) {
      if (range[b].second < 0) continue;
      if (next - range[b].second >= length) periods.emplace_back(range[b].second, next);
      next = range[b].first;
    }
    return periods;
  }
  std::vector<Time> changes;
  changes.reserve(2 * flows.size());  // millions of flows: not twice that while it grows
  ForEachChange(flows, end, [&](Time t) { changes.push_back(t); });
  std::sort(changes.begin(), changes.end());
  changes.erase(std::unique(changes.begin(), changes.end()), changes.end());
  for (size_t i = changes.size(); i-- > 0;) {
    const Time to = i + 1 < changes.size() ? changes[i + 1] : end;
    if (to - changes[i] >= length) periods.emplace_back(changes[i], to);
  }
  return periods;
}

Convergence MeasureConvergence(const FlowOutcomes& flows, Time end, const std::vector<Time>& times,
                               const DeliveredSamples& delivered,
                               const ConvergenceOptions& options) {
  Convergence c;
  const Time window = options.window;
  std::vector<size_t> members;
  for (const auto& [from, to] : LongPeriods(flows, end, 2 * window)) {
    members.clear();
    for (size_t f = 0; f < flows.size(); ++f) {
      const FlowOutcome o = flows[f];
      if (WasActive(o, end) && o.start <= from && ActiveUntil(o, end) > from) {
        members.push_back(f);
      }
    }
    if (members.size() < 2) continue;
    c.from = from;
    c.to = to;
    c.flows = static_cast<int>(members.size());
    break;
  }
  if (c.from < 0) {
    c.status =
        fmt::format("no period of {} or more with a constant set of two or more active flows",
                    FormatTime(2 * window));
    return c;
  }
  if (delivered.size() != flows.size() || times.empty()) {
    c.status = "not measured: needs output.timeseries = [\"throughput\"]";
    return c;
  }

  // Sliding windows [times[j], times[e]] inside the period, e the first sample a window later.
  const auto first = std::lower_bound(times.begin(), times.end(), c.from);
  const auto last = std::upper_bound(times.begin(), times.end(), c.to);
  const uint32_t begin = static_cast<uint32_t>(first - times.begin());
  const uint32_t stop = static_cast<uint32_t>(last - times.begin());  // one past the last sample
  std::optional<Time> fair_since;
  Time last_window_end = -1;
  std::vector<double> bytes(members.size());
  uint32_t e = begin;
  for (uint32_t j = begin; j < stop; ++j) {
    while (e < stop && times[e] < times[j] + window) ++e;
    if (e >= stop) break;
    double mean = 0;
    for (size_t m = 0; m < members.size(); ++m) {
      const auto& samples = delivered[members[m]];
      const std::optional<Bytes> a = DeliveredAt(samples, j), b = DeliveredAt(samples, e);
      if (!a || !b) {
        c.status = "not measured: a flow's throughput samples have a gap";
        return c;
      }
      bytes[m] = static_cast<double>(*b - *a);
      mean += bytes[m] / static_cast<double>(members.size());
    }
    bool fair = mean > 0;
    for (double b : bytes) fair = fair && std::abs(b - mean) <= options.tolerance * mean;
    if (!fair) {
      fair_since.reset();
    } else if (!fair_since) {
      fair_since = times[j];
    }
    last_window_end = times[e];
  }
  if (!fair_since) {
    c.status = "not converged: the last window of the period is not fair";
  } else if (last_window_end - *fair_since < 2 * window) {
    c.status = "not converged: fair for less than two windows before the period ends";
  } else {
    c.converged_at = *fair_since;
    c.status = "converged";
  }
  return c;
}

nlohmann::json ConvergenceJson(const Convergence& c, const ConvergenceOptions& options) {
  auto time_or_null = [](Time t) {
    return t >= 0 ? nlohmann::json(t / kNanosecond) : nlohmann::json();
  };
  return {{"time_ns", time_or_null(c.time())},
          {"period_from_ns", time_or_null(c.from)},
          {"period_to_ns", time_or_null(c.to)},
          {"flows", c.flows},
          {"window_ns", options.window / kNanosecond},
          {"tolerance", options.tolerance},
          {"status", c.status}};
}

}  // namespace dcqcn
