// NCCL's double binary tree: the trees of NVIDIA/nccl's src/graph/trees.cc illustrations (n = 14
// and 12, even: mirrored; n = 13, odd: shifted), and the expansion's chunks and waits.
#include <gtest/gtest.h>

#include <vector>

#include "workload/collective/tree.h"
#include "workload/collectives.h"

namespace dcqcn {
namespace {

using Children = std::vector<int>;

TEST(CollectiveTree, TreeZeroIsNcclsBinaryTree) {
  // 0 -- 8, 8 -> {4, 12}, 4 -> {2, 6}, 12 -> {10, 13}, 2 -> {1, 3}, 10 -> {9, 11}.
  const DoubleBinaryTree::Tree t = DoubleBinaryTree::Make(14, 0);
  EXPECT_EQ(t.root, 0);
  EXPECT_EQ(t.children[0], Children({8}));
  EXPECT_EQ(t.children[8], Children({4, 12}));
  EXPECT_EQ(t.children[4], Children({2, 6}));
  EXPECT_EQ(t.children[12], Children({10, 13}));
  EXPECT_EQ(t.children[2], Children({1, 3}));
  EXPECT_EQ(t.children[10], Children({9, 11}));
  EXPECT_EQ(t.parent[13], 12);
  EXPECT_TRUE(t.children[13].empty());
  EXPECT_EQ(DoubleBinaryTree::Depths(t)[1], 4);
}

TEST(CollectiveTree, TreeOneIsMirroredForEvenAndShiftedForOddRanks) {
  // n = 12: 11 -- 3, 3 -> {1, 7}, 7 -> {5, 9}, 1 -> {0, 2}.
  const DoubleBinaryTree::Tree even = DoubleBinaryTree::Make(12, 1);
  EXPECT_EQ(even.root, 11);
  EXPECT_EQ(even.children[11], Children({3}));
  EXPECT_EQ(even.children[3], Children({7, 1}));
  EXPECT_EQ(even.children[7], Children({9, 5}));
  EXPECT_EQ(even.children[1], Children({2, 0}));
  // n = 13: 1 -- 9, 9 -> {5, 0}, 0 -> {11}, 5 -> {3, 7}.
  const DoubleBinaryTree::Tree odd = DoubleBinaryTree::Make(13, 1);
  EXPECT_EQ(odd.root, 1);
  EXPECT_EQ(odd.children[1], Children({9}));
  EXPECT_EQ(odd.children[9], Children({5, 0}));
  EXPECT_EQ(odd.children[0], Children({11}));
  EXPECT_EQ(odd.children[5], Children({3, 7}));
  // A leaf of one tree is an inner node of the other (n even: all but the two roots' ends).
  const DoubleBinaryTree::Tree first = DoubleBinaryTree::Make(12, 0);
  int leaves_of_both = 0;
  for (int r = 0; r < 12; ++r) {
    leaves_of_both += first.children[r].empty() && even.children[r].empty();
  }
  EXPECT_EQ(leaves_of_both, 0);
}

struct Expanded {
  std::vector<FlowSpec> flows;
  FlowAfter after;
  FlowTags tags;
};

Expanded Expand(int n, Bytes size, int iterations = 1) {
  CollectiveConfig c;
  c.algorithm = "tree";
  c.all_ranks = true;
  c.size = size;
  c.iterations = iterations;
  Expanded e;
  ExpandCollective(c, {n, 0}, "collective0", e.flows, e.after, e.tags);
  e.after.Resize(e.flows.size());
  return e;
}

std::vector<uint32_t> Of(const FlowAfter& after, uint32_t id) {
  const auto s = after.of(id);
  return {s.begin(), s.end()};
}

TEST(CollectiveTree, ReducesUpAndBroadcastsDownEachTreeWithHalfTheData) {
  // n = 4: tree 0 is 0 - 2 - {1, 3}; tree 1 (mirrored) is 3 - 1 - {2, 0}.
  const Expanded e = Expand(4, 4000);
  ASSERT_EQ(e.flows.size(), 12u);  // 2 trees x 3 edges x (up + down)
  for (const FlowSpec& f : e.flows) EXPECT_EQ(f.size, 2000);
  // Tree 0 up, deepest first: 1 -> 2, 3 -> 2, then 2 -> 0 after both.
  EXPECT_EQ(e.flows[0].src, 1);
  EXPECT_EQ(e.flows[0].dst, 2);
  EXPECT_FALSE(e.after.waits(0));
  EXPECT_EQ(e.flows[1].src, 3);
  EXPECT_EQ(e.flows[2].src, 2);
  EXPECT_EQ(e.flows[2].dst, 0);
  EXPECT_EQ(Of(e.after, 2), (std::vector<uint32_t>{0, 1}));
  // Down: 0 -> 2 once 2's reduction arrived, then 2 -> 1 and 2 -> 3 once that arrived.
  EXPECT_EQ(e.flows[3].src, 0);
  EXPECT_EQ(e.flows[3].dst, 2);
  EXPECT_EQ(Of(e.after, 3), (std::vector<uint32_t>{2}));
  EXPECT_EQ(e.flows[4].dst, 1);
  EXPECT_EQ(e.flows[5].dst, 3);
  EXPECT_EQ(Of(e.after, 4), (std::vector<uint32_t>{3}));
  // Tree 1 reduces to 3 through 1.
  EXPECT_EQ(e.flows[8].src, 1);
  EXPECT_EQ(e.flows[8].dst, 3);
}

TEST(CollectiveTree, PipelinesChunksWithEightInFlightPerConnection) {
  // 16 MiB: each tree 8 MiB = 16 chunks of 512 KiB; n = 2: one edge per tree.
  const Expanded e = Expand(2, 16 << 20);
  ASSERT_EQ(e.flows.size(), 2u * 16 * 2);
  // Tree 0's ups are flows 0..15 (1 -> 0); the ninth waits for the first's ACK.
  EXPECT_EQ(e.flows[0].size, 512 * 1024);
  EXPECT_FALSE(e.after.waits(7));
  EXPECT_EQ(Of(e.after, 8), (std::vector<uint32_t>{0}));
  // Down chunk k (flows 16..31) waits for up chunk k; from the ninth on, for down chunk k - 8 too.
  EXPECT_EQ(Of(e.after, 16), (std::vector<uint32_t>{0}));
  EXPECT_EQ(Of(e.after, 24), (std::vector<uint32_t>{8, 16}));
  EXPECT_EQ(CollectiveFlowCount(
                [] {
                  CollectiveConfig c;
                  c.algorithm = "tree";
                  c.all_ranks = true;
                  c.size = 16 << 20;
                  c.channels = 2;
                  c.iterations = 3;
                  return c;
                }(),
                {2, 0}),
            4u * 8 * 2 * 3);  // 4 (n - 1) flows per chunk, 8 chunks of a channel's 8 MiB
}

TEST(CollectiveTree, ImplementsOnlyAllReduce) {
  CollectiveConfig c;
  c.op = CollectiveOp::kAllGather;
  c.algorithm = "tree";
  c.all_ranks = true;
  c.size = 1000;
  const CollectiveProblem p = CheckCollective(c, {4, 0});
  EXPECT_EQ(p.key, "algorithm");
  EXPECT_NE(p.message.find("\"tree\" does not implement allgather"), std::string::npos);
}

}  // namespace
}  // namespace dcqcn
