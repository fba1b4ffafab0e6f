// ThreadTeam: every thread runs each round, rounds see each other's writes, errors come back.
#include "core/thread_team.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace dcqcn {
namespace {

TEST(ThreadTeamTest, EveryThreadRunsEveryRoundAndSeesTheLastRoundsWrites) {
  for (const int threads : {1, 2, 5}) {  // 5: more threads than this machine has cores
    ThreadTeam team(threads);
    std::vector<int> value(threads, 0);
    for (int round = 1; round <= 200; ++round) {
      // Each thread reads its neighbour's value of the last round: a round ends for all first.
      std::vector<int> next(threads);
      team.Run([&](int i) { next[i] = value[(i + 1) % threads] + 1; });
      value = next;
      for (int i = 0; i < threads; ++i) ASSERT_EQ(value[i], round);
    }
  }
}

TEST(ThreadTeamTest, AnErrorInAThreadIsRethrownOnceAllHaveReturned) {
  ThreadTeam team(3);
  std::vector<int> ran(3, 0);
  EXPECT_THROW(team.Run([&](int i) {
    ran[i] = 1;
    if (i == 2) throw std::runtime_error("thread 2");
  }),
               std::runtime_error);
  EXPECT_EQ(ran, (std::vector<int>{1, 1, 1}));
  // The team goes on.
  team.Run([&](int i) { ran[i] = 2; });
  EXPECT_EQ(ran, (std::vector<int>{2, 2, 2}));
}

}  // namespace
}  // namespace dcqcn
