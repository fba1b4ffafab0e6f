// Max-min fair shares by progressive filling, on the textbook cases.
#include "core/max_min.h"

#include <gtest/gtest.h>

namespace dcqcn {
namespace {

TEST(MaxMinShares, OneLinkSharedEqually) {
  const std::vector<double> s = MaxMinShares({{0}, {0}, {0}, {0}}, {40});
  for (double x : s) EXPECT_DOUBLE_EQ(x, 10);
}

TEST(MaxMinShares, ParkingLot) {
  // Links 0 and 1 of 10; flow 0 crosses both, flows 1 and 2 one each: all get 5.
  EXPECT_EQ(MaxMinShares({{0, 1}, {0}, {1}}, {10, 10}), (std::vector<double>{5, 5, 5}));
  // Link 1 of 4 holds flows 0 and 2 at 2: flow 1 takes what link 0 has left.
  EXPECT_EQ(MaxMinShares({{0, 1}, {0}, {1}}, {10, 4}), (std::vector<double>{2, 8, 2}));
}

TEST(MaxMinShares, VictimFlow) {
  // The DCQCN paper's victim: 4 incast flows to R's link (link 0), two of them sharing an
  // uplink (link 1) with the victim, which also crosses link 2. The incast gets 10 each, the
  // victim what is left of the uplink: 20.
  const std::vector<double> s = MaxMinShares({{1, 0}, {0}, {1, 0}, {0}, {1, 2}}, {40, 40, 40});
  EXPECT_EQ(s, (std::vector<double>{10, 10, 10, 10, 20}));
}

TEST(MaxMinShares, OwnLimitAndNoLink) {
  // Flow 0's own limit (link 1, 3) leaves flow 1 the rest of link 0; flow 2 crosses nothing.
  EXPECT_EQ(MaxMinShares({{0, 1}, {0}, {}}, {10, 3}), (std::vector<double>{3, 7, 0}));
}

TEST(MaxMinShares, WeightsScaleWhatAFlowTakesOfALink) {
  // Link 0 of 30: flow 0 takes 1 per unit of rate, flow 1 (a data stream's ACKs, say) 0.5; both
  // rise together until 1.5 x = 30. Flow 2 alone on link 1 at weight 2 gets half of it.
  const std::vector<double> s =
      WeightedMaxMinShares({{{0, 1.0}}, {{0, 0.5}}, {{1, 2.0}}}, {30, 10});
  EXPECT_DOUBLE_EQ(s[0], 20);
  EXPECT_DOUBLE_EQ(s[1], 20);
  EXPECT_DOUBLE_EQ(s[2], 5);
}

TEST(MaxMinSolver, SolvesOneProblemAfterAnotherAsIfEachWereTheFirst) {
  MaxMinSolver solver({10, 10, 4});
  const std::vector<LinkUse> a = {{0, 1}, {1, 1}}, b = {{0, 1}}, c = {{1, 1}}, d = {{2, 1}, {0, 1}};
  EXPECT_EQ(solver.Solve({a, b, c}), (std::vector<double>{5, 5, 5}));
  EXPECT_EQ(solver.Solve({b, d}), (std::vector<double>{6, 4}));  // link 1 untouched now
  EXPECT_EQ(solver.Solve({a}), (std::vector<double>{10}));
  EXPECT_EQ(solver.Solve({}), (std::vector<double>{}));
}

}  // namespace
}  // namespace dcqcn
