// The fluid model's fixed points against values computed independently (mpmath, 40 digits, from
// the spec's equations in their original form; see docs/fluid.md).
#include "fluid/fixed_point.h"

#include <gtest/gtest.h>

namespace dcqcn::fluid {
namespace {

TEST(FluidFixedPoint, ExactMatchesHandComputedPaperDefaults) {
  FluidParams p;  // 40G, 5 KB / 200 KB / 1 %, the CoNEXT'16 parameters
  struct Case {
    int n;
    double p, queue, alpha, rt_gbps;
  };
  for (const Case& c : {Case{2, 0.000776988633312, 20151.2783496, 0.1013642183, 20.21798986},
                        Case{10, 0.00603195522597, 122623.126906, 0.1532764936, 4.103312248}}) {
    SCOPED_TRACE(c.n);
    const FixedPoint fp = ExactFixedPoint(p, c.n);
    EXPECT_NEAR(fp.p, c.p, 1e-9 * c.p);
    ASSERT_TRUE(fp.on_curve());
    EXPECT_NEAR(*fp.queue_bytes, c.queue, 1e-6 * c.queue);
    EXPECT_NEAR(fp.alpha, c.alpha, 1e-8);
    EXPECT_NEAR(fp.rt_bps / 1e9, c.rt_gbps, 1e-7);
    EXPECT_DOUBLE_EQ(fp.rc_bps, 40e9 / c.n);
  }
}

TEST(FluidFixedPoint, NoneOnTheOnePercentCurveFor64Flows) {
  FluidParams p;
  const FixedPoint fp = ExactFixedPoint(p, 64);
  EXPECT_NEAR(fp.p, 0.0590535876326, 1e-11);
  EXPECT_FALSE(fp.on_curve());
  EXPECT_FALSE(ApproxFixedPoint(p, 64).on_curve());
  // The curve of the paper's model files (2000 KB / 10 %) has one.
  p.kmax = 2000000;
  p.pmax = 0.1;
  const FixedPoint ext = ExactFixedPoint(p, 64);
  ASSERT_TRUE(ext.on_curve());
  EXPECT_NEAR(*ext.queue_bytes, 1183119.07327, 1e-3);
}

TEST(FluidFixedPoint, CubeRootApproximationOverestimates) {
  FluidParams p;
  // N = 2: the spec's "p* ~ 0.09 %, q* ~ 23 KB".
  const FixedPoint a2 = ApproxFixedPoint(p, 2);
  EXPECT_NEAR(a2.p, 0.0009246865597, 1e-12);
  EXPECT_NEAR(*a2.queue_bytes, 23031.38791, 1e-4);
  for (int n : {2, 10, 64}) {
    const double exact = ExactFixedPoint(p, n).p, approx = ApproxFixedPoint(p, n).p;
    EXPECT_GT(approx, 1.15 * exact) << n;
    EXPECT_LT(approx, 1.65 * exact) << n;
  }
}

TEST(FluidFixedPoint, SlowerIncreaseLowersTheMarking) {
  FluidParams p;
  p.rai = 10 * kMbps;
  p.kmax = 1000000;
  EXPECT_NEAR(ExactFixedPoint(p, 10).p, 0.00412890914412, 1e-12);
  EXPECT_NEAR(*ExactFixedPoint(p, 10).queue_bytes, 415826.45984, 1e-3);
}

}  // namespace
}  // namespace dcqcn::fluid
