// Route table: direct host ports, equal-cost sets across a two-tier fabric, unreachable hosts.
#include "net/routing.h"

#include <gtest/gtest.h>

#include <set>

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

TEST(RouteTableTest, UnreachableHostHasNoPorts) {
  auto adj = Cables(4, {{0, 2}, {1, 3}});  // two islands
  RouteTable routes(2, adj);
  EXPECT_EQ(routes.Ports(0, 1).second, 0u);
  EXPECT_EQ(routes.Ports(1, 0).second, 0u);
  EXPECT_GT(routes.bytes(), 0u);
}

}  // namespace
}  // namespace dcqcn
