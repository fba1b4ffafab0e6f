// `dcqcn sweep`: one row per run, the metric columns from each run's summary.json, and per-tag
// columns so that a victim's throughput needs no flows.csv.
#include "app/sweep_command.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "cli_util.h"
#include "test_util.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

// Each test gets a fresh folder of its own (removed afterwards).
using SweepCommand = testing::TempDirTest;

const char* kVictim = R"(name = "victim-mini"
duration = "3ms"
[topology]
type = "star"
hosts = 8
[cc]
algorithm = "none"
[[flow]]
src = 7
dst = 6
size = "1GB"
tag = "victim"
[workload]
type = "incast"
senders = 2
receiver = 0
size = "1GB"
)";

TEST_F(SweepCommand, PerTagColumns) {
  SweepOptions options;
  options.scenario = Write("s.toml", kVictim).string();
  options.vary = {"workload.senders=2,4"};
  options.out_dir = (dir_ / "out").string();
  options.quiet = true;
  ASSERT_EQ(RunSweepCommand(options), 0);
  const std::string csv = (dir_ / "out/sweep.csv").string();
  const auto victim = testing::CsvColumn(csv, "tag.victim.flow_throughput_gbps.mean");
  const auto incast = testing::CsvColumn(csv, "tag.incast.flow_throughput_gbps.mean");
  const auto incast_flows = testing::CsvColumn(csv, "tag.incast.flows");
  ASSERT_EQ(victim.size(), 2u);
  // The victim has a port of its own; the incast flows share one.
  for (const std::string& v : victim) EXPECT_GT(std::stod(v), 30) << v;
  EXPECT_NEAR(std::stod(incast[0]), 36.8 / 2, 1.5);
  EXPECT_NEAR(std::stod(incast[1]), 36.8 / 4, 1.5);
  EXPECT_EQ(incast_flows[0], "2");
  EXPECT_EQ(incast_flows[1], "4");
  // The overall columns count the unfinished flows too (none finishes in 3 ms).
  const auto mean = testing::CsvColumn(csv, "flow_throughput_gbps.mean");
  EXPECT_GT(std::stod(mean[0]), 10);
  const auto jain = testing::CsvColumn(csv, "jain_fairness");
  EXPECT_LT(std::stod(jain[1]), 0.9);
  // An empty statistic is an empty cell, never 0.
  EXPECT_EQ(testing::CsvColumn(csv, "fct_slowdown.p50")[0], "");
}

TEST_F(SweepCommand, TooManyRunsIsAnInputErrorBeforeAnythingIsBuilt) {
  // 100^4 = 100 million combinations: refused at once, naming --vary and the list sizes.
  std::string values;
  for (int i = 1; i <= 100; ++i) {
    if (i > 1) values += ',';
    values += std::to_string(i);
  }
  SweepOptions options;
  options.vary = {"seed=" + values, "topology.hosts=" + values, "switch.ecn.pmax=" + values,
                  "cc.g=" + values};
  options.out_dir = (dir_ / "out").string();
  options.quiet = true;
  const std::string m = testing::InputErrorOf([&] { RunSweepCommand(options); });
  EXPECT_NE(m.find("--vary: 100 x 100 x 100 x 100 values make more than 1000000 runs"),
            std::string::npos)
      << m;
  EXPECT_FALSE(fs::exists(options.out_dir));
}

// A run that fails (here: a buffer too small for its reserves) is a row with its error; the
// other runs finish and sweep.csv is written; the command then exits 1.
TEST_F(SweepCommand, AFailedRunIsARowWithItsError) {
  SweepOptions options;
  options.scenario = Write("s.toml", kVictim).string();
  options.vary = {"switch.buffer=12MB,1KB,6MB"};
  options.sets = {"duration=1ms"};
  options.out_dir = (dir_ / "out").string();
  options.jobs = 2;
  options.quiet = true;
  EXPECT_EQ(RunSweepCommand(options), 1);
  const std::string csv = (dir_ / "out/sweep.csv").string();
  const auto error = testing::CsvColumn(csv, "error");
  const auto run_dir = testing::CsvColumn(csv, "dir");
  const auto flows = testing::CsvColumn(csv, "flows_total");
  ASSERT_EQ(error.size(), 3u);
  EXPECT_EQ(error[0], "");
  EXPECT_NE(error[1].find("switch.buffer"), std::string::npos) << error[1];
  EXPECT_EQ(error[2], "");
  EXPECT_EQ(run_dir[1], "");
  EXPECT_EQ(flows[0], "3");
  EXPECT_EQ(flows[2], "3");
  EXPECT_TRUE(fs::exists(dir_ / "out/runs/002/summary.json"));
  EXPECT_FALSE(fs::exists(dir_ / "out/runs/001"));
  // Each run's folder is staged like a `dcqcn run` folder: nothing half-made is left in runs/.
  std::vector<std::string> entries;
  for (const auto& e : fs::directory_iterator(dir_ / "out/runs")) {
    entries.push_back(e.path().filename().string());
  }
  std::sort(entries.begin(), entries.end());
  EXPECT_EQ(entries, (std::vector<std::string>{"000", "002"}));
}

}  // namespace
}  // namespace dcqcn
