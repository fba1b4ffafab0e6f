// Route table: direct host ports, equal-cost sets across a two-tier fabric, unreachable hosts.
#include "net/routing.h"

#include <gtest/gtest.h>

#include <set>

#include "scenario/scenario.h"
#include "topology/builders.h"

namespace dcqcn {
namespace {

// Builds adjacency (peer node, peer port) from a cable list, ports numbered in cable order.
std::vector<std::vector<std::pair<int, int>>> Cables(int nodes,
                                                     const std::vector<std::pair<int, int>>& c) {
  std::vector<std::vector<std::pair<int, int>>> adj(nodes);
  for (auto [a, b] : c) {
    int pa = static_cast<int>(adj[a].size());
    int pb = static_cast<int>(adj[b].size());
    adj[a].push_back({b, pb});
    adj[b].push_back({a, pa});
  }
  return adj;
}

// A k = 8 fat tree's routes, checked against a breadth-first search per destination, while its
// next-hop lists are stored once each: every edge and aggregation switch reaches remote hosts by
// the same "all up ports" list, so the distinct lists are far fewer than the slots.
TEST(RouteTableTest, FatTreeListsAreStoredOnceAndRouteAlongShortestPaths) {
  TopologyConfig topo;
  topo.type = "fat_tree";
  topo.k = 8;
  BuildTopology(topo, "<test>");
  const int nodes = topo.num_nodes();
  std::vector<std::pair<int, int>> cables;
  for (const LinkSpec& l : topo.links) cables.emplace_back(l.a, l.b);
  const auto adj = Cables(nodes, cables);
  RouteTable routes(topo.hosts, adj);
  // 32 edge switches with hosts x 80 switches = 2560 slots.
  EXPECT_LT(routes.distinct_lists(), 200u);
  for (int dst = 0; dst < topo.hosts; dst += 7) {
    // Hop distance of every node to dst.
    std::vector<int> dist(nodes, -1);
    std::vector<int> queue = {dst};
    dist[dst] = 0;
    for (size_t i = 0; i < queue.size(); ++i) {
      for (auto [v, _] : adj[queue[i]]) {
        if (dist[v] < 0 && (v >= topo.hosts || v == dst)) {
          dist[v] = dist[queue[i]] + 1;
          queue.push_back(v);
        }
      }
    }
    for (int sw = 0; sw < topo.switches; ++sw) {
      const int node = topo.hosts + sw;
      std::set<int> expected;
      for (size_t p = 0; p < adj[node].size(); ++p) {
        const int v = adj[node][p].first;
        if (dist[v] == dist[node] - 1) expected.insert(static_cast<int>(p));
      }
      auto [ports, n] = routes.Ports(sw, dst);
      EXPECT_EQ(std::set<int>(ports, ports + n), expected) << "switch " << sw << " to h" << dst;
    }
  }
}

TEST(RouteTableTest, LeafSpineHasEveryUplinkAsAnEqualCostPath) {
  // Hosts 0,1 on leaf s0 (node 4), hosts 2,3 on leaf s1 (node 5); spines s2, s3 (nodes 6, 7).
  auto adj = Cables(8, {{0, 4}, {1, 4}, {2, 5}, {3, 5}, {4, 6}, {4, 7}, {5, 6}, {5, 7}});
  RouteTable routes(4, adj);
  auto [direct, n_direct] = routes.Ports(0, 1);
  ASSERT_EQ(n_direct, 1u);
  EXPECT_EQ(direct[0], 1);  // leaf s0's second port
  auto [up, n_up] = routes.Ports(0, 2);
  ASSERT_EQ(n_up, 2u);
  EXPECT_EQ(std::set<int>(up, up + n_up), (std::set<int>{2, 3}));
  auto [down, n_down] = routes.Ports(2, 3);  // spine s2 towards host 3: its port to s1
  ASSERT_EQ(n_down, 1u);
  EXPECT_EQ(down[0], 1);
}

TEST(RouteTableTest, VisitRankOrdersNextHopsAsTheSearchReachedThem) {
  // Leaf s0 (node 4) has hosts 0,1 and uplinks to spines s2, s3 (nodes 6, 7) on ports 2, 3.
  auto adj = Cables(8, {{0, 4}, {1, 4}, {2, 5}, {3, 5}, {4, 6}, {4, 7}, {5, 6}, {5, 7}});
  // Without a rank: port order.
  RouteTable plain(4, adj);
  auto [up, n_up] = plain.Ports(0, 2);
  ASSERT_EQ(n_up, 2u);
  EXPECT_EQ(up[0], 2);
  EXPECT_EQ(up[1], 3);
  // Spine s3 (node 7) ranked first: the search from s1 reaches it first, so it leads the list.
  const std::vector<int> rank = {0, 1, 2, 3, 10, 11, 13, 12};
  RouteTable ranked(4, adj, &rank);
  auto [r_up, r_n] = ranked.Ports(0, 2);
  ASSERT_EQ(r_n, 2u);
  EXPECT_EQ(r_up[0], 3);
  EXPECT_EQ(r_up[1], 2);
  // Single next hops are unaffected.
  EXPECT_EQ(ranked.Ports(2, 3).first[0], 1);
}

// Hosts with two ports. Nodes: hosts 0..3, then s0 = 4, s1 = 5 (leaves), s2 = 6 (spine), s3 = 7
// (a switch of hosts only, as an NVSwitch). h0 is dual-homed to both leaves and to s3; h1 hangs
// off s0 and s3, h2 off s1 and s3, h3 off s1 alone.
TEST(RouteTableTest, HostsWithSeveralPortsAreReachedByEachOfTheirSwitches) {
  auto adj =
      Cables(8, {{0, 4}, {0, 5}, {0, 7}, {1, 4}, {1, 7}, {2, 5}, {2, 7}, {3, 5}, {4, 6}, {5, 6}});
  RouteTable routes(4, adj);
  // Each switch a host is cabled to reaches it directly, at the port of that cable.
  EXPECT_EQ(routes.Ports(0, 0).second, 1u);
  EXPECT_EQ(adj[4][routes.Ports(0, 0).first[0]].first, 0);
  EXPECT_EQ(adj[5][routes.Ports(1, 0).first[0]].first, 0);
  EXPECT_EQ(adj[7][routes.Ports(3, 0).first[0]].first, 0);
  EXPECT_EQ(adj[7][routes.Ports(3, 2).first[0]].first, 2);
  // The spine has both leaves as equal-cost ways to the dual-homed h0, one to each other host.
  EXPECT_EQ(routes.Ports(2, 0).second, 2u);
  EXPECT_EQ(routes.Ports(2, 1).second, 1u);
  EXPECT_EQ(adj[6][routes.Ports(2, 1).first[0]].first, 4);
  // s3 carries no transit: it reaches its own hosts only.
  EXPECT_EQ(routes.Ports(3, 3).second, 0u);
  EXPECT_EQ(routes.Distance(3, 3), -1);
  // Distances from each switch to the last switch before a host.
  EXPECT_EQ(routes.Distance(0, 1), 0);
  EXPECT_EQ(routes.Distance(1, 1), 2);  // s1 -> s2 -> s0
  EXPECT_EQ(routes.Distance(2, 1), 1);
  EXPECT_EQ(routes.Distance(3, 1), 0);  // the NVSwitch is cabled to h1
  EXPECT_EQ(routes.Distance(1, 0), 0);
  // Leaves route to the other leaf's hosts over the spine.
  EXPECT_EQ(adj[4][routes.Ports(0, 3).first[0]].first, 6);
}

TEST(RouteTableTest, UnreachableHostHasNoPorts) {
  auto adj = Cables(4, {{0, 2}, {1, 3}});  // two islands
  RouteTable routes(2, adj);
  EXPECT_EQ(routes.Ports(0, 1).second, 0u);
  EXPECT_EQ(routes.Ports(1, 0).second, 0u);
  EXPECT_GT(routes.bytes(), 0u);
}

}  // namespace
}  // namespace dcqcn
