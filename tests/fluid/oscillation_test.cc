// The oscillation verdict on synthetic traces.
#include "fluid/oscillation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

namespace dcqcn::fluid {
namespace {

TEST(FluidOscillation, VerdictsAndPeriod) {
  std::vector<double> t, flat, cycle, decay;
  for (int i = 0; i <= 10000; ++i) {
    const double s = i * 1e-5;  // 0.1 s
    t.push_back(s);
    flat.push_back(100 + 1e-3 * std::sin(2 * std::numbers::pi * s / 0.002));
    cycle.push_back(100 + 50 * std::sin(2 * std::numbers::pi * s / 0.002));
    decay.push_back(100 + 50 * std::exp(-s / 0.005) * std::sin(2 * std::numbers::pi * s / 0.002));
  }
  EXPECT_EQ(Oscillation(t, flat, 0.05, 0.1, 1).verdict, Verdict::kSteady);
  const OscillationReport c = Oscillation(t, cycle, 0.05, 0.1, 1);
  EXPECT_EQ(c.verdict, Verdict::kOscillating);
  ASSERT_TRUE(c.period_s.has_value());
  EXPECT_NEAR(*c.period_s, 0.002, 2e-5);
  EXPECT_NEAR(c.peak_to_peak, 100, 0.1);
  EXPECT_EQ(Oscillation(t, decay, 0.0, 0.02, 1).verdict, Verdict::kDecaying);
  const WindowStats s = Stats(t, cycle, 0.05, 0.1);
  EXPECT_NEAR(s.mean, 100, 0.1);
  EXPECT_NEAR(s.stddev, 50 / std::sqrt(2.0), 0.1);
}

}  // namespace
}  // namespace dcqcn::fluid
