// The per-flow metrics: over every active flow, null when empty, Jain only for flows active
// together.
#include "output/metrics.h"

#include <gtest/gtest.h>

namespace dcqcn {
namespace {

constexpr Time kEnd = 60 * kMillisecond;

// An unfinished flow that delivered `gbps` on average from `start` to the end of the run.
FlowOutcome Unfinished(double gbps, Time start = 0) {
  FlowOutcome f;
  f.size = 1000000000;
  f.start = start;
  f.ideal_fct = 200 * kMillisecond;
  f.delivered = static_cast<Bytes>(gbps * 1e9 / 8 * static_cast<double>(kEnd - start) / 1e12);
  return f;
}

FlowOutcome Finished(Bytes size, Time start, Time fct, Time ideal) {
  FlowOutcome f;
  f.size = size;
  f.start = start;
  f.finish = start + fct;
  f.ideal_fct = ideal;
  f.delivered = size;
  return f;
}

TEST(FlowMetrics, UnfinishedFlowsCountInThroughputAndFairness) {
  // The PFC-unfairness shares: three flows behind one port, one alone (none finishes).
  const nlohmann::json m =
      FlowMetrics({Unfinished(6.14), Unfinished(6.14), Unfinished(6.14), Unfinished(18.42)}, kEnd);
  EXPECT_EQ(m["active"], 4);
  EXPECT_EQ(m["finished"], 0);
  EXPECT_EQ(m["flow_throughput_gbps"]["count"], 4);
  EXPECT_NEAR(m["flow_throughput_gbps"]["min"].get<double>(), 6.14, 1e-3);
  EXPECT_NEAR(m["flow_throughput_gbps"]["max"].get<double>(), 18.42, 1e-3);
  EXPECT_NEAR(m["flow_throughput_gbps"]["mean"].get<double>(), 9.21, 1e-3);
  EXPECT_NEAR(m["jain_fairness"].get<double>(), 0.75, 1e-3);
  EXPECT_EQ(m["long_flow_throughput_gbps"]["count"], 4);
  // Nothing finished: every FCT statistic is null, not 0.
  EXPECT_EQ(m["fct_slowdown"]["count"], 0);
  EXPECT_TRUE(m["fct_slowdown"]["p50"].is_null());
  EXPECT_TRUE(m["fct_slowdown"]["max"].is_null());
  EXPECT_TRUE(m["fct_slowdown_by_size"][">=1MB"]["p99"].is_null());
}

TEST(FlowMetrics, EmptyStatisticsAreNull) {
  const nlohmann::json m = FlowMetrics({}, kEnd);
  EXPECT_EQ(m["flows"], 0);
  EXPECT_TRUE(m["jain_fairness"].is_null());
  EXPECT_TRUE(m["flow_throughput_gbps"]["mean"].is_null());
  EXPECT_TRUE(m["long_flow_throughput_gbps"]["mean"].is_null());
  // A flow that starts after the end of the run was never active.
  const nlohmann::json late = FlowMetrics({Unfinished(1, kEnd + 1)}, kEnd);
  EXPECT_EQ(late["flows"], 1);
  EXPECT_EQ(late["active"], 0);
  EXPECT_TRUE(late["flow_throughput_gbps"]["min"].is_null());
}

TEST(FlowMetrics, JainOnlyForFlowsActiveTogether) {
  // One flow: fairness means nothing.
  EXPECT_TRUE(FlowMetrics({Unfinished(10)}, kEnd)["jain_fairness"].is_null());
  // Two flows one after the other never competed.
  const FlowOutcome a = Finished(1000000, 0, 1 * kMillisecond, 1 * kMillisecond);
  const FlowOutcome b = Finished(1000000, 2 * kMillisecond, 1 * kMillisecond, 1 * kMillisecond);
  EXPECT_FALSE(ActiveTogether({a, b}, kEnd));
  EXPECT_TRUE(FlowMetrics({a, b}, kEnd)["jain_fairness"].is_null());
  // Overlapping flows do.
  const FlowOutcome c = Finished(1000000, kMillisecond / 2, 1 * kMillisecond, 1 * kMillisecond);
  EXPECT_TRUE(ActiveTogether({a, c}, kEnd));
  EXPECT_NEAR(FlowMetrics({a, c}, kEnd)["jain_fairness"].get<double>(), 1.0, 1e-12);
}

TEST(FlowMetrics, SlowdownAndThroughputOfFinishedFlows) {
  // 1 MB in 2 ms with an ideal of 1 ms: slowdown 2, 4 Gb/s.
  const FlowOutcome f = Finished(1000000, 5 * kMillisecond, 2 * kMillisecond, 1 * kMillisecond);
  EXPECT_DOUBLE_EQ(Slowdown(f), 2.0);
  EXPECT_DOUBLE_EQ(FlowThroughputGbps(f, kEnd), 4.0);
  // Faster than ideal counts as 1.
  EXPECT_DOUBLE_EQ(Slowdown(Finished(1000, 0, 1, 2)), 1.0);
  const nlohmann::json m = FlowMetrics({f}, kEnd);
  EXPECT_EQ(m["fct_slowdown"]["count"], 1);
  EXPECT_DOUBLE_EQ(m["fct_slowdown"]["p99"].get<double>(), 2.0);
  EXPECT_EQ(m["fct_slowdown_by_size"][">=1MB"]["count"], 1);
  EXPECT_EQ(m["fct_slowdown_by_size"]["<10KB"]["count"], 0);
}

TEST(FlowMetrics, PercentileInterpolatesLikeNumpy) {
  EXPECT_DOUBLE_EQ(Percentile({1, 2, 3, 4}, 50), 2.5);
  EXPECT_DOUBLE_EQ(Percentile({4, 1, 3, 2}, 100), 4);
  EXPECT_DOUBLE_EQ(Percentile({7}, 99), 7);
  EXPECT_DOUBLE_EQ(JainIndex({1, 1, 1, 3}), 36.0 / 48.0);
}

TEST(FlowMetrics, SlowdownPercentilesAreThoseOfTheSortedValues) {
  // Selected rather than sorted: the same values, bit for bit, at every size (the ranks they
  // interpolate between coincide for few flows), with ties and in any order.
  for (int n : {1, 2, 3, 7, 100, 1001}) {
    std::vector<FlowOutcome> flows;
    std::vector<double> slowdowns;
    for (int i = 0; i < n; ++i) {
      const Time fct = (1 + (i * 7919) % 97 + (i % 5 == 0 ? 13 : 0)) * kMicrosecond;
      flows.push_back(Finished(1000, 0, fct, 1 * kMicrosecond));
      slowdowns.push_back(Slowdown(flows.back()));
    }
    const nlohmann::json m = FlowMetrics(flows, kEnd)["fct_slowdown"];
    EXPECT_EQ(m["p50"].get<double>(), Percentile(slowdowns, 50)) << n;
    EXPECT_EQ(m["p95"].get<double>(), Percentile(slowdowns, 95)) << n;
    EXPECT_EQ(m["p99"].get<double>(), Percentile(slowdowns, 99)) << n;
    EXPECT_EQ(m["max"].get<double>(), Percentile(slowdowns, 100)) << n;
  }
}

TEST(FlowMetrics, JainAgainstMaxMinShares) {
  // The PFC-unfairness shares again, where max-min gives the lone flow 3x the others: the
  // throughputs are exactly the fair ones (issue 28, item 9).
  const std::vector<FlowOutcome> flows = {Unfinished(6.14), Unfinished(6.14), Unfinished(6.14),
                                          Unfinished(18.42)};
  const std::vector<double> shares = {10, 10, 10, 30};
  const nlohmann::json m = FlowMetrics(flows, kEnd, nullptr, &shares);
  ASSERT_TRUE(m.contains("max_min_jain_fairness") && m.contains("normalised_jain_fairness"));
  EXPECT_NEAR(m["jain_fairness"].get<double>(), 0.75, 1e-3);
  EXPECT_NEAR(m["max_min_jain_fairness"].get<double>(), 0.75, 1e-12);
  EXPECT_NEAR(m["normalised_jain_fairness"].get<double>(), 1.0, 1e-3);
  // Per subset, with the same shares; one flow or no shares: null.
  const std::vector<uint32_t> three = {0, 1, 2}, one = {3};
  EXPECT_NEAR(FlowMetrics(flows, kEnd, &three, &shares)["max_min_jain_fairness"].get<double>(), 1.0,
              1e-12);
  EXPECT_TRUE(FlowMetrics(flows, kEnd, &one, &shares)["normalised_jain_fairness"].is_null());
  EXPECT_TRUE(FlowMetrics(flows, kEnd)["max_min_jain_fairness"].is_null());
  const std::vector<double> none;
  EXPECT_TRUE(FlowMetrics(flows, kEnd, nullptr, &none)["normalised_jain_fairness"].is_null());
}

}  // namespace
}  // namespace dcqcn
