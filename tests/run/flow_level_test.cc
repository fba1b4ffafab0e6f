// model = "flow" on whole scenarios: on an idle non-blocking fabric a ring AllReduce takes the
// packet model's time within 1%, its links as busy; with ECMP collisions it takes PFC alone's
// within 1% and never more than DCQCN's (an ideal congestion control's shares); jobs run;
// summary.json says what it leaves out and its counters of queues stay 0; resolved.toml runs it
// again; what needs packets is refused naming the key.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_util.h"
#include "run/run_scenario.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

Scenario Load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return LoadScenarioText(text, "flow.toml", overrides);
}

// A ring AllReduce of 16 MB over 8 hosts at 100 Gb/s, every hop from one leaf to the other
// (`leaves` 2, 4 spines: ECMP collides some of them) or within one leaf (`leaves` 1).
std::string Ring(int leaves) {
  return fmt::format(
      "duration = \"1s\"\n[topology]\ntype = \"leaf_spine\"\nleaves = {}\nspines = {}\n"
      "hosts_per_leaf = {}\nlink_rate = \"100Gbps\"\nlink_delay = \"1us\"\n"
      "[[collective]]\nop = \"allreduce\"\nalgorithm = \"ring\"\nsize = \"16MB\"\n"
      "ranks = [0, 4, 1, 5, 2, 6, 3, 7]\n",
      leaves, leaves == 1 ? 1 : 4, 8 / leaves);
}

double CollectiveTime(const nlohmann::json& summary) {
  return summary["collectives"][0]["iterations"][0]["time_ns"].get<double>();
}

nlohmann::json RunIt(const Scenario& s, const std::string& out = "", int threads = 1) {
  RunOptions options;
  options.out_dir = out;
  options.threads = threads;
  return RunScenario(s, options);
}

TEST(FlowLevel, OnAnIdleFabricARingTakesThePacketModelsTimeWithinOnePercent) {
  const nlohmann::json packet = RunIt(Load(Ring(1)));
  const nlohmann::json flow = RunIt(Load(Ring(1), {"model=flow"}));
  EXPECT_NEAR(CollectiveTime(flow) / CollectiveTime(packet), 1.0, 0.01);
  EXPECT_EQ(flow["flows_finished"], flow["flows_total"]);
  EXPECT_FALSE(packet.contains("model"));
  EXPECT_EQ(flow["model"]["name"], "flow");
  EXPECT_NE(flow["model"]["leaves_out"].get<std::string>().find("PFC pauses"), std::string::npos);
  EXPECT_GT(flow["model"]["reshares"].get<int>(), 0);
  EXPECT_EQ(flow["bytes_delivered"], packet["bytes_delivered"]);
  EXPECT_EQ(flow["ecn_marked_packets"], 0);
  EXPECT_EQ(flow["packet_hops"], 0);
  // Its links count the wire bytes of its streams and their ACKs as a packet run's count theirs.
  EXPECT_NEAR(flow["max_link_utilisation"].get<double>(),
              packet["max_link_utilisation"].get<double>(), 0.01);
}

TEST(FlowLevel, WithEcmpCollisionsItGivesPfcAlonesTimeAndAtMostDcqcns) {
  const nlohmann::json flow = RunIt(Load(Ring(2), {"model=flow"}));
  const nlohmann::json pfc_alone = RunIt(Load(Ring(2), {"cc.algorithm=none"}));
  const nlohmann::json dcqcn = RunIt(Load(Ring(2)));
  // Collisions slow the ring in all three (its ideal counts each flow alone on its links).
  const double ideal = flow["collectives"][0]["iterations"][0]["ideal_time_ns"].get<double>();
  EXPECT_GT(CollectiveTime(flow), 1.5 * ideal);
  EXPECT_NEAR(CollectiveTime(flow) / CollectiveTime(pfc_alone), 1.0, 0.01);
  // DCQCN's cuts and slow recovery leave the collided links partly idle: docs/flow-level.md.
  EXPECT_LT(CollectiveTime(flow), CollectiveTime(dcqcn));
}

using FlowLevelRun = testing::TempDirTest;

TEST_F(FlowLevelRun, ItsResolvedTomlRunsItAgainAndAJobRuns) {
  const std::string job =
      "duration = \"1s\"\nmodel = \"flow\"\n[topology]\ntype = \"rail\"\nservers = 2\n"
      "gpus_per_server = 4\nservers_per_leaf = 2\nspines = 1\nlink_rate = \"400Gbps\"\n"
      "[[job]]\ntp = 4\nmicro_batches = 2\niterations = 2\n[[job.layer]]\nrepeat = 2\n"
      "forward_compute = \"50us\"\nforward_comm = \"allreduce\"\nforward_size = \"4MB\"\n"
      "input_grad_compute = \"100us\"\nweight_grad_comm = \"allreduce\"\n"
      "weight_grad_size = \"16MB\"\n";
  const Scenario s = Load(job);
  EXPECT_TRUE(s.flow_level);
  const nlohmann::json first = RunIt(s, (dir_ / "first").string(), 2);
  ASSERT_EQ(first["jobs"][0]["iterations"].size(), 2u);
  EXPECT_EQ(first["flows_finished"], first["flows_total"]);
  // Two threads asked, one ran, and the summary says why.
  EXPECT_EQ(first["threads"]["ran"], 1);
  EXPECT_NE(first["threads"]["why"].get<std::string>().find("model = \"flow\""), std::string::npos);
  const std::string resolved = testing::ReadFile(dir_ / "first" / "resolved.toml");
  EXPECT_NE(resolved.find("model = \"flow\""), std::string::npos);
  const nlohmann::json again = RunIt(Load(resolved));
  EXPECT_EQ(again["jobs"], first["jobs"]);
}

TEST(FlowLevel, WhatNeedsPacketsIsRefusedNamingTheKey) {
  testing::ExpectLoadError("model = \"fluid\"\n" + Ring(1), "flow.toml",
                           {"flow.toml", "model", "expected one of \"packet\" | \"flow\""});
  testing::ExpectLoadError(
      Ring(1) + "\n[[event]]\nkind = \"pause_storm\"\nhost = 0\nat = \"1us\"\nuntil = \"2us\"\n",
      "flow.toml", {"model", "[[event]]"}, {"model=flow"});
  testing::ExpectLoadError(Ring(2), "flow.toml", {"model", "switch.load_balancing"},
                           {"model=flow", "switch.load_balancing=spray"});
}

}  // namespace
}  // namespace dcqcn
