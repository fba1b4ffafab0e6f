// Max-min fair shares by progressive filling, on the textbook cases.
#include "core/max_min.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

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

// Progressive filling as the textbook states it: at each round, the link whose unfixed flows
// would get the least fixes them at that rate.
std::vector<double> TextbookShares(const std::vector<std::vector<LinkUse>>& paths,
                                   std::vector<double> left) {
  std::vector<double> share(paths.size(), 0);
  std::vector<bool> fixed(paths.size(), false);
  while (true) {
    std::vector<double> rising(left.size(), 0);
    for (size_t f = 0; f < paths.size(); ++f) {
      for (const LinkUse& u : paths[f]) rising[u.link] += fixed[f] ? 0 : u.weight;
    }
    size_t best = left.size();
    for (size_t l = 0; l < left.size(); ++l) {
      if (rising[l] > 0 &&
          (best == left.size() || left[l] / rising[l] < left[best] / rising[best])) {
        best = l;
      }
    }
    if (best == left.size()) return share;
    const double rate = left[best] / rising[best];
    for (size_t f = 0; f < paths.size(); ++f) {
      const bool crosses = std::any_of(paths[f].begin(), paths[f].end(),
                                       [&](const LinkUse& u) { return u.link == best; });
      if (fixed[f] || !crosses) continue;
      fixed[f] = true;
      share[f] = rate;
      for (const LinkUse& u : paths[f]) left[u.link] -= u.weight * rate;
    }
  }
}

TEST(MaxMinSolver, GivesTheTextbooksSharesOnRandomProblems) {
  // Many links, few of them full, flows of no link: the solver stops once every flow is fixed
  // and takes links from a heap built once; the textbook looks at every link every round.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int links = 1 + static_cast<int>(rng() % 12);
    std::vector<double> capacity(links);
    for (double& c : capacity) c = 1 + static_cast<double>(rng() % 100);
    std::vector<std::vector<LinkUse>> paths(1 + rng() % 10);
    for (auto& path : paths) {
      const int hops = static_cast<int>(rng() % 4);  // 0: no link, share 0
      for (int h = 0; h < hops; ++h) {
        path.push_back({static_cast<uint32_t>(rng() % links), 0.25 * (1 + rng() % 4)});
      }
    }
    MaxMinSolver solver(capacity);
    std::vector<std::span<const LinkUse>> of(paths.begin(), paths.end());
    const std::vector<double> got = solver.Solve(of);
    EXPECT_EQ(solver.Solve(of), got);  // what the first solve left does not count
    const std::vector<double> want = TextbookShares(paths, capacity);
    ASSERT_EQ(got.size(), want.size());
    for (size_t f = 0; f < got.size(); ++f) {
      EXPECT_NEAR(got[f], want[f], 1e-9 * std::max(1.0, want[f]))
          << "trial " << trial << " flow " << f;
    }
  }
}

}  // namespace
}  // namespace dcqcn
