// Convergence time: how long after the last change in the set of active flows their throughputs
// settle to a fair share. docs/metrics.md defines it; this is the only implementation.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/units.h"
#include "output/metrics.h"

namespace dcqcn {

struct ConvergenceOptions {
  Time window = 5 * kMillisecond;
  double tolerance = 0.15;
};

// Per flow, the cumulative delivered bytes at sample indices: (sample index, bytes), in index
// order. A flow has no entry for samples before it started.
using DeliveredSamples = std::vector<std::vector<std::pair<uint32_t, Bytes>>>;

struct Convergence {
  // The measured period: the last period with a constant set of two or more active flows that
  // lasts at least two windows. from_ns < 0 when there is none.
  Time from = -1;
  Time to = -1;
  int flows = 0;
  // Start of the first window from which on every window of the period is fair, when the fair
  // stretch covers at least two windows; -1 otherwise.
  Time converged_at = -1;
  std::string status;  // "converged", or why there is no convergence time
  Time time() const { return converged_at >= 0 ? converged_at - from : -1; }
};

// The periods between consecutive instants at which the set of active flows changes (an active
// flow's start, or its finish before `end`; the last period ends at `end`) that last at least
// `length`, latest first: the candidates for the measured period. Found from the earliest and
// latest instant of each stretch of `length` when there are at most `max_buckets` of them (and
// not more than instants), else from a sorted list of every instant; the same periods either way.
std::vector<std::pair<Time, Time>> LongPeriods(const FlowOutcomes& flows, Time end, Time length,
                                               Time max_buckets = Time{1} << 22);

// `times`: the sample instants; `delivered`: per flow (indexed like `flows`), its samples.
Convergence MeasureConvergence(const FlowOutcomes& flows, Time end, const std::vector<Time>& times,
                               const DeliveredSamples& delivered,
                               const ConvergenceOptions& options);

// summary.json's "convergence" object.
nlohmann::json ConvergenceJson(const Convergence& c, const ConvergenceOptions& options);

}  // namespace dcqcn
