// Static routes ([[route]]): read and checked against the topology (each error names the key and
// the line), written back by resolved.toml, followed by the switches, and routing loops warned
// about by `dcqcn check` (RouteLoops); a flow sent round one loses its packets to TTL.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"
#include "engine/one_thread_engine.h"
#include "net/network.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

// Four switches in a ring, one host on each (h_i on s_i).
constexpr const char* kRing = R"(
duration = "1ms"
[topology]
type = "custom"
hosts = 4
switches = 4
links = [["h0", "s0"], ["h1", "s1"], ["h2", "s2"], ["h3", "s3"],
         ["s0", "s1"], ["s1", "s2"], ["s2", "s3"], ["s3", "s0"]]
[[flow]]
src = 0
dst = 2
size = "10KB"
)";

// h0 -> h2 two hops clockwise (s0 -> s1 -> s2); s0's shortest paths to h2 go both ways.
constexpr const char* kClockwise = R"(
[[route]]
switch = "s0"
dst = "h2"
next = "s1"
)";

Scenario Load(const std::string& text) { return LoadScenarioText(text, "ring.toml"); }

std::vector<int> Nodes(const Network& net, uint32_t flow) {
  std::vector<int> nodes;
  for (const LinkSpec& l : net.PathOf(flow)) nodes.push_back(l.b);
  return nodes;
}

TEST(StaticRoutes, AreReadAndFollowed) {
  const Scenario s = Load(std::string(kRing) + kClockwise);
  ASSERT_EQ(s.routes.size(), 1u);
  EXPECT_EQ(s.routes[0].sw, 4);  // s0 after the 4 hosts
  EXPECT_EQ(s.routes[0].dsts, std::vector<int>{2});
  EXPECT_EQ(s.routes[0].next, std::vector<int>{5});
  Network net(ToNetworkConfig(s));
  EXPECT_EQ(Nodes(net, 0), (std::vector<int>{4, 5, 6, 2}));  // s0, s1, s2, h2
  EXPECT_TRUE(net.RouteLoops().empty());
  // The other way round when the route says so.
  const Scenario ccw = Load(std::string(kRing) + R"(
[[route]]
switch = "s0"
dst = ["h2", "h1"]
next = ["s3"]
)");
  Network net2(ToNetworkConfig(ccw));
  OneThreadEngine engine2(net2);
  EXPECT_EQ(Nodes(net2, 0), (std::vector<int>{4, 7, 6, 2}));  // s0, s3, s2, h2
  engine2.RunUntil(ccw.duration);
  EXPECT_TRUE(engine2.all_done());
  EXPECT_NO_THROW(net2.CheckRouteCaches());
}

TEST(StaticRoutes, ResolvedTomlWritesThemBack) {
  const Scenario s = Load(std::string(kRing) + kClockwise);
  const std::string text = ResolvedToml(s);
  EXPECT_NE(text.find("[[route]]\nswitch = \"s0\"\ndst = [\"h2\"]\nnext = [\"s1\"]\n"),
            std::string::npos);
  const Scenario again = LoadScenarioText(text, "resolved.toml");
  ASSERT_EQ(again.routes.size(), 1u);
  EXPECT_EQ(again.routes[0].next, s.routes[0].next);
  // Without routes, resolved.toml has none (the text of earlier runs is unchanged).
  EXPECT_EQ(ResolvedToml(Load(kRing)).find("[[route]]"), std::string::npos);
}

TEST(StaticRoutes, BadRoutesNameTheKeyAndLine) {
  auto route = [](const std::string& body) { return std::string(kRing) + "[[route]]\n" + body; };
  testing::ExpectLoadError(route("switch = \"s9\"\ndst = \"h2\"\nnext = \"s1\"\n"), "ring.toml",
                           {"route[0].switch", "ring.toml:14", "expected a switch s0..s3"});
  testing::ExpectLoadError(route("switch = \"h0\"\ndst = \"h2\"\nnext = \"s1\"\n"), "ring.toml",
                           {"route[0].switch", "expected a switch"});
  testing::ExpectLoadError(route("switch = \"s0\"\ndst = \"s2\"\nnext = \"s1\"\n"), "ring.toml",
                           {"route[0].dst", "ring.toml:15", "expected a host h0..h3"});
  testing::ExpectLoadError(route("switch = \"s0\"\ndst = \"h2\"\nnext = \"s2\"\n"), "ring.toml",
                           {"route[0].next", "ring.toml:16", "s2 is not cabled to s0"});
  testing::ExpectLoadError(route("switch = \"s0\"\ndst = \"h2\"\nnext = []\n"), "ring.toml",
                           {"route[0].next", "or a list of them"});
  testing::ExpectLoadError(route("switch = \"s0\"\ndst = \"h2\"\n"), "ring.toml",
                           {"route[0].next", "required in every [[route]]"});
  testing::ExpectLoadError(route("switch = \"s0\"\ndst = \"h2\"\nnext = \"s1\"\nvia = 1\n"),
                           "ring.toml", {"route[0].via", "unknown key"});
  // A host forwards nothing: a next hop that is a host other than the destination was read
  // through the switch's port numbers (a crash, or a flow "delivered" nowhere).
  testing::ExpectLoadError(
      route("switch = \"s0\"\ndst = \"h2\"\nnext = \"h0\"\n"), "ring.toml",
      {"route[0].next", "ring.toml:16", "h0 is a host", "a switch or the destination itself"});
  // Two routes for one switch and destination: the later would silently win.
  testing::ExpectLoadError(
      std::string(kRing) + kClockwise +
          "[[route]]\nswitch = \"s0\"\ndst = [\"h1\", \"h2\"]\nnext = \"s3\"\n",
      "ring.toml", {"route[1].dst", "h2 at s0 are routed by route[0]"});
}

TEST(StaticRoutes, ANextHopMayBeTheDestinationItself) {
  const Scenario s =
      Load(std::string(kRing) + "[[route]]\nswitch = \"s2\"\ndst = \"h2\"\nnext = \"h2\"\n");
  ASSERT_EQ(s.routes.size(), 1u);
  EXPECT_EQ(s.routes[0].next, std::vector<int>{2});
}

TEST(StaticRoutes, HostsAreNamedByIndexOrNameWherever) {
  // [[route]] dst by index, [[flow]] src and dst by name: the same scenario as by the other form.
  const Scenario by_index =
      Load(std::string(kRing) + "[[route]]\nswitch = \"s0\"\ndst = 2\nnext = \"s1\"\n");
  EXPECT_EQ(by_index.routes[0].dsts, std::vector<int>{2});
  std::string named = kRing;
  named.replace(named.find("src = 0"), 7, "src = \"h0\"");
  named.replace(named.find("dst = 2"), 7, "dst = \"h2\"");
  const Scenario by_name = Load(named + kClockwise);
  EXPECT_EQ(ResolvedToml(by_name), ResolvedToml(Load(std::string(kRing) + kClockwise)));
  testing::ExpectLoadError(std::string(kRing) + "[[flow]]\nsrc = \"s1\"\ndst = 2\nsize = \"1KB\"\n",
                           "ring.toml", {"flow[1].src", "expected a host h0..h3 or its index"});
  testing::ExpectLoadError(std::string(kRing) + "[[flow]]\nsrc = 9\ndst = 2\nsize = \"1KB\"\n",
                           "ring.toml", {"flow[1].src", "a host index"});
}

TEST(StaticRoutes, LoopsAreWarnedAboutAndAFlowRoundOneLosesItsPacketsToTtl) {
  // s1 sends packets for h2 back to s0, which sends them to s1.
  const std::string loop = std::string(kRing) + kClockwise + R"(
[[route]]
switch = "s1"
dst = "h2"
next = "s0"
)";
  const Scenario s = Load(loop);  // the network's flows are a view of the scenario's
  Network net(ToNetworkConfig(s));
  OneThreadEngine engine(net);
  EXPECT_EQ(net.RouteLoops(),
            (std::vector<std::string>{"[[route]]: packets to h2 can loop: s0 -> s1 -> s0"}));
  // The flow h0 -> h2 circulates: each of its packets is dropped at the 65th switch it meets,
  // as a router drops one whose TTL of 64 has run out, and the flow never finishes.
  engine.RunUntil(kMillisecond);
  const NetStats& st = net.stats();
  EXPECT_GT(st.data_packets_sent, 0u);
  EXPECT_EQ(st.ttl_drops, st.data_packets_sent);
  EXPECT_EQ(st.drops, st.ttl_drops);
  EXPECT_EQ(st.link_drops, 0u);
  EXPECT_EQ(st.packet_hops, st.data_packets_sent * (1 + SwitchNode::kTtlHops));
  EXPECT_EQ(net.flow_finish(0), -1);
  net.CheckInvariants(false);
}

TEST(RouteTableTest, AnOverrideReplacesOneSwitchAndDestination) {
  std::vector<std::vector<std::pair<int, int>>> adj(4);  // h0 - s0 = s1 - h1 (two cables)
  auto cable = [&](int a, int b) {
    adj[a].push_back({b, static_cast<int>(adj[b].size())});
    adj[b].push_back({a, static_cast<int>(adj[a].size()) - 1});
  };
  cable(0, 2);
  cable(1, 3);
  cable(2, 3);
  cable(2, 3);
  RouteTable routes(2, adj);
  EXPECT_EQ(routes.Ports(0, 1).second, 2u);
  EXPECT_FALSE(routes.has_overrides());
  routes.Override(0, 1, {2});
  EXPECT_TRUE(routes.has_overrides());
  ASSERT_EQ(routes.Ports(0, 1).second, 1u);
  EXPECT_EQ(routes.Ports(0, 1).first[0], 2);
  EXPECT_EQ(routes.Ports(1, 0).second, 2u);  // the other switch's: both cables, unchanged
}

}  // namespace
}  // namespace dcqcn
