// The per-flow headline metrics (FCT slowdown, flow throughput, Jain fairness), defined once and
// used by summary.json (overall and per tag), the summary lines, sweep.csv and the report.
// docs/metrics.md states each definition.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/units.h"

namespace dcqcn {

// What a metric needs to know of one flow at the end of a run.
struct FlowOutcome {
  Bytes size = 0;
  Time start = 0;
  Time finish = -1;  // -1: unfinished
  Time ideal_fct = 0;
  Bytes delivered = 0;
};

// Every flow's outcome by index, read from where the run keeps it rather than copied: with
// millions of flows a copy would cost 40 bytes a flow just when the results' memory peaks.
// Either a list it holds (a few flows, tests) or a function of the index.
class FlowOutcomes {
 public:
  FlowOutcomes() = default;
  FlowOutcomes(std::vector<FlowOutcome> held)  // NOLINT: a list is an outcome table
      : held_(std::move(held)), size_(held_.size()) {}
  FlowOutcomes(std::initializer_list<FlowOutcome> held)
      : FlowOutcomes(std::vector<FlowOutcome>(held)) {}
  FlowOutcomes(size_t size, std::function<FlowOutcome(size_t)> at)
      : size_(size), at_(std::move(at)) {}
  size_t size() const { return size_; }
  FlowOutcome operator[](size_t i) const { return at_ ? at_(i) : held_[i]; }

 private:
  std::vector<FlowOutcome> held_;
  size_t size_ = 0;
  std::function<FlowOutcome(size_t)> at_;
};

// A flow is active in a run that ended at `end` when it started before the end.
bool WasActive(const FlowOutcome& f, Time end);
// When an active flow stopped being active: its finish, or the end of the run.
Time ActiveUntil(const FlowOutcome& f, Time end);
// Average delivered rate over the flow's active time, Gb/s.
double FlowThroughputGbps(const FlowOutcome& f, Time end);
// FCT / ideal FCT, at least 1 (finished flows only).
double Slowdown(const FlowOutcome& f);
// True when there is an instant at which every active flow is active: Jain fairness compares the
// shares of flows that competed, and is reported only then.
// `subset`: only the flows at these indices (a tag's; null: all), so that per-tag metrics need
// no copy of the outcomes.
bool ActiveTogether(const FlowOutcomes& flows, Time end,
                    const std::vector<uint32_t>* subset = nullptr);

// {"flows", "active", "finished", "fct_slowdown" {count,p50,p95,p99,max}, "flow_throughput_gbps"
// {count,min,mean,max}, "jain_fairness", "max_min_jain_fairness", "normalised_jain_fairness",
// "long_flow_throughput_gbps", "fct_slowdown_by_size"}: an empty statistic is null. The same
// object is written for the whole run and per tag.
// `max_min`: every flow's max-min fair share (core/max_min.h; by flow index, 0 = none), or null.
// Jain's "1 = equal shares" is the fair target only when those shares are equal: the Jain index of
// the shares says how unequal a fair allocation is, and the Jain index of throughput / share (Jain,
// Chiu and Hawe 1984, their normalised allocation) is 1 when every flow got the same fraction of
// its fair share. Both are null where jain_fairness is, or when a flow has no share.
nlohmann::json FlowMetrics(const FlowOutcomes& flows, Time end,
                           const std::vector<uint32_t>* subset = nullptr,
                           const std::vector<double>* max_min = nullptr);

// Percentile by linear interpolation between closest ranks (numpy's default). `values` must not
// be empty.
double Percentile(std::vector<double> values, double pct);
// Jain's fairness index (sum x)^2 / (n sum x^2) of non-empty values; 1 = all equal.
double JainIndex(const std::vector<double>& values);

}  // namespace dcqcn
