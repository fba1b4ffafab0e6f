// Tests of topology.type = "hpcc_file": the file is found relative to the scenario, its hosts
// become h0.. in id order, keys describing nodes are rejected, and resolved.toml reloads it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

class HpccFileTopologyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("dcqcn_hpcc_topo_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "mix");
    // Switch 0 first, then hosts 1..3 (as the HPCC sample numbers them).
    std::ofstream(dir_ / "mix/topo.txt")
        << "4 1 3\n0\n0 1 100Gbps 0.001ms 0\n0 2 100Gbps 0.001ms 0\n0 3 25Gbps 0.001ms 0\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Scenario(const std::string& topology) {
    const fs::path p = dir_ / "s.toml";
    std::ofstream(p) << "[topology]\n"
                     << topology << "\n[[flow]]\nsrc = 1\ndst = 0\nsize = \"10KB\"\n";
    return p.string();
  }
  fs::path dir_;
};

TEST_F(HpccFileTopologyTest, LoadsTheFileRelativeToTheScenario) {
  const dcqcn::Scenario s =
      LoadScenarioFile(Scenario("type = \"hpcc_file\"\nfile = \"mix/topo.txt\""));
  EXPECT_EQ(s.topology.type, "hpcc_file");
  EXPECT_EQ(s.topology.hosts, 3);
  EXPECT_EQ(s.topology.switches, 1);
  EXPECT_EQ(s.topology.hpcc_ids, (std::vector<int>{1, 2, 3, 0}));
  ASSERT_EQ(s.topology.links.size(), 3u);
  EXPECT_EQ(s.topology.links[2].a, 3);  // switch 0 is our node 3
  EXPECT_EQ(s.topology.links[2].b, 2);  // file host 3 is our h2
  EXPECT_EQ(s.topology.links[2].rate, 25 * kGbps);

  // resolved.toml names the file by its absolute path and loads back the same network.
  const std::string resolved = ResolvedToml(s);
  EXPECT_NE(resolved.find("file = \"" + (dir_ / "mix/topo.txt").string() + "\""), std::string::npos)
      << resolved;
  EXPECT_EQ(resolved.find("link_rate"), std::string::npos);
  const dcqcn::Scenario back = LoadScenarioText(resolved, "elsewhere/resolved.toml");
  EXPECT_EQ(back.topology.hpcc_ids, s.topology.hpcc_ids);
  ASSERT_EQ(back.topology.links.size(), 3u);
  EXPECT_EQ(back.topology.links[2].rate, 25 * kGbps);
  EXPECT_EQ(back.flows.size(), 1u);
}

TEST_F(HpccFileTopologyTest, RejectsKeysTheFileDecidesAndBadFiles) {
  auto error = [&](const std::string& topology) {
    try {
      LoadScenarioFile(Scenario(topology));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  std::string m = error("type = \"hpcc_file\"\nfile = \"mix/topo.txt\"\nhosts = 3");
  EXPECT_NE(m.find("s.toml:4: topology.hosts: not used when topology.type = \"hpcc_file\""),
            std::string::npos)
      << m;
  m = error("type = \"hpcc_file\"");
  EXPECT_NE(m.find("topology.file: required when topology.type = \"hpcc_file\""), std::string::npos)
      << m;
  m = error("type = \"hpcc_file\"\nfile = \"mix/none.txt\"");
  EXPECT_NE(m.find("s.toml:3: topology.file: "), std::string::npos) << m;
  EXPECT_NE(m.find("mix/none.txt: cannot read topology file"), std::string::npos) << m;
  m = error("type = \"star\"\nfile = \"mix/topo.txt\"");
  EXPECT_NE(m.find("topology.file: only used when topology.type = \"hpcc_file\""),
            std::string::npos)
      << m;
  std::ofstream(dir_ / "mix/topo.txt") << "4 1 3\n0\n0 1 100Gbps 0.001ms 0\n0 2 100Gbps x 0\n";
  m = error("type = \"hpcc_file\"\nfile = \"mix/topo.txt\"");
  EXPECT_NE(m.find("mix/topo.txt:4: topology: link 2 of 3: expected a delay"), std::string::npos)
      << m;
}

}  // namespace
}  // namespace dcqcn
