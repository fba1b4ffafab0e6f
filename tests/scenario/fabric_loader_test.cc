// Tests of the leaf_spine and fat_tree keys of a scenario: defaults, derived host counts, every
// error naming its key and line, --set overrides, and resolved.toml round trips.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

constexpr const char* kOneFlow = "\n[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\n";

Scenario Load(const std::string& topology, const std::vector<std::string>& overrides = {}) {
  return LoadScenarioText("[topology]\n" + topology + kOneFlow, "test.toml", overrides);
}

std::string ErrorOf(const std::string& topology, const std::vector<std::string>& overrides = {}) {
  try {
    Load(topology, overrides);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(FabricLoader, LeafSpineDefaultsAndKeys) {
  Scenario s = Load("type = \"leaf_spine\"\n");
  EXPECT_EQ(s.topology.leaves, 4);
  EXPECT_EQ(s.topology.spines, 2);
  EXPECT_EQ(s.topology.hosts_per_leaf, 4);
  EXPECT_EQ(s.topology.hosts, 16);
  EXPECT_EQ(s.topology.switches, 6);
  EXPECT_EQ(s.topology.fabric_rate, 40 * kGbps);

  s = Load(
      "type = \"leaf_spine\"\nleaves = 3\nspines = 4\nhosts_per_leaf = 5\nlink_rate = "
      "\"25Gbps\"\nfabric_rate = \"100Gbps\"\nlink_delay = \"2us\"\n");
  EXPECT_EQ(s.topology.hosts, 15);
  EXPECT_EQ(s.topology.switches, 7);
  EXPECT_EQ(s.topology.links.size(), 15u + 12u);
  EXPECT_EQ(s.topology.links.front().rate, 25 * kGbps);
  EXPECT_EQ(s.topology.links.back().rate, 100 * kGbps);
  EXPECT_EQ(s.topology.links.back().delay, 2 * kMicrosecond);

  // hosts may be given: it must agree, or (without hosts_per_leaf) it sets hosts_per_leaf.
  EXPECT_EQ(
      Load("type = \"leaf_spine\"\nleaves = 4\nhosts_per_leaf = 3\nhosts = 12\n").topology.hosts,
      12);
  s = Load("type = \"leaf_spine\"\nleaves = 4\nhosts = 20\n");
  EXPECT_EQ(s.topology.hosts_per_leaf, 5);

  s = Load("type = \"leaf_spine\"\nhosts_per_leaf = 8\nspines = 1\noversubscription = 2\n");
  EXPECT_EQ(s.topology.fabric_rate, 160 * kGbps);
  EXPECT_EQ(s.topology.oversubscription, 2);
}

TEST(FabricLoader, FatTreeDefaultsAndKeys) {
  Scenario s = Load("type = \"fat_tree\"\n");
  EXPECT_EQ(s.topology.k, 4);
  EXPECT_EQ(s.topology.hosts, 16);
  EXPECT_EQ(s.topology.switches, 20);
  s = Load("type = \"fat_tree\"\nk = 6\nhosts = 54\nfabric_rate = \"100Gbps\"\n");
  EXPECT_EQ(s.topology.hosts, 54);
  EXPECT_EQ(s.topology.switches, 45);
  EXPECT_EQ(s.topology.links.back().rate, 100 * kGbps);
  s = Load("type = \"fat_tree\"\n", {"topology.k=8"});
  EXPECT_EQ(s.topology.hosts, 128);
}

TEST(FabricLoader, ErrorsNameKeyAndLine) {
  struct Case {
    std::string topology;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {"type = \"fat_tree\"\nk = 5\n",
            "test.toml:3: topology.k: expected an even integer number of ports per switch >= 2, "
            "got 5"},
           {"type = \"fat_tree\"\nk = 0\n", "test.toml:3: topology.k: expected"},
           {"type = \"fat_tree\"\nk = 4\nhosts = 17\n",
            "test.toml:4: topology.hosts: expected k^3/4 = 16 for k = 4 (or leave hosts out), got "
            "17"},
           {"type = \"fat_tree\"\nk = 200\n",
            "test.toml: topology: fat_tree would have 2000000 hosts"},
           {"type = \"fat_tree\"\nleaves = 2\n",
            "test.toml:3: topology.leaves: only used when topology.type = \"leaf_spine\""},
           {"type = \"fat_tree\"\nbottleneck_rate = \"1Gbps\"\n",
            "topology.bottleneck_rate: only used when topology.type = \"dumbbell\""},
           {"type = \"leaf_spine\"\nk = 4\n",
            "test.toml:3: topology.k: only used when topology.type = \"fat_tree\""},
           {"type = \"star\"\nfabric_rate = \"1Gbps\"\n",
            "topology.fabric_rate: only used when topology.type = \"leaf_spine\", \"rail\", "
            "\"fat_tree\" or \"switch_ring\""},
           {"type = \"star\"\nhosts_per_leaf = 2\n", "topology.hosts_per_leaf: only used when"},
           {"type = \"leaf_spine\"\nleaves = 0\n",
            "test.toml:3: topology.leaves: expected an integer number of leaf switches "
            "1..1048576, got 0"},
           {"type = \"leaf_spine\"\nspines = -1\n", "test.toml:3: topology.spines: expected"},
           {"type = \"leaf_spine\"\nhosts_per_leaf = 0\n",
            "test.toml:3: topology.hosts_per_leaf: expected"},
           {"type = \"leaf_spine\"\nleaves = 2\nhosts_per_leaf = 3\nhosts = 7\n",
            "test.toml:5: topology.hosts: expected leaves x hosts_per_leaf = 2 x 3 = 6 (or leave "
            "hosts out), got 7"},
           {"type = \"leaf_spine\"\nleaves = 4\nhosts = 10\n",
            "test.toml:4: topology.hosts: expected a multiple of leaves = 4 (or give "
            "hosts_per_leaf), got 10"},
           {"type = \"leaf_spine\"\noversubscription = 0\n",
            "test.toml:3: topology.oversubscription: expected a number > 0"},
           {"type = \"leaf_spine\"\noversubscription = \"3:1\"\n",
            "topology.oversubscription: expected a number"},
           {"type = \"leaf_spine\"\noversubscription = 2\nfabric_rate = \"80Gbps\"\n",
            "test.toml: topology: fabric_rate = 80Gbps conflicts with oversubscription = 2"},
           {"type = \"leaf_spine\"\nfabric_rate = \"0Gbps\"\n",
            "test.toml:3: topology.fabric_rate: expected a positive rate"},
           {"type = \"leaf_spine\"\nleaves = 70000\n", "a spine switch would have 70000 ports"},
           {"type = \"fat_three\"\n", "topology.type: expected one of"},
       }) {
    const std::string message = ErrorOf(c.topology);
    EXPECT_NE(message.find(c.message), std::string::npos)
        << "got \"" << message << "\"\nwanted \"" << c.message << "\"\nfor:\n"
        << c.topology;
  }
  // An override that breaks the shape is blamed on the override.
  EXPECT_NE(ErrorOf("type = \"fat_tree\"\n", {"topology.k=7"}).find("--set topology.k=7"),
            std::string::npos);
}

void ExpectRoundTrip(const std::string& topology) {
  const Scenario s = Load(topology);
  const std::string resolved = ResolvedToml(s);
  SCOPED_TRACE(resolved);
  const Scenario back = LoadScenarioText(resolved, "resolved.toml");
  EXPECT_EQ(back.topology.type, s.topology.type);
  EXPECT_EQ(back.topology.hosts, s.topology.hosts);
  EXPECT_EQ(back.topology.switches, s.topology.switches);
  EXPECT_EQ(back.topology.leaves, s.topology.leaves);
  EXPECT_EQ(back.topology.spines, s.topology.spines);
  EXPECT_EQ(back.topology.hosts_per_leaf, s.topology.hosts_per_leaf);
  EXPECT_EQ(back.topology.oversubscription, s.topology.oversubscription);
  EXPECT_EQ(back.topology.k, s.topology.k);
  EXPECT_EQ(back.topology.fabric_rate, s.topology.fabric_rate);
  ASSERT_EQ(back.topology.links.size(), s.topology.links.size());
  for (size_t i = 0; i < s.topology.links.size(); ++i) {
    EXPECT_EQ(back.topology.links[i].a, s.topology.links[i].a);
    EXPECT_EQ(back.topology.links[i].b, s.topology.links[i].b);
    EXPECT_EQ(back.topology.links[i].rate, s.topology.links[i].rate);
    EXPECT_EQ(back.topology.links[i].delay, s.topology.links[i].delay);
  }
  EXPECT_EQ(ResolvedToml(back), resolved);
}

TEST(FabricLoader, RailDefaultsKeysAndErrors) {
  Scenario s = Load("type = \"rail\"\n");
  EXPECT_EQ(s.topology.servers, 4);
  EXPECT_EQ(s.topology.gpus_per_server, 8);
  EXPECT_EQ(s.topology.servers_per_leaf, 4);
  EXPECT_EQ(s.topology.hosts, 32);
  EXPECT_EQ(s.topology.switches, 8 + 2);  // one leaf per rail, two spines
  s = Load(
      "type = \"rail\"\nservers = 16\ngpus_per_server = 8\nservers_per_leaf = 8\nspines = 4\n"
      "link_rate = \"400Gbps\"\noversubscription = 2\nhosts = 128\n");
  EXPECT_EQ(s.topology.switches, 16 + 4);
  EXPECT_EQ(s.topology.fabric_rate, 400 * kGbps);  // 8 x 400 down, 4 x 400 up
  EXPECT_NE(ErrorOf("type = \"rail\"\ngpus_per_server = 0\n")
                .find("test.toml:3: topology.gpus_per_server: expected an integer number of GPUs"),
            std::string::npos)
      << ErrorOf("type = \"rail\"\ngpus_per_server = 0\n");
  EXPECT_NE(ErrorOf("type = \"rail\"\nhosts = 30\n")
                .find("expected servers x gpus_per_server = 4 x 8 = 32"),
            std::string::npos);
  EXPECT_NE(ErrorOf("type = \"rail\"\nleaves = 3\n")
                .find("only used when topology.type = "
                      "\"leaf_spine\""),
            std::string::npos);
  EXPECT_NE(ErrorOf("type = \"leaf_spine\"\nservers = 3\n")
                .find("topology.servers: only used when topology.type = \"rail\""),
            std::string::npos);
  EXPECT_NE(ErrorOf("type = \"star\"\nspines = 3\n")
                .find("only used when topology.type = \"leaf_spine\" or \"rail\""),
            std::string::npos);
  // NVLink: rail only, a positive rate, a delay of zero or more.
  s = Load("type = \"rail\"\nnvlink_rate = \"900Gbps\"\nnvlink_delay = \"500ns\"\n");
  EXPECT_EQ(s.topology.nvlink_rate, 900 * kGbps);
  EXPECT_EQ(s.topology.nvlink_delay, 500 * kNanosecond);
  EXPECT_EQ(ToNetworkConfig(s).nvlink.rate, 900 * kGbps);
  EXPECT_EQ(ToNetworkConfig(Load("type = \"leaf_spine\"\n")).nvlink.rate, 0);
  EXPECT_NE(ErrorOf("type = \"leaf_spine\"\nnvlink_rate = \"1Tbps\"\n")
                .find("topology.nvlink_rate: only used when topology.type = \"rail\""),
            std::string::npos);
  EXPECT_NE(ErrorOf("type = \"rail\"\nnvlink_rate = \"0Gbps\"\n").find("topology.nvlink_rate"),
            std::string::npos);
  EXPECT_NE(ErrorOf("type = \"rail\"\nnvlink_delay = \"-1us\"\n").find("topology.nvlink_delay"),
            std::string::npos);
}

TEST(FabricLoader, ResolvedTomlRoundTrips) {
  ExpectRoundTrip("type = \"rail\"\n");
  ExpectRoundTrip(
      "type = \"rail\"\nservers = 6\ngpus_per_server = 4\nservers_per_leaf = 4\nspines = 3\n"
      "oversubscription = 1.5\nlink_rate = \"200Gbps\"\nnvlink_rate = \"1.8Tbps\"\n"
      "nvlink_delay = \"300ns\"\n");
  ExpectRoundTrip("type = \"leaf_spine\"\n");
  ExpectRoundTrip(
      "type = \"leaf_spine\"\nleaves = 5\nspines = 3\nhosts = 35\nlink_rate = \"25Gbps\"\n"
      "oversubscription = 1.5\nlink_delay = \"500ns\"\n");
  ExpectRoundTrip("type = \"leaf_spine\"\nleaves = 2\nspines = 2\nfabric_rate = \"100Gbps\"\n");
  ExpectRoundTrip("type = \"fat_tree\"\n");
  ExpectRoundTrip("type = \"fat_tree\"\nk = 8\nlink_rate = \"10Gbps\"\nfabric_rate = \"40Gbps\"\n");
  const std::string resolved = ResolvedToml(Load("type = \"fat_tree\"\nk = 6\n"));
  for (const char* line :
       {"type = \"fat_tree\"\n", "hosts = 54\n", "k = 6\n", "fabric_rate = \"40Gbps\"\n"}) {
    EXPECT_NE(resolved.find(line), std::string::npos) << line << resolved;
  }
  EXPECT_EQ(resolved.find("leaves"), std::string::npos);
}

}  // namespace
}  // namespace dcqcn
