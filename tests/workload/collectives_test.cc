// Tests of ExpandCollective: each algorithm's steps, sizes and waits, iterations' gates, PXN's
// relays, and CheckCollective's refusals.
#include "workload/collectives.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"

namespace dcqcn {
namespace {

struct Expanded {
  std::vector<FlowSpec> flows;
  FlowAfter after;
  FlowTags tags;
  CollectiveFlows cf;
};

Expanded Expand(const CollectiveConfig& c, CollectiveHosts where) {
  Expanded e;
  e.cf = ExpandCollective(c, where, "collective0", e.flows, e.after, e.tags);
  e.after.Resize(e.flows.size());
  return e;
}

CollectiveConfig Config(CollectiveOp op, const std::string& a, std::vector<int> ranks, Bytes size) {
  CollectiveConfig c;
  c.op = op;
  c.algorithm = a;
  c.ranks = std::move(ranks);
  c.size = size;
  return c;
}

std::vector<uint32_t> Of(const FlowAfter& after, uint32_t id) {
  const auto s = after.of(id);
  return {s.begin(), s.end()};
}

TEST(Collectives, RingAllReduceSendsEachChunkOnWhenItArrives) {
  // Ranks in the order given: 3 -> 0 -> 2 -> 3; 2(n-1) = 4 steps of size / n.
  const Expanded e = Expand(Config(CollectiveOp::kAllReduce, "ring", {3, 0, 2}, 3000), {4, 0});
  ASSERT_EQ(e.flows.size(), 12u);
  EXPECT_EQ(e.cf.iteration_begin, (std::vector<uint32_t>{0, 12}));
  for (uint32_t id = 0; id < 12; ++id) {
    const FlowSpec& f = e.flows[id];
    EXPECT_EQ(f.size, 1000);
    const int k = static_cast<int>(id % 3);
    const std::vector<int> ring = {3, 0, 2};
    EXPECT_EQ(f.src, ring[k]);
    EXPECT_EQ(f.dst, ring[(k + 1) % 3]);
    if (id < 3) {
      EXPECT_FALSE(e.after.waits(id));  // the first step starts at the collective's start
    } else {
      // The previous step's flow into this rank: from rank k - 1.
      EXPECT_EQ(Of(e.after, id), (std::vector<uint32_t>{id - 3 - k + (k + 2) % 3}));
    }
  }
  EXPECT_EQ(e.tags.name(e.flows[0].tag), "collective0");
}

TEST(Collectives, RingHalvesAndChannelsAndChunksRoundUp) {
  CollectiveConfig c = Config(CollectiveOp::kReduceScatter, "ring", {0, 1, 2, 3}, 1001);
  c.channels = 2;
  const Expanded rs = Expand(c, {4, 0});
  // Per channel: n-1 = 3 steps of 4 flows, ceil(ceil(1001 / 2) / 4) = 126 bytes.
  ASSERT_EQ(rs.flows.size(), 24u);
  for (const FlowSpec& f : rs.flows) EXPECT_EQ(f.size, 126);
  // The second channel starts with the first: its first step waits for nothing.
  EXPECT_FALSE(rs.after.waits(12));
  EXPECT_EQ(CollectiveFlowCount(c, {4, 0}), 24u);
  c.op = CollectiveOp::kAllGather;
  EXPECT_EQ(Expand(c, {4, 0}).flows.size(), 24u);
}

TEST(Collectives, QueuePairsSplitEachTransferAndTheNextStepWaitsForAllOfThem) {
  // A ring of 3 with 2 queue pairs per connection: each transfer of 1000 bytes is two flows of
  // 500 (one of 1001 bytes: 501 and 500), each on its own connection, and each flow of a step
  // waits for both of the previous step's flows into its rank.
  CollectiveConfig c = Config(CollectiveOp::kAllReduce, "ring", {0, 1, 2}, 3000);
  c.qps_per_connection = 2;
  const Expanded e = Expand(c, {3, 0});
  ASSERT_EQ(e.flows.size(), 24u);  // 4 steps x 3 transfers x 2 queue pairs
  EXPECT_EQ(CollectiveFlowCount(c, {3, 0}), 24u);
  for (uint32_t id = 0; id < 24; ++id) EXPECT_EQ(e.flows[id].size, 500) << id;
  // Step 1, rank 0 -> 1 (flows 0, 1); step 2, rank 1 -> 2 (flows 8, 9): both wait for 0 and 1.
  EXPECT_EQ(e.flows[8].src, 1);
  EXPECT_EQ(Of(e.after, 8), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(Of(e.after, 9), (std::vector<uint32_t>{0, 1}));
  // Each queue pair is a connection of its own: step 2's rank 0 -> 1 follows step 1's on the
  // same queue pair (flow 0 then 6, flow 1 then 7).
  EXPECT_EQ(e.flows[6].src, 0);
  EXPECT_EQ(e.after.previous_of(6), 0u);
  EXPECT_EQ(e.after.previous_of(7), 1u);
  // Uneven bytes: the first queue pairs take a byte more; a transfer smaller than the queue
  // pairs uses as many as it has bytes.
  CollectiveConfig odd = Config(CollectiveOp::kAllToAll, "direct", {0, 1}, 6);
  odd.qps_per_connection = 4;
  const Expanded small = Expand(odd, {2, 0});
  ASSERT_EQ(small.flows.size(), 6u);  // 3 bytes per peer: 3 flows of 1 byte each way
  for (const FlowSpec& f : small.flows) EXPECT_EQ(f.size, 1);
}

TEST(Collectives, HalvingDoublingExchangesWithPartnersAtHalvingThenDoublingSizes) {
  const Expanded e = Expand(
      Config(CollectiveOp::kAllReduce, "halving_doubling", {0, 1, 2, 3, 4, 5, 6, 7}, 8000), {8, 0});
  ASSERT_EQ(e.flows.size(), 6u * 8);  // log2(8) steps each way, one flow per rank
  const std::vector<int> distance = {4, 2, 1, 1, 2, 4};
  const std::vector<Bytes> sizes = {4000, 2000, 1000, 1000, 2000, 4000};
  for (uint32_t id = 0; id < e.flows.size(); ++id) {
    const int step = static_cast<int>(id / 8);
    const FlowSpec& f = e.flows[id];
    EXPECT_EQ(f.dst, f.src ^ distance[step]) << id;
    EXPECT_EQ(f.size, sizes[step]) << id;
    if (step > 0) {
      // It waits for what its partner of the previous step sent it.
      const std::vector<uint32_t> pre = Of(e.after, id);
      ASSERT_EQ(pre.size(), 1u);
      EXPECT_EQ(e.flows[pre[0]].dst, f.src);
      EXPECT_EQ(static_cast<int>(pre[0] / 8), step - 1);
    }
  }
}

TEST(Collectives, DirectAllToAllAndIterationGatesWaitForEverythingARankSawLast) {
  CollectiveConfig c = Config(CollectiveOp::kAllToAll, "direct", {0, 1, 2}, 3000);
  c.iterations = 2;
  c.gap = 5 * kMicrosecond;
  c.start = 7 * kMicrosecond;
  const Expanded e = Expand(c, {3, 0});
  ASSERT_EQ(e.flows.size(), 12u);
  EXPECT_EQ(e.cf.iteration_begin, (std::vector<uint32_t>{0, 6, 12}));
  for (uint32_t id = 0; id < 6; ++id) {
    EXPECT_EQ(e.flows[id].size, 1000);
    EXPECT_EQ(e.flows[id].start, 7 * kMicrosecond);
    EXPECT_FALSE(e.after.waits(id));
  }
  // Iteration 1: rank 0's flows wait, gap more, for the two flows it received and the two it
  // sent in iteration 0; both share one row.
  for (uint32_t id = 6; id < 12; ++id) {
    const FlowSpec& f = e.flows[id];
    std::set<uint32_t> pre;
    for (uint32_t p : Of(e.after, id)) pre.insert(p);
    std::set<uint32_t> expected;
    for (uint32_t p = 0; p < 6; ++p) {
      if (e.flows[p].src == f.src || e.flows[p].dst == f.src) expected.insert(p);
    }
    EXPECT_EQ(pre, expected) << id;
    EXPECT_EQ(e.after.delay(id), 5 * kMicrosecond);
  }
  EXPECT_EQ(e.after.row_index(6), e.after.row_index(7));  // rank 0's two flows
  EXPECT_EQ(e.after.rows(), 3u);                          // one gate per rank
}

TEST(Collectives, HierarchicalRunsIntraServerRingsThenOneRingPerRail) {
  // 3 servers x 2 GPUs, all ranks: intra reduce-scatter (1 step), inter allreduce per rail
  // (2 x 2 steps), intra all-gather (1 step).
  CollectiveConfig c = Config(CollectiveOp::kAllReduce, "hierarchical", {}, 6000);
  c.all_ranks = true;
  const Expanded e = Expand(c, {6, 2});
  ASSERT_EQ(e.flows.size(), 6u * 6);
  for (uint32_t id = 0; id < e.flows.size(); ++id) {
    const FlowSpec& f = e.flows[id];
    const int step = static_cast<int>(id / 6);
    const bool intra = step == 0 || step == 5;
    if (intra) {
      EXPECT_EQ(f.src / 2, f.dst / 2) << id;  // same server: NVLink
      EXPECT_EQ(f.size, 3000);
    } else {
      EXPECT_EQ(f.src % 2, f.dst % 2) << id;  // same rail
      EXPECT_EQ((f.src / 2 + 1) % 3, f.dst / 2) << id;
      EXPECT_EQ(f.size, 1000);
    }
    if (step > 0) {
      const std::vector<uint32_t> pre = Of(e.after, id);
      ASSERT_EQ(pre.size(), 1u);
      EXPECT_EQ(e.flows[pre[0]].dst, f.src);  // what it last received
      EXPECT_EQ(static_cast<int>(pre[0] / 6), step - 1);
    }
  }
  // AllGather: the rail rings first, then NVLink.
  c.op = CollectiveOp::kAllGather;
  const Expanded ag = Expand(c, {6, 2});
  ASSERT_EQ(ag.flows.size(), 6u * 3);
  EXPECT_EQ(ag.flows[0].src % 2, ag.flows[0].dst % 2);
  EXPECT_EQ(ag.flows[17].src / 2, ag.flows[17].dst / 2);
}

TEST(Collectives, PxnRelaysThroughTheSendersGpuOnTheDestinationsRail) {
  CollectiveConfig c = Config(CollectiveOp::kAllToAll, "direct", {}, 4000);
  c.all_ranks = true;
  c.pxn = true;
  const Expanded e = Expand(c, {4, 2});  // 2 servers x 2 GPUs
  // From h0: to h1 (own server) and h2 (same rail) directly, to h3 through h1.
  std::vector<std::pair<int, int>> from0;
  for (uint32_t id = 0; id < e.flows.size(); ++id) {
    // Its own transfers (the ones it forwards for h1 wait for their first hop).
    if (e.flows[id].src == 0 && !e.after.waits(id)) {
      from0.push_back({e.flows[id].dst, static_cast<int>(id)});
    }
  }
  ASSERT_EQ(from0.size(), 3u);
  EXPECT_EQ(from0[0].first, 1);
  EXPECT_EQ(from0[1].first, 2);
  EXPECT_EQ(from0[2].first, 1);  // the first hop to h3
  const uint32_t hop = static_cast<uint32_t>(from0[2].second);
  const uint32_t forward = hop + 1;
  EXPECT_EQ(e.flows[forward].src, 1);
  EXPECT_EQ(e.flows[forward].dst, 3);
  EXPECT_EQ(Of(e.after, forward), (std::vector<uint32_t>{hop}));
  EXPECT_LE(e.flows.size(), CollectiveFlowCount(c, {4, 2}));
}

TEST(Collectives, PxnRingLeavesEachServerByTheNicItCameInBy) {
  // 2 servers x 4 GPUs, channel 1 of rotated rings: 1 2 3 0 | 5 6 7 4. The chunk from GPU 0
  // (rail 0) to GPU 5 (rail 1) crosses NVLink to GPU 1 first, whose NIC sends it on rail 1;
  // likewise 4 -> 1 through 5. Every other transfer stays in a server.
  CollectiveConfig c = Config(CollectiveOp::kAllReduce, "ring", {}, 8000);
  c.all_ranks = true;
  c.channels = 2;
  c.rotate_rings = true;
  c.pxn = true;
  const Expanded e = Expand(c, {8, 4});
  int relayed = 0;
  for (uint32_t id = 0; id < e.flows.size(); ++id) {
    const FlowSpec& f = e.flows[id];
    if (f.src / 4 == f.dst / 4) continue;
    EXPECT_EQ(f.src % 4, f.dst % 4) << "flow " << id << " leaves its server off its rail";
    // The NIC's flow waits for its NVLink hop, from the rank before it in the ring.
    const std::vector<uint32_t> hop = Of(e.after, id);
    ASSERT_EQ(hop.size(), 1u);
    EXPECT_EQ(e.flows[hop[0]].dst, f.src);
    EXPECT_EQ(e.flows[hop[0]].src, (f.src / 4) * 4 + (f.src + 3) % 4);
    EXPECT_EQ(e.flows[hop[0]].size, f.size);
    ++relayed;
  }
  EXPECT_EQ(relayed, 2 * 2 * 2 * 7);  // 2 channels x 2 servers x 2(n - 1) steps
  EXPECT_LE(e.flows.size(), CollectiveFlowCount(c, {8, 4}));
  // The next step of the receiver waits for the relayed flow, as for a direct one.
  c.pxn = false;
  EXPECT_EQ(Expand(c, {8, 4}).flows.size() + relayed, e.flows.size());
}

TEST(Collectives, FlowCountIsWhatExpansionMakesWithoutBuildingIt) {
  std::vector<std::pair<CollectiveConfig, CollectiveHosts>> cases;
  for (CollectiveOp op : {CollectiveOp::kAllReduce, CollectiveOp::kReduceScatter,
                          CollectiveOp::kAllGather, CollectiveOp::kAllToAll}) {
    for (const CollectiveAlgorithm* algorithm : CollectiveAlgorithms()) {
      const std::string a(algorithm->name);
      CollectiveConfig c = Config(op, a, {}, 1 << 20);
      c.all_ranks = true;
      c.channels = 2;
      c.iterations = 3;
      if (algorithm->implements(op)) cases.push_back({c, {16, 4}});
    }
  }
  for (const auto& [c, where] : cases) {
    SCOPED_TRACE(std::string(Name(c.op)) + " " + c.algorithm);
    EXPECT_EQ(CollectiveFlowCount(c, where), Expand(c, where).flows.size());
  }
  // An all-to-all of 100,000 hosts: 10^10 flows per iteration, counted at once.
  CollectiveConfig huge = Config(CollectiveOp::kAllToAll, "direct", {}, 1);
  huge.all_ranks = true;
  EXPECT_EQ(CollectiveFlowCount(huge, {100000, 0}), uint64_t{100000} * 99999);
}

TEST(Collectives, CheckRefusesWhatTheAlgorithmCannotDo) {
  auto problem = [](CollectiveConfig c, CollectiveHosts where) {
    const CollectiveProblem p = CheckCollective(c, where);
    return p.key + ": " + p.message;
  };
  const auto ar = [](const std::string& a, std::vector<int> ranks) {
    return Config(CollectiveOp::kAllReduce, a, std::move(ranks), 1000);
  };
  EXPECT_EQ(problem(ar("ring", {0, 1}), {4, 0}), ": ");
  EXPECT_NE(problem(ar("ring", {0}), {4, 0})
                .find("ranks: a collective needs "
                      "at least 2 ranks"),
            std::string::npos);
  EXPECT_NE(
      problem(ar("ring", {0, 4}), {4, 0}).find("ranks: ranks[1] = 4 is not a host index (0 to 3)"),
      std::string::npos);
  EXPECT_NE(problem(ar("ring", {2, 1, 2}), {4, 0})
                .find("ranks: host 2 is listed twice (ranks[0] and ranks[2])"),
            std::string::npos);
  EXPECT_NE(problem(ar("halving_doubling", {0, 1, 2}), {4, 0})
                .find("ranks: halving_doubling needs a power-of-two number of ranks, got 3"),
            std::string::npos);
  EXPECT_NE(problem(ar("direct", {0, 1}), {4, 0})
                .find("algorithm: \"direct\" does not implement allreduce"),
            std::string::npos);
  EXPECT_NE(
      problem(ar("hierarchical", {0, 1}), {4, 0}).find("algorithm: \"hierarchical\" needs servers"),
      std::string::npos);
  // Server 0 gives GPUs 0 and 1, server 1 only GPU 0.
  EXPECT_NE(problem(ar("hierarchical", {0, 1, 2}), {4, 2})
                .find("ranks: \"hierarchical\" needs the same GPUs of every server"),
            std::string::npos);
  CollectiveConfig pxn = ar("halving_doubling", {0, 1});
  pxn.pxn = true;
  EXPECT_NE(problem(pxn, {4, 2})
                .find("pxn: only for algorithm = \"direct\" or \"ring\", not "
                      "\"halving_doubling\""),
            std::string::npos);
  pxn.algorithm = "ring";
  EXPECT_EQ(problem(pxn, {4, 2}), ": ");
  EXPECT_NE(problem(pxn, {4, 0}).find("pxn: only on a topology of servers"), std::string::npos);
  EXPECT_THROW(Expand(ar("ring", {0}), {4, 0}), InputError);
}

}  // namespace
}  // namespace dcqcn
