// Placement by an earlier run's work (--placement-from): links.csv's bytes read back by node,
// a collective on half the racks spread over both threads where the ports put it all on one,
// the same results either way, and a folder of another topology refused naming its file and
// line.
#include "run/node_work.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_util.h"
#include "net/network.h"
#include "run/run_scenario.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

// 8 racks of 4 hosts under 4 spines; a ring AllReduce over the first 2 racks' hosts only, every
// hop from one rack to the other.
std::string HalfLoaded() {
  return R"(duration = "1s"
[topology]
type = "leaf_spine"
leaves = 8
spines = 4
hosts_per_leaf = 4
link_rate = "100Gbps"
[[collective]]
op = "allreduce"
size = "2MB"
ranks = [0, 4, 1, 5, 2, 6, 3, 7]
)";
}

// How many of the AllReduce's hosts each thread runs.
std::vector<int> LoadedHostsByThread(const Network& net) {
  std::vector<int> by_thread(net.parts().size(), 0);
  for (int h = 0; h < 8; ++h) ++by_thread[net.placement().thread_of[h]];
  return by_thread;
}

class NodeWork : public testing::TempDirTest {};

TEST_F(NodeWork, AnEarlierRunsWorkSpreadsTheLoadedRacksOverTheThreads) {
  const Scenario s = LoadScenarioText(HalfLoaded(), "half.toml");
  const std::string first = (dir_ / "first").string();
  RunOptions options;
  options.threads = 2;
  options.out_dir = first;
  std::vector<int> by_ports;
  options.after_run = [&](const Network& net) { by_ports = LoadedHostsByThread(net); };
  RunScenario(s, options);
  // By ports the first thread takes the first racks and the spines: every loaded host.
  EXPECT_EQ(by_ports, (std::vector<int>{8, 0}));

  const Network built(ToNetworkConfig(s));
  const std::vector<double> work = ReadNodeWork(first, built.config().topology);
  ASSERT_EQ(work.size(), static_cast<size_t>(built.config().topology.num_nodes()));
  EXPECT_GT(work[0], 2 * 2e6);  // host 0 sent and took in its share of the AllReduce
  EXPECT_EQ(work[8], 0);        // the third rack's first host did nothing
  EXPECT_EQ(work[34], 0);       // nor its leaf
  EXPECT_GT(work[40], 0);       // the first spine carried some of it

  const std::string second = (dir_ / "second").string();
  options.out_dir = second;
  options.placement_from = first;
  std::vector<int> by_work;
  options.after_run = [&](const Network& net) { by_work = LoadedHostsByThread(net); };
  RunScenario(s, options);
  // By work: the first rack and the spines, then the second rack on the other thread.
  EXPECT_EQ(by_work, (std::vector<int>{4, 4}));
  EXPECT_EQ(testing::ReadFile(second + "/flows.csv"), testing::ReadFile(first + "/flows.csv"));
  EXPECT_EQ(testing::ReadFile(second + "/links.csv"), testing::ReadFile(first + "/links.csv"));
}

TEST_F(NodeWork, AFolderOfAnotherTopologyIsRefusedNamingItsFileAndLine) {
  const Scenario s = LoadScenarioText(HalfLoaded(), "half.toml");
  const std::string first = (dir_ / "first").string();
  RunOptions options;
  options.out_dir = first;
  RunScenario(s, options);
  const Scenario bigger =
      LoadScenarioText(HalfLoaded(), "half.toml", {"topology.hosts_per_leaf=5"});
  const std::string message =
      testing::InputErrorOf([&] { ReadNodeWork(first, ToNetworkConfig(bigger).topology); });
  EXPECT_NE(message.find(first + "/links.csv:"), std::string::npos) << message;
  EXPECT_NE(message.find("--placement-from"), std::string::npos) << message;
  const Scenario fewer = LoadScenarioText(HalfLoaded(), "half.toml", {"topology.leaves=4"});
  EXPECT_NE(testing::InputErrorOf([&] {
              ReadNodeWork(first, ToNetworkConfig(fewer).topology);
            }).find("is not in this topology"),
            std::string::npos);
  Write("links.csv", "node,port,peer\nh0,0,s0\n");
  EXPECT_NE(testing::InputErrorOf([&] {
              ReadNodeWork(dir_.string(), ToNetworkConfig(s).topology);
            }).find("links.csv:1: no column `bytes`"),
            std::string::npos);
  EXPECT_NE(testing::InputErrorOf([&] {
              ReadNodeWork((dir_ / "none").string(), ToNetworkConfig(s).topology);
            }).find("cannot read"),
            std::string::npos);
}

}  // namespace
}  // namespace dcqcn
