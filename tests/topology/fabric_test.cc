// Tests of the leaf-spine and fat-tree builders: node and link counts, node numbering, shape
// checks, reachability and shortest paths through the simulator's routes, ECMP spread over every
// core, and a leaf-spine incast that runs end to end without a drop.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "net/network.h"
#include "run/run_scenario.h"
#include "topology/builders.h"
#include "topology/types/rail.h"

namespace dcqcn {
namespace {

TopologyConfig FatTree(int k) {
  TopologyConfig t;
  t.type = "fat_tree";
  t.k = k;
  return t;
}

TopologyConfig LeafSpine(int leaves, int spines, int hosts_per_leaf) {
  TopologyConfig t;
  t.type = "leaf_spine";
  t.leaves = leaves;
  t.spines = spines;
  t.hosts_per_leaf = hosts_per_leaf;
  return t;
}

std::string ErrorOf(TopologyConfig t) {
  try {
    BuildTopology(t, "topo.toml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Ports (cables) of every node.
std::vector<int> Degrees(const TopologyConfig& t) {
  std::vector<int> degree(t.num_nodes(), 0);
  for (const LinkSpec& l : t.links) {
    ++degree[l.a];
    ++degree[l.b];
  }
  return degree;
}

TEST(FatTree, CountsForSeveralK) {
  for (int k : {2, 4, 6, 8, 12, 34}) {
    SCOPED_TRACE(k);
    TopologyConfig t = FatTree(k);
    t.hosts = 3;  // replaced: the shape decides
    BuildTopology(t, "x");
    EXPECT_EQ(t.hosts, k * k * k / 4);
    EXPECT_EQ(t.switches, 5 * k * k / 4);  // k^2/2 edge + k^2/2 aggregation + k^2/4 core
    EXPECT_EQ(t.links.size(), static_cast<size_t>(3 * k * k * k / 4));
    const std::vector<int> degree = Degrees(t);
    for (int h = 0; h < t.hosts; ++h) ASSERT_EQ(degree[h], 1) << "host " << h;
    for (int s = t.hosts; s < t.num_nodes(); ++s) ASSERT_EQ(degree[s], k) << "node " << s;
    EXPECT_EQ(t.fabric_rate, t.link_rate);  // default
  }
}

TEST(FatTree, NodeNumbering) {
  TopologyConfig t = FatTree(4);
  t.link_rate = 10 * kGbps;
  t.fabric_rate = 40 * kGbps;
  BuildTopology(t, "x");
  const int edge0 = 16, agg0 = 24, core0 = 32;
  ASSERT_EQ(t.num_nodes(), 36);
  for (int h = 0; h < 16; ++h) {  // link h is host h's cable, to edge h / 2
    EXPECT_EQ(t.links[h].a, h);
    EXPECT_EQ(t.links[h].b, edge0 + h / 2);
    EXPECT_EQ(t.links[h].rate, 10 * kGbps);
  }
  std::set<std::pair<int, int>> fabric;
  for (size_t i = 16; i < t.links.size(); ++i) {
    EXPECT_EQ(t.links[i].rate, 40 * kGbps);
    fabric.insert({t.links[i].a, t.links[i].b});
  }
  EXPECT_EQ(fabric.size(), 32u);
  // Pod 1: edges 18, 19 and aggregations 26, 27, fully connected.
  for (int e : {18, 19}) {
    for (int a : {26, 27}) EXPECT_TRUE(fabric.count({e, a})) << e << "-" << a;
  }
  EXPECT_FALSE(fabric.count({18, 24}));  // no edge-aggregation link across pods
  // Aggregation j of every pod reaches cores 2j, 2j+1.
  for (int pod = 0; pod < 4; ++pod) {
    EXPECT_TRUE(fabric.count({agg0 + 2 * pod, core0 + 0}));
    EXPECT_TRUE(fabric.count({agg0 + 2 * pod, core0 + 1}));
    EXPECT_TRUE(fabric.count({agg0 + 2 * pod + 1, core0 + 2}));
    EXPECT_TRUE(fabric.count({agg0 + 2 * pod + 1, core0 + 3}));
  }
}

TEST(LeafSpine, CountsForSeveralShapes) {
  struct Shape {
    int leaves, spines, per_leaf;
  };
  for (Shape sh : {Shape{1, 1, 2}, Shape{2, 1, 1}, Shape{4, 2, 8}, Shape{3, 5, 7}, Shape{16, 8, 16},
                   Shape{128, 32, 40}}) {
    SCOPED_TRACE(testing::Message() << sh.leaves << "x" << sh.spines << "x" << sh.per_leaf);
    TopologyConfig t = LeafSpine(sh.leaves, sh.spines, sh.per_leaf);
    BuildTopology(t, "x");
    EXPECT_EQ(t.hosts, sh.leaves * sh.per_leaf);
    EXPECT_EQ(t.switches, sh.leaves + sh.spines);
    EXPECT_EQ(t.links.size(), static_cast<size_t>(t.hosts + sh.leaves * sh.spines));
    const std::vector<int> degree = Degrees(t);
    for (int h = 0; h < t.hosts; ++h) {
      ASSERT_EQ(degree[h], 1);
      ASSERT_EQ(t.links[h].b, t.hosts + h / sh.per_leaf);  // host h on leaf h / hosts_per_leaf
    }
    for (int l = 0; l < sh.leaves; ++l) EXPECT_EQ(degree[t.hosts + l], sh.per_leaf + sh.spines);
    for (int s = 0; s < sh.spines; ++s) EXPECT_EQ(degree[t.hosts + sh.leaves + s], sh.leaves);
  }
}

TEST(LeafSpine, FabricRateFromOversubscription) {
  TopologyConfig t = LeafSpine(4, 2, 8);
  BuildTopology(t, "x");
  EXPECT_EQ(t.fabric_rate, t.link_rate);
  EXPECT_EQ(t.links.back().rate, t.link_rate);

  t = LeafSpine(4, 2, 8);
  t.oversubscription = 2;  // 8 x 40 Gb/s down, 2 x 80 Gb/s up
  BuildTopology(t, "x");
  EXPECT_EQ(t.fabric_rate, 80 * kGbps);
  EXPECT_EQ(t.links.back().rate, 80 * kGbps);
  EXPECT_EQ(t.links.front().rate, 40 * kGbps);

  t = LeafSpine(4, 4, 16);
  t.oversubscription = 3;  // 640 / 12 = 53.33 Gb/s; the user may write it rounded
  t.fabric_rate = 53330 * kMbps;
  BuildTopology(t, "x");
  EXPECT_EQ(t.fabric_rate, 53330 * kMbps);

  t = LeafSpine(4, 2, 8);
  t.oversubscription = 2;
  t.fabric_rate = 100 * kGbps;
  EXPECT_NE(ErrorOf(t).find("fabric_rate = 100Gbps conflicts with oversubscription = 2"),
            std::string::npos)
      << ErrorOf(t);
}

TEST(Fabrics, ImpossibleShapesAreErrors) {
  auto expect = [](const TopologyConfig& t, const std::string& part) {
    const std::string message = ErrorOf(t);
    EXPECT_NE(message.find(part), std::string::npos) << "\"" << message << "\" lacks " << part;
    EXPECT_EQ(message.rfind("topo.toml: topology: ", 0), 0u) << message;
  };
  expect(FatTree(3), "k = 3, expected an even number >= 2");
  expect(FatTree(0), "k = 0, expected an even number >= 2");
  expect(FatTree(-4), "k = -4");
  expect(FatTree(200), "fat_tree would have 2000000 hosts, more than the 1048576 supported");
  expect(FatTree(70000), "16-bit port index");
  expect(LeafSpine(0, 2, 4), "leaves = 0, expected >= 1");
  expect(LeafSpine(2, 0, 4), "spines = 0, expected >= 1");
  expect(LeafSpine(2, 2, 0), "hosts_per_leaf = 0, expected >= 1");
  expect(LeafSpine(1, 1, 1), "1 hosts, expected >= 2");
  expect(LeafSpine(2, 10, 65530), "a leaf switch would have 65540 ports");
  expect(LeafSpine(70000, 1, 1), "a spine switch would have 70000 ports");
  expect(LeafSpine(60000, 1, 60000), "hosts, more than the 1048576 supported");
  TopologyConfig t = LeafSpine(2, 2, 2);
  t.oversubscription = -1;
  expect(t, "oversubscription = -1");
  t = FatTree(4);
  t.fabric_rate = -5;
  expect(t, "fabric_rate must be > 0");
}

TEST(FatTree, BuildingK34IsFast) {
  TopologyConfig t = FatTree(34);
  const auto begin = std::chrono::steady_clock::now();
  BuildTopology(t, "x");
  const std::vector<int> component = ConnectedComponents(t);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  EXPECT_EQ(t.hosts, 9826);
  EXPECT_EQ(t.links.size(), 29478u);
  for (int c : component) ASSERT_EQ(c, 0);
  EXPECT_LT(seconds, 0.5);  // a few milliseconds in practice
}

// ---------------------------------------------------------------------------------------------
// Through the simulator: routes, paths and ECMP.

Scenario WithTopology(const TopologyConfig& topo) {
  Scenario s;
  s.name = "fabric";
  s.source = "<test>";
  s.topology = topo;
  BuildTopology(s.topology, s.source);
  s.cc.algorithm = "none";
  return s;
}

// Hops of the shortest host-to-host path: same switch 2, then 4, 6 (fat tree across pods).
int ExpectedHops(const TopologyConfig& t, int src, int dst) {
  if (t.type == "leaf_spine") {
    return src / t.hosts_per_leaf == dst / t.hosts_per_leaf ? 2 : 4;
  }
  const int half = t.k / 2;
  if (src / half == dst / half) return 2;
  if (src / (half * half) == dst / (half * half)) return 4;
  return 6;
}

void ExpectEveryHostReachesEveryOther(const TopologyConfig& topo) {
  Scenario s = WithTopology(topo);
  const int hosts = s.topology.hosts;
  for (int src = 0; src < hosts; ++src) {
    for (int dst = 0; dst < hosts; ++dst) {
      if (src != dst) s.flows.push_back({src, dst, 1000, 0, 3});
    }
  }
  Network net(ToNetworkConfig(s));
  for (uint32_t id = 0; id < net.num_flows(); ++id) {
    const FlowSpec& f = net.flow_spec(id);
    const std::vector<LinkSpec> path = net.PathOf(id);
    ASSERT_FALSE(path.empty());
    ASSERT_EQ(path.front().a, f.src);
    ASSERT_EQ(path.back().b, f.dst) << "h" << f.src << " -> h" << f.dst;
    ASSERT_EQ(static_cast<int>(path.size()), ExpectedHops(s.topology, f.src, f.dst))
        << "h" << f.src << " -> h" << f.dst;
    for (size_t i = 1; i < path.size(); ++i) ASSERT_EQ(path[i].a, path[i - 1].b);
  }
}

TEST(Fabrics, EveryHostReachesEveryOtherOnAShortestPath) {
  ExpectEveryHostReachesEveryOther(FatTree(2));
  ExpectEveryHostReachesEveryOther(FatTree(4));
  ExpectEveryHostReachesEveryOther(FatTree(6));
  ExpectEveryHostReachesEveryOther(LeafSpine(3, 2, 4));
  ExpectEveryHostReachesEveryOther(LeafSpine(5, 3, 1));
}

// Core switch (node id) each inter-pod flow crosses; the path's middle link ends at it.
std::map<int, int> CoreUse(int k, const std::vector<std::pair<int, int>>& pairs) {
  Scenario s = WithTopology(FatTree(k));
  for (auto [src, dst] : pairs) s.flows.push_back({src, dst, 1000, 0, 3});
  Network net(ToNetworkConfig(s));
  const int core0 = s.topology.hosts + k * k;
  std::map<int, int> use;
  for (uint32_t id = 0; id < net.num_flows(); ++id) {
    const std::vector<LinkSpec> path = net.PathOf(id);
    EXPECT_EQ(path.size(), 6u);
    const int core = path[2].b;
    EXPECT_GE(core, core0);
    ++use[core];
  }
  return use;
}

TEST(FatTree, EcmpSpreadsInterPodFlowsOverEveryCore) {
  // k = 4: every ordered pair of hosts in different pods (192 flows), each with its own UDP
  // source port, must between them use all (k/2)^2 = 4 core paths, each a fair share.
  std::vector<std::pair<int, int>> pairs;
  for (int src = 0; src < 16; ++src) {
    for (int dst = 0; dst < 16; ++dst) {
      if (src / 4 != dst / 4) pairs.push_back({src, dst});
    }
  }
  std::map<int, int> use = CoreUse(4, pairs);
  EXPECT_EQ(use.size(), 4u);
  for (auto [core, flows] : use) EXPECT_GT(flows, 192 / 4 / 2) << "core node " << core;

  // Many flows between one pair of hosts differ only in their source port: ECMP still spreads
  // them over every core.
  use = CoreUse(4, std::vector<std::pair<int, int>>(64, {0, 15}));
  EXPECT_EQ(use.size(), 4u);

  // k = 8: 16 cores.
  pairs.clear();
  for (int i = 0; i < 512; ++i) pairs.push_back({i % 128, (i % 128 + 16 + 7 * i) % 128});
  for (auto& [src, dst] : pairs) {
    if (src / 16 == dst / 16) dst = (dst + 16) % 128;
  }
  use = CoreUse(8, pairs);
  EXPECT_EQ(use.size(), 16u);
}

TEST(LeafSpine, IncastRunsWithoutDrops) {
  // 12 hosts on 3 leaves, 2 spines; 8 senders on leaves 1 and 2 send 500 KB each to h0.
  for (const char* algorithm : {"none", "dcqcn"}) {
    SCOPED_TRACE(algorithm);
    Scenario s = WithTopology(LeafSpine(3, 2, 4));
    s.cc.algorithm = algorithm;
    s.duration = 100 * kMillisecond;
    for (int src = 4; src < 12; ++src) s.flows.push_back({src, 0, 500000, 0, 3});
    s.explicit_flows = static_cast<int>(s.flows.size());
    const nlohmann::json j = RunScenario(s, {});
    EXPECT_EQ(j["flows_finished"], 8);
    EXPECT_EQ(j["drops"], 0);
    EXPECT_EQ(j["bytes_delivered"], 8 * 500000);
    EXPECT_TRUE(j["drained"].get<bool>());
    EXPECT_GT(j["pfc_pause_frames"].get<int>() + j["ecn_marked_packets"].get<int>(), 0);
  }
}

TopologyConfig Rail(int servers, int gpus, int per_leaf, int spines) {
  TopologyConfig t;
  t.type = "rail";
  t.servers = servers;
  t.gpus_per_server = gpus;
  t.servers_per_leaf = per_leaf;
  t.spines = spines;
  return t;
}

// Host server x G + g is GPU g of its server, on rail g's leaf server / servers_per_leaf; every
// leaf reaches every spine, and a rail's partly filled last leaf takes the rest of the servers.
TEST(Rail, NodeNumberingAndCounts) {
  struct Shape {
    int servers, gpus, per_leaf, spines;
  };
  for (Shape sh : {Shape{2, 1, 1, 1}, Shape{4, 8, 4, 2}, Shape{6, 4, 4, 2}, Shape{16, 8, 4, 8},
                   Shape{64, 8, 32, 16}}) {
    SCOPED_TRACE(testing::Message()
                 << sh.servers << "x" << sh.gpus << "/" << sh.per_leaf << "/" << sh.spines);
    TopologyConfig t = Rail(sh.servers, sh.gpus, sh.per_leaf, sh.spines);
    BuildTopology(t, "x");
    const int per_rail = (sh.servers + sh.per_leaf - 1) / sh.per_leaf;
    EXPECT_EQ(RailLeaves(t), per_rail);
    const int leaves = per_rail * sh.gpus;
    EXPECT_EQ(t.hosts, sh.servers * sh.gpus);
    EXPECT_EQ(t.switches, leaves + sh.spines);
    EXPECT_EQ(t.links.size(), static_cast<size_t>(t.hosts + leaves * sh.spines));
    const std::vector<int> degree = Degrees(t);
    std::vector<int> hosts_on(leaves, 0);
    for (int h = 0; h < t.hosts; ++h) {
      ASSERT_EQ(degree[h], 1);
      const int leaf = t.links[h].b - t.hosts;
      ASSERT_EQ(leaf / per_rail, h % sh.gpus) << "host " << h << " is not on its GPU's rail";
      ASSERT_EQ(leaf % per_rail, h / sh.gpus / sh.per_leaf) << "host " << h;
      ++hosts_on[leaf];
    }
    for (int l = 0; l < leaves; ++l) {
      const int servers_here = std::min(sh.per_leaf, sh.servers - (l % per_rail) * sh.per_leaf);
      EXPECT_EQ(hosts_on[l], servers_here) << "leaf " << l;
      EXPECT_EQ(degree[t.hosts + l], servers_here + sh.spines) << "leaf " << l;
    }
    for (int s = 0; s < sh.spines; ++s) EXPECT_EQ(degree[t.hosts + leaves + s], leaves);
  }
}

TEST(Rail, FabricRateFromOversubscriptionAndShapeErrors) {
  TopologyConfig t = Rail(8, 8, 4, 2);
  t.link_rate = 400 * kGbps;
  t.oversubscription = 2;  // 4 x 400 Gb/s down, 2 x 400 Gb/s up
  BuildTopology(t, "x");
  EXPECT_EQ(t.fabric_rate, 400 * kGbps);
  EXPECT_EQ(t.links.back().rate, 400 * kGbps);
  EXPECT_NE(ErrorOf(Rail(4, 0, 4, 2)).find("gpus_per_server = 0, expected >= 1"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Rail(0, 8, 4, 2)).find("servers = 0, expected >= 1"), std::string::npos);
  EXPECT_NE(ErrorOf(Rail(4, 8, 0, 2)).find("servers_per_leaf = 0, expected >= 1"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Rail(4, 8, 4, 0)).find("spines = 0, expected >= 1"), std::string::npos);
  EXPECT_NE(ErrorOf(Rail(1, 1, 1, 1)).find("= 1 hosts, expected >= 2"), std::string::npos);
  EXPECT_NE(ErrorOf(Rail(70000, 1, 70000, 1)).find("16-bit port index"), std::string::npos);
}

// GPU g of one server reaches GPU g of another through its rail's leaf only (one hop when they
// share a leaf), another rail through a spine, and a GPU of its own server over NVLink; an
// incast across rails runs without drops.
TEST(Rail, RoutesAndAnIncastAcrossRails) {
  for (const char* algorithm : {"none", "dcqcn"}) {
    SCOPED_TRACE(algorithm);
    Scenario s = WithTopology(Rail(4, 4, 2, 2));
    s.cc.algorithm = algorithm;
    s.duration = 100 * kMillisecond;
    // To h0 (server 0, GPU 0): rail 0's GPUs of servers 1..3 and GPU 1 of every server.
    for (int src : {4, 8, 12, 1, 5, 9, 13}) s.flows.push_back({src, 0, 300000, 0, 3});
    s.explicit_flows = static_cast<int>(s.flows.size());
    Network net(ToNetworkConfig(s));
    EXPECT_EQ(net.PathOf(0).size(), 2u);  // h4 -> leaf 0 of rail 0 -> h0
    EXPECT_EQ(net.PathOf(1).size(), 4u);  // h8: rail 0's other leaf, a spine, leaf 0, h0
    EXPECT_EQ(net.PathOf(4).size(), 4u);  // h5, rail 1: its leaf, a spine, rail 0's leaf, h0
    // h1 is GPU 1 of h0's own server: over NVLink, outside the fabric.
    EXPECT_TRUE(net.OverNvlink(3));
    EXPECT_FALSE(net.OverNvlink(4));
    EXPECT_TRUE(net.PathOf(3).empty());
    const nlohmann::json j = RunScenario(s, {});
    EXPECT_EQ(j["flows_finished"], 7);
    EXPECT_EQ(j["drops"], 0);
    // The NVLink transfer counts apart from the NICs' bytes (it never passes a NIC), and the
    // goodput is the NICs'.
    EXPECT_EQ(j["bytes_delivered"], 6 * 300000);
    EXPECT_EQ(j["bytes_sent"], 6 * 300000);
    EXPECT_EQ(j["nvlink_transfers"], 1);
    EXPECT_EQ(j["nvlink_bytes"], 300000);
  }
}

}  // namespace
}  // namespace dcqcn
