// Per-flow headline metrics; docs/metrics.md defines each of them.
#include "output/metrics.h"

#include <algorithm>
#include <array>
#include <limits>

namespace dcqcn {
namespace {

nlohmann::json OrNull(bool has, double v) { return has ? nlohmann::json(v) : nlohmann::json(); }

// Count, sum, sum of squares, least and greatest of values seen one at a time: what the
// statistics other than percentiles need, without a list of 8 bytes a flow. The sums are taken
// in the order the values come, as a list's would be: the same bits.
struct Moments {
  size_t count = 0;
  double sum = 0;
  double sum_sq = 0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  void Add(double x) {
    ++count;
    sum += x;
    sum_sq += x * x;
    min = std::min(min, x);
    max = std::max(max, x);
  }
  // Jain's index of the values (count > 0).
  double Jain() const { return sum * sum / (static_cast<double>(count) * sum_sq); }
};

// {count, min, mean, max} of the values; null statistics when there are none.
nlohmann::json MinMeanMax(const Moments& m) {
  const bool has = m.count > 0;
  return {{"count", m.count},
          {"min", OrNull(has, has ? m.min : 0)},
          {"mean", OrNull(has, has ? m.sum / static_cast<double>(m.count) : 0)},
          {"max", OrNull(has, has ? m.max : 0)}};
}

// Of sorted values, as Percentile.
double SortedPercentile(const std::vector<double>& values, double pct) {
  double pos = pct / 100.0 * static_cast<double>(values.size() - 1);
  size_t lo = static_cast<size_t>(pos);
  size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (values[hi] - values[lo]) * (pos - static_cast<double>(lo));
}

// The percentile `pct` of `v`, as SortedPercentile of it sorted, where v[from, end) holds the
// values of rank `from` and up (unordered): the two ranks it interpolates between are selected
// (nth_element, then the least of the rest), not sorted. `lo` becomes the first one's rank,
// before which `v` then holds only smaller ranks.
double SelectedPercentile(std::vector<double>& v, size_t from, double pct, size_t& lo) {
  const double pos = pct / 100.0 * static_cast<double>(v.size() - 1);
  lo = static_cast<size_t>(pos);
  const auto at = [&](size_t i) { return v.begin() + static_cast<std::ptrdiff_t>(i); };
  std::nth_element(at(from), at(lo), v.end());
  const double low = v[lo];
  const double high = lo + 1 < v.size() ? *std::min_element(at(lo + 1), v.end()) : low;
  return low + (high - low) * (pos - static_cast<double>(lo));
}

// {count, p50, p95, p99, max}; null statistics when there are none. Reorders `v` in place (with
// millions of flows, a copy per percentile would cost as much as the flows' outcomes), by
// selection rather than a sort: the same values in linear time.
nlohmann::json Percentiles(std::vector<double>& v) {
  const bool has = !v.empty();
  double p[3] = {0, 0, 0};
  double max = 0;
  if (has) {
    size_t from = 0;
    const double pcts[3] = {50, 95, 99};
    for (int i = 0; i < 3; ++i) p[i] = SelectedPercentile(v, from, pcts[i], from);
    max = *std::max_element(v.begin() + static_cast<std::ptrdiff_t>(from), v.end());
  }
  return {{"count", v.size()},
          {"p50", OrNull(has, p[0])},
          {"p95", OrNull(has, p[1])},
          {"p99", OrNull(has, p[2])},
          {"max", OrNull(has, max)}};
}

// The flow-size buckets of the HPCC paper's FCT figures.
struct SizeBucket {
  const char* label;
  Bytes min;  // inclusive
  Bytes max;  // exclusive; 0 = no bound
};
constexpr std::array<SizeBucket, 4> kSizeBuckets = {
    SizeBucket{"<10KB", 0, 10000}, SizeBucket{"10KB-100KB", 10000, 100000},
    SizeBucket{"100KB-1MB", 100000, 1000000}, SizeBucket{">=1MB", 1000000, 0}};
constexpr Bytes kLongFlowBytes = 1000000;

}  // namespace

bool WasActive(const FlowOutcome& f, Time end) { return f.start < end; }

Time ActiveUntil(const FlowOutcome& f, Time end) { return f.finish >= 0 ? f.finish : end; }

double FlowThroughputGbps(const FlowOutcome& f, Time end) {
  const Time span = ActiveUntil(f, end) - f.start;
  return span > 0 ? static_cast<double>(f.delivered) * 8.0 * 1e3 / static_cast<double>(span) : 0;
}

double Slowdown(const FlowOutcome& f) {
  return std::max(1.0, static_cast<double>(f.finish - f.start) / static_cast<double>(f.ideal_fct));
}

namespace {

// Calls `visit(outcome, index)` with each flow of `flows`, or with those at the indices `subset`.
template <class Visit>
void ForEachFlow(const FlowOutcomes& flows, const std::vector<uint32_t>* subset, Visit visit) {
  if (subset == nullptr) {
    for (size_t i = 0; i < flows.size(); ++i) visit(flows[i], i);
  } else {
    for (uint32_t i : *subset) visit(flows[i], i);
  }
}

}  // namespace

bool ActiveTogether(const FlowOutcomes& flows, Time end, const std::vector<uint32_t>* subset) {
  Time latest_start = std::numeric_limits<Time>::min();
  Time earliest_stop = std::numeric_limits<Time>::max();
  ForEachFlow(flows, subset, [&](const FlowOutcome& f, size_t) {
    if (!WasActive(f, end)) return;
    latest_start = std::max(latest_start, f.start);
    earliest_stop = std::min(earliest_stop, ActiveUntil(f, end));
  });
  return latest_start < earliest_stop;
}

double Percentile(std::vector<double> values, double pct) {
  std::sort(values.begin(), values.end());
  return SortedPercentile(values, pct);
}

double JainIndex(const std::vector<double>& values) {
  Moments m;
  for (double v : values) m.Add(v);
  return m.Jain();
}

nlohmann::json FlowMetrics(const FlowOutcomes& flows, Time end, const std::vector<uint32_t>* subset,
                           const std::vector<double>* max_min) {
  // No list but the slowdowns' (for their percentiles), one at a time: with millions of flows,
  // each costs 8 bytes a flow.
  nlohmann::json j;
  j["flows"] = subset != nullptr ? subset->size() : flows.size();
  Moments throughputs, long_throughputs;
  ForEachFlow(flows, subset, [&](const FlowOutcome& f, size_t) {
    if (!WasActive(f, end)) return;
    const double gbps = FlowThroughputGbps(f, end);
    throughputs.Add(gbps);
    if (f.size >= kLongFlowBytes) long_throughputs.Add(gbps);
  });
  const size_t active = throughputs.count;
  const bool jain =
      throughputs.count >= 2 && throughputs.sum_sq > 0 && ActiveTogether(flows, end, subset);
  j["flow_throughput_gbps"] = MinMeanMax(throughputs);
  j["jain_fairness"] = OrNull(jain, jain ? throughputs.Jain() : 0);
  // The same flows' max-min shares, and their throughputs as fractions of them.
  Moments shares, fractions;
  if (jain && max_min != nullptr) {
    ForEachFlow(flows, subset, [&](const FlowOutcome& f, size_t i) {
      if (!WasActive(f, end)) return;
      const double share = i < max_min->size() ? (*max_min)[i] : 0;
      shares.Add(share);
      fractions.Add(share > 0 ? FlowThroughputGbps(f, end) / share : 0);
    });
  }
  const bool all_shares = shares.count > 0 && shares.min > 0;
  j["max_min_jain_fairness"] = OrNull(all_shares, all_shares ? shares.Jain() : 0);
  const bool normalised = all_shares && fractions.max > 0;
  j["normalised_jain_fairness"] = OrNull(normalised, normalised ? fractions.Jain() : 0);
  j["long_flow_throughput_gbps"] = MinMeanMax(long_throughputs);
  j["long_flow_throughput_gbps"]["min_bytes"] = kLongFlowBytes;
  j["active"] = active;
  // The slowdowns of the finished flows of sizes [min, max) (max 0: no bound).
  // (Counted first: a list grown one at a time may hold twice what it needs.)
  auto slowdowns = [&](Bytes min, Bytes max) {
    auto counts = [&](const FlowOutcome& f) {
      return WasActive(f, end) && f.finish >= 0 && f.size >= min && (max == 0 || f.size < max);
    };
    size_t n = 0;
    ForEachFlow(flows, subset, [&](const FlowOutcome& f, size_t) { n += counts(f) ? 1 : 0; });
    std::vector<double> v;
    v.reserve(n);
    ForEachFlow(flows, subset, [&](const FlowOutcome& f, size_t) {
      if (counts(f)) v.push_back(Slowdown(f));
    });
    return v;
  };
  {
    std::vector<double> all = slowdowns(0, 0);
    j["finished"] = all.size();
    j["fct_slowdown"] = Percentiles(all);
  }
  nlohmann::json buckets = nlohmann::json::object();
  for (const SizeBucket& k : kSizeBuckets) {
    std::vector<double> v = slowdowns(k.min, k.max);
    buckets[k.label] = Percentiles(v);
    buckets[k.label]["min_bytes"] = k.min;
    buckets[k.label]["max_bytes"] = k.max > 0 ? nlohmann::json(k.max) : nlohmann::json();
  }
  j["fct_slowdown_by_size"] = buckets;
  return j;
}

}  // namespace dcqcn
