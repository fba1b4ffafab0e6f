// Mean and 95% confidence interval over seeds (src/output/mean_ci.h), against published Student t
// quantiles.
#include "output/mean_ci.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace dcqcn {
namespace {

TEST(MeanCi, StudentTQuantiles) {
  EXPECT_EQ(T975(1), 12.706);
  EXPECT_EQ(T975(2), 4.303);
  EXPECT_EQ(T975(30), 2.042);
  // Beyond the table: t(0.975, 40) = 2.0211, t(0.975, 100) = 1.9840, t(0.975, 1000) = 1.9623.
  EXPECT_NEAR(T975(40), 2.0211, 1e-4);
  EXPECT_NEAR(T975(100), 1.9840, 1e-4);
  EXPECT_NEAR(T975(1000), 1.9623, 1e-4);
}

TEST(MeanCi, MeanAndHalfWidthOfTheFiniteValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Mean 2, sample standard deviation 1: half-width t(0.975, 2) / sqrt(3).
  const MeanCi m = MeanCi95({1, nan, 3, 2});
  EXPECT_EQ(m.n, 3);
  EXPECT_EQ(m.mean, 2);
  EXPECT_DOUBLE_EQ(m.half_width, 4.303 / std::sqrt(3.0));
  const MeanCi one = MeanCi95({5});
  EXPECT_EQ(one.n, 1);
  EXPECT_EQ(one.mean, 5);
  EXPECT_TRUE(std::isnan(one.half_width));
  const MeanCi none = MeanCi95({});
  EXPECT_EQ(none.n, 0);
  EXPECT_TRUE(std::isnan(none.mean));
}

}  // namespace
}  // namespace dcqcn
