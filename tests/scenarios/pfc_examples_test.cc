// The claims of examples/pfc/*.toml (and docs/pfc-pathologies.md), each checked on the example
// with only the keys named here changed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "run/run_scenario.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

nlohmann::json RunExample(const std::string& example, const std::vector<std::string>& sets,
                          const RunOptions& options = {}) {
  const Scenario s =
      LoadScenarioFile(std::string(DCQCN_SOURCE_DIR) + "/examples/pfc/" + example, sets);
  return RunScenario(s, options);
}

const std::vector<std::string> kWatchdog = {"switch.pfc.watchdog.detection=200us",
                                            "switch.pfc.watchdog.restoration=200us"};

// Example (a): under PFC alone the four ring queues wait on each other from 87.9 us on; the
// deadlock is reported 100 us (output.deadlock_time) later with its cycle and its four flows,
// which it leaves unfinished. Nothing is dropped: a deadlocked fabric is lossless and stuck.
TEST(PfcExamples, RingDeadlocksUnderPfcAlone) {
  const nlohmann::json j = RunExample("ring_deadlock.toml", {});
  ASSERT_EQ(j["pfc"]["deadlocks"].size(), 1u);
  const nlohmann::json& d = j["pfc"]["deadlocks"][0];
  EXPECT_EQ(d["since_ns"], 87861);
  EXPECT_EQ(d["at_ns"], 87861 + 100000);
  EXPECT_EQ(d["cycle"], nlohmann::json({"s0:1:3", "s1:2:3", "s2:2:3", "s3:2:3"}));
  EXPECT_EQ(d["flows"], nlohmann::json({0, 1, 2, 3}));
  EXPECT_EQ(d["to_end"], true);
  EXPECT_EQ(j["pfc"]["flows_left_in_deadlock"], 4);
  EXPECT_EQ(j["drops"], 0);
  EXPECT_FALSE(j.contains("drops_by_cause"));  // no watchdog: the summary keeps its keys
  // --stop-on-deadlock ends the run when it qualified.
  RunOptions stop;
  stop.stop_on_deadlock = true;
  const nlohmann::json stopped = RunExample("ring_deadlock.toml", {}, stop);
  EXPECT_EQ(stopped["sim_time_ns"], 187861);
  EXPECT_EQ(stopped["pfc"]["deadlocks"], j["pfc"]["deadlocks"]);
}

// With DCQCN the ring links' queues stay short: PAUSE is rare and no cycle forms.
TEST(PfcExamples, RingDoesNotDeadlockUnderDcqcn) {
  const nlohmann::json j = RunExample("ring_deadlock.toml", {"cc.algorithm=dcqcn"});
  EXPECT_FALSE(j.contains("pfc"));
  EXPECT_GT(j["pfc_pause_frames"], 0);
  EXPECT_EQ(j["drops"], 0);
}

// The watchdog (drop) breaks every deadlock 200 us after its pauses began, dropping what the
// four stormed queues hold and what comes to them until PAUSE has stopped for 200 us; the
// deadlock forms again, and the flows go on, slowly, through go-back-N.
TEST(PfcExamples, RingWatchdogDropBreaksEachDeadlock) {
  const nlohmann::json stuck = RunExample("ring_deadlock.toml", {});
  const nlohmann::json j = RunExample("ring_deadlock.toml", kWatchdog);
  const nlohmann::json& found = j["pfc"]["deadlocks"];
  ASSERT_GT(found.size(), 1u);
  for (const nlohmann::json& d : found) {
    EXPECT_EQ(d["to_end"], false);
    EXPECT_EQ(d["cycle"], stuck["pfc"]["deadlocks"][0]["cycle"]);
  }
  EXPECT_EQ(found[0], [&] {
    nlohmann::json first = stuck["pfc"]["deadlocks"][0];
    first["to_end"] = false;
    return first;
  }());
  const nlohmann::json& wd = j["pfc"]["watchdog"];
  EXPECT_EQ(wd["storms"], 4 * found.size());
  EXPECT_GT(wd["dropped_packets"], 0);
  EXPECT_EQ(j["drops"], wd["dropped_packets"]);
  EXPECT_EQ(j["drops_by_cause"]["watchdog"], j["drops"]);
  EXPECT_EQ(j["drops_by_cause"]["buffer"], 0);
  EXPECT_EQ(j["pfc"]["flows_left_in_deadlock"], 0);
  EXPECT_GT(j["retransmitted_packets"], 0);
  EXPECT_GT(j["bytes_delivered"].get<double>(), 5 * stuck["bytes_delivered"].get<double>());
}

// Action forward: the stormed queues ignore PAUSE from then on (PAUSE keeps coming, so they are
// never restored); the deadlock is broken once and nothing is dropped.
TEST(PfcExamples, RingWatchdogForwardBreaksTheDeadlockWithoutLoss) {
  std::vector<std::string> forward = kWatchdog;
  forward.push_back("switch.pfc.watchdog.action=forward");
  const nlohmann::json j = RunExample("ring_deadlock.toml", forward);
  ASSERT_EQ(j["pfc"]["deadlocks"].size(), 1u);
  EXPECT_EQ(j["pfc"]["deadlocks"][0]["to_end"], false);
  EXPECT_EQ(j["pfc"]["watchdog"]["storms"], 4);
  EXPECT_EQ(j["pfc"]["watchdog"]["restorations"], 0);
  EXPECT_EQ(j["drops"], 0);
}

}  // namespace
}  // namespace dcqcn
