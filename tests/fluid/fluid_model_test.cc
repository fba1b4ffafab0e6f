// The DCQCN fluid model: conservation of the queue, symmetry of identical flows, per-flow starts
// and agreement of a settled run with the exact fixed point.
#include "fluid/fluid_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "fluid/fixed_point.h"
#include "fluid/oscillation.h"

namespace dcqcn::fluid {
namespace {

struct Trace {
  std::vector<double> t, q, p, sum_rc;
  std::vector<std::vector<double>> rc;
};

Trace RunTrace(const FluidParams& params, const std::vector<FluidFlow>& flows, Time duration,
               Time sample, Time step = kMicrosecond) {
  FluidOptions o;
  o.duration = duration;
  o.sample = sample;
  o.step = step;
  Trace tr;
  RunFluid(params, flows, o, [&](const FluidState& s) {
    tr.t.push_back(s.time_s);
    tr.q.push_back(s.queue_bytes);
    tr.p.push_back(s.mark_prob);
    double sum = 0;
    for (size_t i = 0; i < s.rc_bps.size(); ++i) {
      if (flows[i].start <= s.time_s * kSecond) sum += s.rc_bps[i];
    }
    tr.sum_rc.push_back(sum);
    tr.rc.emplace_back(s.rc_bps.begin(), s.rc_bps.end());
  });
  return tr;
}

TEST(FluidModel, QueueGrowsAtTheExcessRateUntilFeedbackArrives) {
  FluidParams p;  // 85 us
  const Trace tr = RunTrace(p, IdenticalFlows(3), 85 * kMicrosecond, kMicrosecond);
  // Three flows at line rate into one: 2 C for one delay, nothing marked back yet.
  EXPECT_NEAR(tr.q.back(), 2 * 40e9 / 8 * 85e-6, 1e-6);
  EXPECT_DOUBLE_EQ(tr.rc.back()[0], 40e9);
}

TEST(FluidModel, QueueIsTheIntegralOfTheExcessRateWhileItIsPositive) {
  FluidParams p;
  p.delay = 20 * kMicrosecond;
  const Trace tr = RunTrace(p, IdenticalFlows(4), 20 * kMillisecond, kMicrosecond);
  // Trapezoidal integral of sum Rc - C over stretches where the queue stays positive.
  double checked = 0;
  for (size_t i = 1; i < tr.t.size(); ++i) {
    if (tr.q[i - 1] <= 0 || tr.q[i] <= 0) continue;
    const double dt = tr.t[i] - tr.t[i - 1];
    const double inflow = 0.5 * (tr.sum_rc[i - 1] + tr.sum_rc[i]) / 8 * dt - 40e9 / 8 * dt;
    EXPECT_NEAR(tr.q[i] - tr.q[i - 1], inflow, 1e-3 * 40e9 / 8 * dt) << tr.t[i];
    checked += dt;
  }
  EXPECT_GT(checked, 0.005);
  for (double q : tr.q) EXPECT_GE(q, 0);
  for (const auto& rc : tr.rc) {
    for (double r : rc) EXPECT_LE(r, 40e9);
  }
}

TEST(FluidModel, IdenticalFlowsStayIdentical) {
  FluidParams p;
  p.delay = 85 * kMicrosecond;
  const Trace tr = RunTrace(p, IdenticalFlows(10), 30 * kMillisecond, 10 * kMicrosecond);
  for (const auto& rc : tr.rc) {
    for (double r : rc) EXPECT_EQ(r, rc[0]);
  }
}

TEST(FluidModel, FlowsStartWhenTold) {
  FluidParams p;
  p.delay = 10 * kMicrosecond;
  std::vector<FluidFlow> flows(2);
  flows[1].start = 5 * kMillisecond;
  const Trace tr = RunTrace(p, flows, 10 * kMillisecond, 10 * kMicrosecond);
  for (size_t i = 0; i < tr.t.size(); ++i) {
    if (tr.t[i] <= 0.005) {
      EXPECT_EQ(tr.q[i], 0) << tr.t[i];  // one flow at line rate fills nothing
      EXPECT_EQ(tr.rc[i][0], 40e9);
    }
  }
  EXPECT_GT(tr.q[510], 10000);  // 100 us after the second start
  EXPECT_LT(tr.rc.back()[0], 40e9);
}

TEST(FluidModel, SettlesAtTheExactFixedPoint) {
  FluidParams p;
  p.delay = 4 * kMicrosecond;
  for (int n : {2, 10}) {
    SCOPED_TRACE(n);
    const Trace tr = RunTrace(p, IdenticalFlows(n), 300 * kMillisecond, 10 * kMicrosecond);
    const WindowStats q = Stats(tr.t, tr.q, 0.2, 0.3);
    const FixedPoint fp = ExactFixedPoint(p, n);
    EXPECT_NEAR(q.mean, *fp.queue_bytes, 0.02 * *fp.queue_bytes);
    EXPECT_LT(q.peak_to_peak(), 0.05 * q.mean);
    EXPECT_NEAR(tr.rc.back()[0], 40e9 / n, 0.01 * 40e9 / n);
  }
}

TEST(FluidModel, MarkProbabilityFollowsTheRedCurve) {
  FluidParams p;
  EXPECT_EQ(MarkProbability(p, 5000), 0);
  EXPECT_DOUBLE_EQ(MarkProbability(p, 102500), 0.005);
  EXPECT_DOUBLE_EQ(MarkProbability(p, 200000), 0.01);
  EXPECT_EQ(MarkProbability(p, 200001), 1);
}

TEST(FluidModel, RejectsBadParameters) {
  FluidParams p;
  p.kmax = 1000;
  EXPECT_THROW(RunFluid(p, IdenticalFlows(2), FluidOptions{}, [](const FluidState&) {}),
               std::invalid_argument);
}

}  // namespace
}  // namespace dcqcn::fluid

namespace dcqcn::fluid {
namespace {

// The fluid model reads the packet model's own parameter types: the paper profile and the
// default RED curve give the CoNEXT'16 model's parameters (spec 5) but for the rate floor.
TEST(FluidParamsFrom, PaperProfileIsTheModelsDefaults) {
  const FluidParams p = FluidParamsFrom(EcnConfig{}, DcqcnParams::Profile("paper"), 40 * kGbps,
                                        1000, 85 * kMicrosecond);
  FluidParams want;
  want.min_rate = 100 * kMbps;  // rpg_min_rate; the paper's model has no floor
  EXPECT_EQ(p, want);
}

}  // namespace
}  // namespace dcqcn::fluid
