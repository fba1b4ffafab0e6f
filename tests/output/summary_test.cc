// summary.json over the active interval and per tag, on small whole runs.
#include <gtest/gtest.h>

#include "run/run_scenario.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

// One 2 MB flow at line rate over a star, starting at 2 s as HPCC inputs do.
const char* kLateStart = R"(name = "late"
duration = "3s"
[topology]
type = "star"
hosts = 3
[cc]
algorithm = "none"
[[flow]]
src = 1
dst = 0
size = "2MB"
start = "2s"
[output]
timeseries = ["throughput", "queue"]
interval = "100us"
)";

TEST(Summary, RatesAndUtilisationCountFromTheFirstFlowsStart) {
  const Scenario s = LoadScenarioText(kLateStart, "late.toml");
  const nlohmann::json j = RunScenario(s, {});
  EXPECT_EQ(j["active_start_ns"], 2000000000);
  // One flow alone at line rate: its link is busy nearly all of the active interval (not the
  // 0.02% that dividing by the 2 s before it gives).
  EXPECT_GT(j["max_link_utilisation"].get<double>(), 0.95);
  EXPECT_GT(j["aggregate_goodput_gbps"].get<double>(), 0.9 * 40 * 1000 / 1086);
  EXPECT_EQ(j["bottleneck"]["from_ns"], 2000000000);
  EXPECT_GT(j["bottleneck"]["utilisation"].get<double>(), 0.95);
}

TEST(Summary, TimeSeriesStartAtTheFirstFlowsStart) {
  const Scenario s = LoadScenarioText(kLateStart, "late.toml");
  const std::string dir = ::testing::TempDir() + "dcqcn_summary_late";
  std::filesystem::remove_all(dir);
  RunScenario(s, {.out_dir = dir, .after_run = nullptr});
  // The first rate is over the first interval after the start.
  const auto times = testing::CsvColumn(dir + "/timeseries/throughput.csv", "time_ns");
  ASSERT_FALSE(times.empty());
  EXPECT_EQ(times.front(), "2000100000");
  // 2 MB at 40 Gb/s takes about 0.43 ms: a handful of samples, not 20,000 idle ones.
  EXPECT_LT(times.size(), 20u);
}

TEST(Summary, WarmupCountsFromTheFirstFlowsStart) {
  const Scenario s = LoadScenarioText(kLateStart, "late.toml", {"output.warmup=100us"});
  const nlohmann::json j = RunScenario(s, {});
  EXPECT_EQ(j["bottleneck"]["from_ns"], 2000100000);
}

TEST(Summary, ProgressRunsOverTheActiveInterval) {
  // 2.1 s into a run whose flows start at 2 s and which may last until 4 s: 5% done, not 52%.
  EXPECT_NEAR(ProgressFraction(2 * kSecond, 4 * kSecond, 2100 * kMillisecond), 0.05, 1e-12);
  EXPECT_EQ(ProgressFraction(2 * kSecond, 4 * kSecond, 0), 0);
  EXPECT_EQ(ProgressFraction(2 * kSecond, 4 * kSecond, 5 * kSecond), 1);
  EXPECT_EQ(ProgressFraction(2 * kSecond, 2 * kSecond, 2 * kSecond), 1);
}

const char* kTagged = R"(name = "tagged"
duration = "5ms"
[topology]
type = "star"
hosts = 6
[cc]
algorithm = "none"
[[flow]]
src = 5
dst = 4
size = "1GB"
tag = "victim"
[workload]
type = "incast"
senders = 3
receiver = 0
size = "1GB"
)";

TEST(Summary, MetricsPerTag) {
  const Scenario s = LoadScenarioText(kTagged, "tagged.toml");
  ASSERT_EQ(s.flows.size(), 4u);
  EXPECT_EQ(s.tag(s.flows[0]), "victim");
  for (int i = 1; i < 4; ++i) EXPECT_EQ(s.tag(s.flows[i]), "incast");
  const nlohmann::json j = RunScenario(s, {});
  const nlohmann::json& victim = j["by_tag"]["victim"];
  const nlohmann::json& incast = j["by_tag"]["incast"];
  EXPECT_EQ(victim["flows"], 1);
  EXPECT_EQ(incast["flows"], 3);
  // The victim has its own receiver: line rate. The incast shares one port three ways.
  EXPECT_GT(victim["flow_throughput_gbps"]["mean"].get<double>(), 35);
  EXPECT_NEAR(incast["flow_throughput_gbps"]["mean"].get<double>(), 36.8 / 3, 1.0);
  EXPECT_TRUE(victim["jain_fairness"].is_null());  // one flow
  EXPECT_GT(incast["jain_fairness"].get<double>(), 0.99);
  // Overall: four active flows, none finished, unfair between the tags.
  EXPECT_EQ(j["flows_active"], 4);
  EXPECT_EQ(j["flow_throughput_gbps"]["count"], 4);
  EXPECT_LT(j["jain_fairness"].get<double>(), 0.8);
  EXPECT_TRUE(j["fct_slowdown"]["p50"].is_null());
}

TEST(Summary, JainIsReadAgainstTheMaxMinShares) {
  // The victim's fair share is its whole link, each incast flow's a third of the receiver's:
  // unequal throughputs are what max-min fairness asks for here (issue 28, item 9).
  const Scenario s = LoadScenarioText(kTagged, "tagged.toml");
  const nlohmann::json j = RunScenario(s, {});
  ASSERT_TRUE(j.contains("max_min_jain_fairness") && j.contains("normalised_jain_fairness"));
  EXPECT_LT(j["jain_fairness"].get<double>(), 0.8);
  // Shares 40, 40/3, 40/3, 40/3: (80)^2 / (4 (1600 + 3 1600/9)) = 0.75.
  EXPECT_NEAR(j["max_min_jain_fairness"].get<double>(), 0.75, 1e-9);
  EXPECT_GT(j["normalised_jain_fairness"].get<double>(), 0.99);
  EXPECT_NEAR(j["by_tag"]["incast"]["max_min_jain_fairness"].get<double>(), 1.0, 1e-9);
  EXPECT_TRUE(j["by_tag"]["victim"]["normalised_jain_fairness"].is_null());  // one flow
}

TEST(Summary, NamesTheBusiestPortAndLinksCsvHasEveryPortsUtilisation) {
  // The victim-flow example with PFC alone: the queue builds upstream (s1's uplink, summary's
  // bottleneck), while the port towards the receiver is the busy one (issue 28, item 9).
  const Scenario s = LoadScenarioFile(
      std::string(DCQCN_SOURCE_DIR) + "/examples/paper/victim_flow.toml",
      {"duration=\"2ms\"", "cc.algorithm=\"none\"", "workload.senders=4", "output.timeseries=[]"});
  const std::string dir = ::testing::TempDir() + "dcqcn_summary_busiest";
  std::filesystem::remove_all(dir);
  const nlohmann::json j = RunScenario(s, {.out_dir = dir, .after_run = nullptr});
  ASSERT_TRUE(j.contains("busiest_port") && j.contains("max_min_jain_fairness"));
  const nlohmann::json& busiest = j["busiest_port"];
  EXPECT_EQ(busiest["switch"], "s4");
  EXPECT_EQ(busiest["port"], 0);
  EXPECT_EQ(busiest["peer"], "s0");
  EXPECT_EQ(busiest["utilisation"], j["max_link_utilisation"]);
  // links.csv: the same number on that port's row, and one for every port of every node.
  const auto nodes = testing::CsvColumn(dir + "/links.csv", "node");
  const auto ports = testing::CsvColumn(dir + "/links.csv", "port");
  const auto util = testing::CsvColumn(dir + "/links.csv", "utilisation");
  ASSERT_EQ(util.size(), nodes.size());
  bool found = false;
  for (size_t i = 0; i < nodes.size(); ++i) {
    EXPECT_FALSE(util[i].empty()) << nodes[i] << " port " << ports[i];
    if (nodes[i] == "s4" && ports[i] == "0") {
      found = true;
      EXPECT_DOUBLE_EQ(std::stod(util[i]), busiest["utilisation"].get<double>());
    }
  }
  EXPECT_TRUE(found);
  // Shares: the victim 20 Gb/s (half of s1's uplink), each incast flow 10 (a quarter of R's).
  EXPECT_NEAR(j["max_min_jain_fairness"].get<double>(), 0.9, 1e-9);
}

TEST(Summary, ResolvedTomlKeepsTagsAndTheXonOffsetUsed) {
  const Scenario s = LoadScenarioText(kTagged, "tagged.toml", {"workload.tag=\"burst\""});
  const std::string text = ResolvedToml(s);
  EXPECT_NE(text.find("tag = \"victim\""), std::string::npos);
  EXPECT_NE(text.find("tag = \"burst\""), std::string::npos);
  EXPECT_EQ(text.find("xon_offset = \"0B\""), std::string::npos);
  const Scenario again = LoadScenarioText(text, "resolved.toml");
  EXPECT_EQ(again.sw.pfc.xon_offset, 2 * 1066);
  EXPECT_EQ(again.tag(again.flows[1]), "burst");
  EXPECT_EQ(again.tag(again.flows[0]), "victim");
}

}  // namespace
}  // namespace dcqcn
