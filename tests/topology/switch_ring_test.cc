// switch_ring: the cabling (hosts on their switches, the ring closed), the loader's defaults and
// errors with key and line, resolved.toml's round trip, and the classic PFC deadlock it is
// built for: examples/pfc/ring_deadlock.toml's custom ring, cable for cable.
#include "topology/types/switch_ring.h"

#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"
#include "topology/builders.h"

namespace dcqcn {
namespace {

const std::string kFlow = "[[flow]]\nsrc = 0\ndst = 1\nsize = \"1MB\"\n";

TEST(SwitchRing, PutsHostsOnTheirSwitchesAndClosesTheRing) {
  TopologyConfig t;
  t.type = "switch_ring";
  t.switches = 5;
  t.hosts_per_switch = 3;
  t.link_rate = 100 * kGbps;
  t.fabric_rate = 400 * kGbps;
  BuildTopology(t, "x");
  EXPECT_EQ(t.hosts, 15);
  ASSERT_EQ(t.links.size(), 15u + 5u);
  for (int h = 0; h < 15; ++h) {
    EXPECT_EQ(t.links[h].a, h);
    EXPECT_EQ(t.links[h].b, 15 + h / 3);
    EXPECT_EQ(t.links[h].rate, 100 * kGbps);
  }
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(t.links[15 + i].a, 15 + i);
    EXPECT_EQ(t.links[15 + i].b, 15 + (i + 1) % 5);
    EXPECT_EQ(t.links[15 + i].rate, 400 * kGbps);
  }
  t.switches = 2;
  EXPECT_THROW(BuildTopology(t, "x"), InputError);
}

TEST(SwitchRing, LoaderDefaultsErrorsAndResolvedToml) {
  const Scenario s = LoadScenarioText(kFlow + "[topology]\ntype = \"switch_ring\"\n", "ring.toml");
  EXPECT_EQ(s.topology.switches, 4);
  EXPECT_EQ(s.topology.hosts, 8);
  EXPECT_EQ(s.topology.fabric_rate, s.topology.link_rate);
  const std::string resolved = ResolvedToml(s);
  EXPECT_NE(resolved.find("type = \"switch_ring\"\nhosts = 8\n"), std::string::npos);
  EXPECT_NE(resolved.find("switches = 4\nhosts_per_switch = 2\nfabric_rate = \"40Gbps\"\n"),
            std::string::npos);
  EXPECT_EQ(ResolvedToml(LoadScenarioText(resolved, "resolved.toml")), resolved);

  testing::ExpectLoadError(kFlow + "[topology]\ntype = \"switch_ring\"\nswitches = 2\n",
                           "ring.toml",
                           {"ring.toml:7:", "topology.switches", "at least 3 switches"});
  testing::ExpectLoadError(
      kFlow + "[topology]\ntype = \"switch_ring\"\nhosts = 7\n", "ring.toml",
      {"ring.toml:7:", "topology.hosts", "switches x hosts_per_switch = 4 x 2 = 8"});
  testing::ExpectLoadError(kFlow + "[topology]\ntype = \"star\"\nhosts_per_switch = 2\n",
                           "ring.toml",
                           {"topology.hosts_per_switch",
                            "only used when topology.type = "
                            "\"switch_ring\""});
}

TEST(SwitchRing, IsTheCustomRingOfTheDeadlockExample) {
  const Scenario custom = LoadScenarioText(
      kFlow +
          "[topology]\ntype = \"custom\"\nhosts = 4\nswitches = 4\nlinks = [[\"h0\", \"s0\"], "
          "[\"h1\", \"s1\"], [\"h2\", \"s2\"], [\"h3\", \"s3\"], [\"s0\", \"s1\"], [\"s1\", "
          "\"s2\"], "
          "[\"s2\", \"s3\"], [\"s3\", \"s0\"]]\n",
      "custom.toml");
  const Scenario ring = LoadScenarioText(
      kFlow + "[topology]\ntype = \"switch_ring\"\nswitches = 4\nhosts_per_switch = 1\n",
      "ring.toml");
  ASSERT_EQ(ring.topology.links.size(), custom.topology.links.size());
  for (size_t i = 0; i < ring.topology.links.size(); ++i) {
    EXPECT_EQ(ring.topology.links[i].a, custom.topology.links[i].a);
    EXPECT_EQ(ring.topology.links[i].b, custom.topology.links[i].b);
    EXPECT_EQ(ring.topology.links[i].rate, custom.topology.links[i].rate);
    EXPECT_EQ(ring.topology.links[i].delay, custom.topology.links[i].delay);
  }
}

}  // namespace
}  // namespace dcqcn
