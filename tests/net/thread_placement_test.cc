// ThreadPlacement: racks stay whole, regions are connected, the lookahead is the smallest delay
// between threads.
#include "net/thread_placement.h"

#include <gtest/gtest.h>

namespace dcqcn {
namespace {

// Two racks (s0 with h0 and h1, s1 with h2 and h3) under a spine s2; the uplinks are slower to
// cross (2 us) than the host links (1 us).
Topology TwoRacks() {
  Topology t;
  t.hosts = 4;
  t.switches = 3;
  const Time us = kMicrosecond;
  t.links = {{0, 4, 100 * kGbps, us}, {1, 4, 100 * kGbps, us},     {2, 5, 100 * kGbps, us},
             {3, 5, 100 * kGbps, us}, {4, 6, 100 * kGbps, 2 * us}, {5, 6, 100 * kGbps, 3 * us}};
  return t;
}

TEST(ThreadPlacementTest, OneThreadHoldsEverything) {
  const ThreadPlacement p = PlaceOnThreads(TwoRacks(), 1);
  EXPECT_EQ(p.threads, 1);
  EXPECT_EQ(p.thread_of, std::vector<int>(7, 0));
  EXPECT_EQ(p.lookahead, kTimeNever);
  EXPECT_EQ(p.partitions, 3);
}

TEST(ThreadPlacementTest, RacksStayWholeAndTheLookaheadIsTheSmallestDelayBetweenThreads) {
  const ThreadPlacement p = PlaceOnThreads(TwoRacks(), 2);
  ASSERT_EQ(p.threads, 2);
  // Loads (ports): racks 5 each, the spine 2. Thread 0 grows from rack 0 into the spine.
  EXPECT_EQ(p.thread_of, (std::vector<int>{0, 0, 1, 1, 0, 1, 0}));
  EXPECT_EQ(p.lookahead, 3 * kMicrosecond);  // s1 - s2, the only link between threads
}

TEST(ThreadPlacementTest, NoMoreThreadsThanPartitions) {
  const ThreadPlacement p = PlaceOnThreads(TwoRacks(), 10);
  EXPECT_EQ(p.threads, 3);
  EXPECT_EQ(p.thread_of[0], p.thread_of[4]);
  EXPECT_EQ(p.thread_of[2], p.thread_of[5]);
  EXPECT_NE(p.thread_of[4], p.thread_of[5]);
  EXPECT_NE(p.thread_of[6], p.thread_of[4]);
  EXPECT_EQ(p.lookahead, 2 * kMicrosecond);
}

TEST(ThreadPlacementTest, AServersHostsStayTogether) {
  // Two rails: servers (h0, h1) and (h2, h3), each server's first GPU on rail s0 and its second
  // on rail s1, both rails under the spine s2. Alone, each rail is a rack; a server's GPUs kept
  // together join the rails.
  Topology rails = TwoRacks();
  const Time us = kMicrosecond;
  rails.links = {{0, 4, 100 * kGbps, us}, {1, 5, 100 * kGbps, us},     {2, 4, 100 * kGbps, us},
                 {3, 5, 100 * kGbps, us}, {4, 6, 100 * kGbps, 2 * us}, {5, 6, 100 * kGbps, 3 * us}};
  const ThreadPlacement apart = PlaceOnThreads(rails, 2);
  EXPECT_EQ(apart.partitions, 3);
  EXPECT_NE(apart.thread_of[0], apart.thread_of[1]);
  const ThreadPlacement p = PlaceOnThreads(rails, 2, 2);
  EXPECT_EQ(p.partitions, 2);  // the rails with their servers, the spine
  for (const int node : {1, 2, 3, 4, 5}) EXPECT_EQ(p.thread_of[node], p.thread_of[0]) << node;
  EXPECT_NE(p.thread_of[6], p.thread_of[0]);
  EXPECT_EQ(p.lookahead, 2 * kMicrosecond);
}

}  // namespace
}  // namespace dcqcn
