// Convergence time: measured from the last change in the set of active flows, only in a period
// long enough to tell, and only when the flows stay fair.
#include "output/convergence.h"

#include <gtest/gtest.h>

#include <functional>

namespace dcqcn {
namespace {

constexpr Time kStep = 100 * kMicrosecond;

// Samples every 100 us from 0 to `end`; each flow's rate (Gb/s) at time t is rates[f](t), zero
// outside [start, finish).
struct Samples {
  std::vector<Time> times;
  DeliveredSamples delivered;
};

Samples Sample(const std::vector<FlowOutcome>& flows, Time end,
               const std::vector<std::function<double(Time)>>& rates) {
  Samples s;
  s.delivered.resize(flows.size());
  std::vector<double> bytes(flows.size(), 0);
  for (Time t = 0; t <= end; t += kStep) {
    const uint32_t k = static_cast<uint32_t>(s.times.size());
    s.times.push_back(t);
    for (size_t f = 0; f < flows.size(); ++f) {
      if (t < flows[f].start) continue;
      s.delivered[f].push_back({k, static_cast<Bytes>(bytes[f])});
      const bool active = flows[f].finish < 0 || t < flows[f].finish;
      if (active) bytes[f] += rates[f](t) * 1e9 / 8 * static_cast<double>(kStep) / 1e12;
    }
  }
  return s;
}

FlowOutcome Flow(Time start, Time finish = -1) {
  FlowOutcome f;
  f.size = 1000000000;
  f.start = start;
  f.finish = finish;
  f.ideal_fct = 1;
  return f;
}

const ConvergenceOptions kOptions{5 * kMillisecond, 0.15};

TEST(Convergence, MeasuredFromTheLastJoin) {
  // Two flows share 40 Gb/s; a third joins at 10 ms; until 25 ms the first keeps 30 Gb/s and
  // the others get 5, then all three get 40/3.
  const Time end = 60 * kMillisecond;
  const std::vector<FlowOutcome> flows = {Flow(0), Flow(0), Flow(10 * kMillisecond)};
  auto first = [](Time t) {
    return t < 10 * kMillisecond ? 20 : (t < 25 * kMillisecond ? 30 : 40.0 / 3);
  };
  auto other = [](Time t) {
    return t < 10 * kMillisecond ? 20 : (t < 25 * kMillisecond ? 5 : 40.0 / 3);
  };
  const Samples s = Sample(flows, end, {first, other, other});
  const Convergence c = MeasureConvergence(flows, end, s.times, s.delivered, kOptions);
  EXPECT_EQ(c.status, "converged");
  EXPECT_EQ(c.from, 10 * kMillisecond);
  EXPECT_EQ(c.to, end);
  EXPECT_EQ(c.flows, 3);
  // A window starting at t is within 15% once the unfair 16.7 Gb/s excess lasts less than
  // 0.15 * 5 ms * 40/3 / (30 - 40/3) = 0.6 ms of it: from 24.4 ms on, 14.4 ms after the join.
  EXPECT_NEAR(static_cast<double>(c.time()), 14.4e9, 0.11e9);
  const nlohmann::json j = ConvergenceJson(c, kOptions);
  EXPECT_EQ(j["period_from_ns"], 10000000);
  EXPECT_EQ(j["window_ns"], 5000000);
  EXPECT_EQ(j["time_ns"].get<double>() * 1000, static_cast<double>(c.time()));
}

TEST(Convergence, FairOnlyAtTheVeryEndIsNotConvergence) {
  // Unfair until 57 ms of a 60 ms run: only the last windows are fair, too few to count.
  const Time end = 60 * kMillisecond;
  const std::vector<FlowOutcome> flows = {Flow(0), Flow(0)};
  auto a = [](Time t) { return t < 57 * kMillisecond ? 30 : 20; };
  auto b = [](Time t) { return t < 57 * kMillisecond ? 10 : 20; };
  const Samples s = Sample(flows, end, {a, b});
  const Convergence c = MeasureConvergence(flows, end, s.times, s.delivered, kOptions);
  EXPECT_EQ(c.time(), -1);
  EXPECT_NE(c.status.find("not converged"), std::string::npos) << c.status;
  EXPECT_TRUE(ConvergenceJson(c, kOptions)["time_ns"].is_null());
}

TEST(Convergence, SkipsPeriodsTooShortOrWithOneFlow) {
  // Three flows from 0; one leaves at 30 ms (two remain until 58 ms), a second leaves at 58 ms
  // (one flow left: no fairness), and the period 30..58 ms is the one measured.
  const Time end = 60 * kMillisecond;
  const std::vector<FlowOutcome> flows = {Flow(0, 30 * kMillisecond), Flow(0, 58 * kMillisecond),
                                          Flow(0)};
  auto fair = [](Time t) { return t < 30 * kMillisecond ? 40.0 / 3 : 20; };
  const Samples s = Sample(flows, end, {fair, fair, fair});
  Convergence c = MeasureConvergence(flows, end, s.times, s.delivered, kOptions);
  EXPECT_EQ(c.from, 30 * kMillisecond);
  EXPECT_EQ(c.to, 58 * kMillisecond);
  EXPECT_EQ(c.flows, 2);
  EXPECT_EQ(c.time(), 0);
  // A second leaver at 38 ms makes 30..38 ms too short for two windows: 0..30 ms is used.
  const std::vector<FlowOutcome> early = {Flow(0, 30 * kMillisecond), Flow(0, 38 * kMillisecond),
                                          Flow(0)};
  c = MeasureConvergence(early, end, s.times, s.delivered, kOptions);
  EXPECT_EQ(c.from, 0);
  EXPECT_EQ(c.to, 30 * kMillisecond);
  EXPECT_EQ(c.flows, 3);
}

TEST(Convergence, LongPeriodsFromBucketsAreThoseOfEveryInstant) {
  // Flows starting and finishing at scattered instants (some equal, some unfinished, some
  // starting after the end): the periods found from each bucket's earliest and latest instant
  // are exactly those of the sorted list of all of them, for lengths around the gaps' sizes.
  const Time end = 100 * kMillisecond;
  std::vector<FlowOutcome> flows;
  for (int i = 0; i < 400; ++i) {
    const Time start = (i * 7919 % 1000) * 97 * kMicrosecond;
    const Time length = (i % 3 == 0 ? 50 : 3 + i * 31 % 200) * kMicrosecond;
    flows.push_back(Flow(start, i % 11 == 0 ? -1 : start + length));
  }
  flows.push_back(Flow(end + kMillisecond));  // never active
  for (Time length : {Time{1}, 90 * kMicrosecond, 97 * kMicrosecond, 150 * kMicrosecond,
                      194 * kMicrosecond, 250 * kMicrosecond, 10 * kMillisecond}) {
    const auto by_buckets = LongPeriods(flows, end, length);
    EXPECT_EQ(by_buckets, LongPeriods(flows, end, length, 0)) << length;
    if (length >= 90 * kMicrosecond && length <= 194 * kMicrosecond) {
      EXPECT_FALSE(by_buckets.empty()) << length;  // the buckets were used, and found some
    }
  }
}

TEST(Convergence, SaysWhyThereIsNoNumber) {
  const Time end = 8 * kMillisecond;
  Convergence c = MeasureConvergence({Flow(0), Flow(0)}, end, {}, {}, kOptions);
  EXPECT_EQ(c.from, -1);
  EXPECT_NE(c.status.find("no period of 10ms"), std::string::npos) << c.status;
  c = MeasureConvergence({Flow(0), Flow(0)}, 60 * kMillisecond, {}, {}, kOptions);
  EXPECT_EQ(c.from, 0);
  EXPECT_NE(c.status.find("throughput"), std::string::npos) << c.status;
}

}  // namespace
}  // namespace dcqcn
