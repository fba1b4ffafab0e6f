// Tests of the topology builders: node and link counts, the dumbbell's halves, and the checks
// that reject impossible custom topologies.
#include "topology/builders.h"

#include <gtest/gtest.h>

#include <string>

#include "core/error.h"

namespace dcqcn {
namespace {

TopologyConfig Make(const std::string& type, int hosts) {
  TopologyConfig t;
  t.type = type;
  t.hosts = hosts;
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

TEST(Builders, StarPutsEveryHostOnSwitchZero) {
  TopologyConfig t = Make("star", 9);
  t.switches = 5;  // ignored: a star has one switch
  t.link_rate = 100 * kGbps;
  t.link_delay = 2 * kMicrosecond;
  BuildTopology(t, "x");
  EXPECT_EQ(t.switches, 1);
  EXPECT_EQ(t.num_nodes(), 10);
  ASSERT_EQ(t.links.size(), 9u);
  for (int h = 0; h < 9; ++h) {
    EXPECT_EQ(t.links[h].a, h);  // link i is host i's cable
    EXPECT_EQ(t.links[h].b, 9);
    EXPECT_EQ(t.links[h].rate, 100 * kGbps);
    EXPECT_EQ(t.links[h].delay, 2 * kMicrosecond);
  }
}

TEST(Builders, RebuildingReplacesTheLinks) {
  TopologyConfig t = Make("star", 3);
  BuildTopology(t, "x");
  BuildTopology(t, "x");
  EXPECT_EQ(t.links.size(), 3u);
}

TEST(Builders, DumbbellSplitsHostsIntoHalves) {
  for (int hosts : {2, 3, 4, 5, 8, 9}) {
    TopologyConfig t = Make("dumbbell", hosts);
    t.bottleneck_rate = 10 * kGbps;
    BuildTopology(t, "x");
    EXPECT_EQ(t.switches, 2);
    ASSERT_EQ(t.links.size(), static_cast<size_t>(hosts + 1));
    const int s0 = hosts;
    const int s1 = hosts + 1;
    const int left = (hosts + 1) / 2;
    int on_s0 = 0;
    for (int h = 0; h < hosts; ++h) {
      EXPECT_EQ(t.links[h].a, h);
      EXPECT_EQ(t.links[h].b, h < left ? s0 : s1) << "host " << h << " of " << hosts;
      EXPECT_EQ(t.links[h].rate, t.link_rate);
      on_s0 += t.links[h].b == s0;
    }
    EXPECT_EQ(on_s0, left);
    EXPECT_EQ(t.links.back().a, s0);
    EXPECT_EQ(t.links.back().b, s1);
    EXPECT_EQ(t.links.back().rate, 10 * kGbps);
  }
}

TEST(Builders, DumbbellBottleneckZeroMeansLinkRate) {
  TopologyConfig t = Make("dumbbell", 4);
  t.link_rate = 25 * kGbps;
  BuildTopology(t, "x");
  EXPECT_EQ(t.links.back().rate, 25 * kGbps);
}

TEST(Builders, CustomLinksAreCheckedNotReplaced) {
  TopologyConfig t = Make("custom", 3);
  t.switches = 2;  // nodes: h0 h1 h2 s0=3 s1=4
  t.links = {{0, 3, 40 * kGbps, kMicrosecond},
             {1, 3, 40 * kGbps, kMicrosecond},
             {3, 4, 100 * kGbps, 2 * kMicrosecond},
             {4, 2, 40 * kGbps, kMicrosecond}};
  BuildTopology(t, "x");
  EXPECT_EQ(t.switches, 2);
  EXPECT_EQ(t.links.size(), 4u);
  EXPECT_EQ(t.links[2].rate, 100 * kGbps);
}

TEST(Builders, ImpossibleTopologiesAreInputErrors) {
  EXPECT_NE(ErrorOf(Make("star", 1)).find("hosts = 1"), std::string::npos);
  EXPECT_NE(ErrorOf(Make("star", 0)), "");
  EXPECT_NE(ErrorOf(Make("star", kMaxTopologyNodes + 1)), "");
  EXPECT_NE(ErrorOf(Make("dumbbell", 1)), "");
  EXPECT_NE(ErrorOf(Make("ring", 4)).find("unknown type \"ring\""), std::string::npos);
  TopologyConfig zero_rate = Make("star", 4);
  zero_rate.link_rate = 0;
  EXPECT_NE(ErrorOf(zero_rate), "");
  TopologyConfig zero_delay = Make("star", 4);
  zero_delay.link_delay = 0;
  EXPECT_NE(ErrorOf(zero_delay), "");

  TopologyConfig base = Make("custom", 2);
  base.switches = 1;  // h0 h1 s0=2
  base.links = {{0, 2}, {1, 2}};
  EXPECT_EQ(ErrorOf(base), "");

  TopologyConfig self = base;
  self.links.push_back({2, 2});
  EXPECT_NE(ErrorOf(self).find("itself"), std::string::npos);

  TopologyConfig unknown = base;
  unknown.links.push_back({2, 7});
  EXPECT_NE(ErrorOf(unknown).find("node id 7"), std::string::npos);

  TopologyConfig two_ports = base;  // a NIC with two ports (dual-ToR, NVLink as a switch)
  two_ports.switches = 2;
  two_ports.links = {{0, 2}, {1, 2}, {0, 3}, {2, 3}};
  EXPECT_EQ(ErrorOf(two_ports), "");

  TopologyConfig no_port = base;
  no_port.links.pop_back();
  EXPECT_NE(ErrorOf(no_port).find("h1 has 0 links, expected 1.."), std::string::npos);

  TopologyConfig bad_rate = base;
  bad_rate.links[0].rate = -1;
  EXPECT_NE(ErrorOf(bad_rate), "");

  EXPECT_EQ(ErrorOf(unknown).rfind("topo.toml: topology:", 0), 0u);
}

TEST(Builders, DualTorHostsHaveAPortOnEachLeafOfTheirRack) {
  // 4 leaves in racks of 2, 3 hosts a rack: 6 hosts, each cabled to both leaves of its rack.
  TopologyConfig t = Make("leaf_spine", 0);
  t.leaves = 4;
  t.spines = 2;
  t.hosts_per_leaf = 3;
  t.ports_per_host = 2;
  BuildTopology(t, "x");
  EXPECT_EQ(t.hosts, 6);
  EXPECT_EQ(t.switches, 6);
  ASSERT_EQ(t.links.size(), 6u * 2 + 4 * 2);
  for (int h = 0; h < 6; ++h) {
    const int rack = h / 3;
    EXPECT_EQ(t.links[h].a, h);  // the first port: link h
    EXPECT_EQ(t.links[h].b, 6 + rack * 2);
    EXPECT_EQ(t.links[6 + h].a, h);  // the second: link hosts + h, the rack's other leaf
    EXPECT_EQ(t.links[6 + h].b, 6 + rack * 2 + 1);
  }
  // A dual-ToR rack needs its two leaves.
  TopologyConfig odd = t;
  odd.leaves = 3;
  EXPECT_NE(ErrorOf(odd).find("leaves = 3 is not a multiple of ports_per_host = 2"),
            std::string::npos);
}

TEST(Builders, RailPlanesAreWholeFabricsSideBySide) {
  // 2 servers x 2 GPUs, one leaf per rail, 2 spines, 2 planes: 2 x (2 leaves + 2 spines).
  TopologyConfig t = Make("rail", 0);
  t.servers = 2;
  t.gpus_per_server = 2;
  t.servers_per_leaf = 2;
  t.spines = 2;
  t.planes = 2;
  BuildTopology(t, "x");
  EXPECT_EQ(t.hosts, 4);
  EXPECT_EQ(t.switches, 8);
  ASSERT_EQ(t.links.size(), 4u * 2 + 2 * (2 * 2));
  // Leaves: plane 0's rails 0 and 1 are nodes 4 and 5, plane 1's 6 and 7; spines 8, 9 and 10, 11.
  for (int h = 0; h < 4; ++h) {
    EXPECT_EQ(t.links[h].b, 4 + h % 2);
    EXPECT_EQ(t.links[4 + h].b, 6 + h % 2);
  }
  for (size_t i = 8; i < t.links.size(); ++i) {
    const bool plane1 = t.links[i].a >= 6;
    EXPECT_EQ(t.links[i].b >= 10, plane1) << i;  // a leaf only reaches its own plane's spines
  }
}

TEST(Builders, ConnectedComponentsSeparateIslands) {
  TopologyConfig t = Make("custom", 4);
  t.switches = 2;  // h0 h1 on s0=4; h2 h3 on s1=5; no s0-s1 link
  t.links = {{0, 4}, {1, 4}, {2, 5}, {3, 5}};
  BuildTopology(t, "x");
  std::vector<int> c = ConnectedComponents(t);
  ASSERT_EQ(c.size(), 6u);
  EXPECT_EQ(c[0], c[1]);
  EXPECT_EQ(c[0], c[4]);
  EXPECT_EQ(c[2], c[3]);
  EXPECT_NE(c[0], c[2]);
  t.links.push_back({4, 5});
  c = ConnectedComponents(t);
  EXPECT_EQ(c[0], c[3]);

  TopologyConfig star = Make("star", 5);
  BuildTopology(star, "x");
  c = ConnectedComponents(star);
  for (int n = 0; n < star.num_nodes(); ++n) EXPECT_EQ(c[n], c[0]);
}

}  // namespace
}  // namespace dcqcn
