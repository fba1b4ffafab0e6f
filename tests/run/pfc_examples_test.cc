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
  EXPECT_FALSE(j["pfc"].contains("deadlocks"));
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
  // docs/pfc-pathologies.md's numbers.
  EXPECT_EQ(found.size(), 10u);
  EXPECT_EQ(wd["dropped_packets"], 44084);
  EXPECT_EQ(found[1]["since_ns"], 574508);
  EXPECT_GT(wd["dropped_packets"], 0);
  EXPECT_EQ(j["drops"], wd["dropped_packets"]);
  EXPECT_EQ(j["drops_by_cause"]["watchdog"], j["drops"]);
  EXPECT_EQ(j["drops_by_cause"]["buffer"], 0);
  EXPECT_EQ(j["pfc"]["flows_left_in_deadlock"], 0);
  EXPECT_GT(j["retransmitted_packets"], 0);
  EXPECT_GT(j["bytes_delivered"].get<double>(), 5 * stuck["bytes_delivered"].get<double>());
  EXPECT_EQ(stuck["bytes_delivered"], 564000);
  EXPECT_EQ(j["bytes_delivered"], 4604000);  // 1.84 Gb/s per flow
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
  EXPECT_EQ(j["bytes_delivered"], 40608000);  // 16.2 Gb/s per flow
}

double Gbps(const nlohmann::json& j, const std::string& tag) {
  return j["by_tag"][tag]["flow_throughput_gbps"]["mean"].get<double>();
}

// Example (c): h0's NIC storms from 1 ms on. PAUSE spreads from its ToR port through the
// aggregation and core switches to a flow between two other pods; the watchdog on the switches
// stops the spreading and loses only packets bound for h0.
TEST(PfcExamples, PauseStormSpreadsToVictimsAndTheWatchdogStopsIt) {
  const nlohmann::json calm = RunExample("pause_storm.toml", {"event=[]"});
  const nlohmann::json storm = RunExample("pause_storm.toml", {});
  const nlohmann::json wd = RunExample("pause_storm.toml", {"switch.pfc.watchdog.detection=200us"});
  EXPECT_EQ(calm["pfc_pause_frames"], 0);
  EXPECT_GT(storm["pfc_pause_frames"], 0);
  // Lossless without the watchdog; with it, every loss is its own.
  EXPECT_EQ(storm["drops"], 0);
  EXPECT_GT(wd["drops"], 0);
  EXPECT_EQ(wd["drops_by_cause"]["watchdog"], wd["drops"]);
  EXPECT_EQ(wd["pfc"]["watchdog"]["storms"], 1);
  EXPECT_EQ(wd["pfc"]["watchdog"]["restorations"], 0);  // the NIC never recovers
  // The comment's numbers (Gb/s over the storm: the victims start with it).
  EXPECT_NEAR(Gbps(calm, "remote_victim"), 6.2, 0.1);
  EXPECT_NEAR(Gbps(storm, "remote_victim"), 1.1, 0.1);
  EXPECT_NEAR(Gbps(wd, "remote_victim"), 6.2, 0.1);
  EXPECT_NEAR(Gbps(calm, "rack_victim"), 6.3, 0.1);
  EXPECT_NEAR(Gbps(storm, "rack_victim"), 0.7, 0.1);
  EXPECT_NEAR(Gbps(wd, "rack_victim"), 3.0, 0.1);
  // How far PAUSE spread: from h0's ToR port (1) to the aggregation switches (2), the cores (3),
  // the other pods' aggregation (4) and edge switches (5) and their hosts (6); the watchdog
  // keeps it to the first two hops.
  EXPECT_FALSE(calm.contains("pfc"));
  EXPECT_EQ(storm["pfc"]["spread"]["ports_by_hops"],
            nlohmann::json({{"1", 1}, {"2", 2}, {"3", 3}, {"4", 3}, {"5", 3}, {"6", 4}}));
  EXPECT_EQ(storm["pfc"]["spread"]["max_hops"], 6);
  EXPECT_EQ(wd["pfc"]["spread"]["ports_by_hops"], nlohmann::json({{"1", 1}, {"2", 2}}));
  EXPECT_LT(wd["pfc"]["spread"]["paused_port_ns"].get<double>(),
            storm["pfc"]["spread"]["paused_port_ns"].get<double>() / 100);
  // A flow whose path the PAUSE never reaches keeps its rate.
  EXPECT_NEAR(Gbps(storm, "victim_9_13"), Gbps(calm, "victim_9_13"), 0.1);
}

// The storming NIC holds what reaches it and receives it when it recovers (at 2 ms): nothing is
// lost, and the flows to it finish.
TEST(PfcExamples, AStormThatEndsLosesNothing) {
  const nlohmann::json j =
      RunExample("pause_storm.toml", {"event.0.until=2ms", "flow.0.size=2MB", "flow.1.size=2MB"});
  EXPECT_EQ(j["drops"], 0);
  EXPECT_EQ(j["by_tag"]["to_storm"]["finished"], 2);
  EXPECT_GT(j["pfc_resume_frames"], 0);
}

// Whether a run's summary reports a deadlock (a run that sent no PAUSE has no "pfc" at all).
bool Deadlocked(const nlohmann::json& j) {
  return j.contains("pfc") && j["pfc"].contains("deadlocks");
}

// Example (b): the two failures leave traffic between s0's and s3's hosts an up-down-up path
// each way once the switches reconverge (1.5 ms); with the traffic between s1's and s2's hosts
// the bounces wait on each other in a cycle, from 1.7 ms on. What the failures lose is the
// links' (sent into them before the reconvergence), none the buffers'.
TEST(PfcExamples, LinkFailuresAndUpDownUpPathsDeadlock) {
  const nlohmann::json j = RunExample("link_failure_deadlock.toml", {});
  ASSERT_EQ(j["pfc"]["deadlocks"].size(), 1u);
  const nlohmann::json& d = j["pfc"]["deadlocks"][0];
  EXPECT_EQ(d["since_ns"], 1699976);
  EXPECT_EQ(d["at_ns"], 1699976 + 1000000);
  // s1 up to s5, down to s2, up to s4, down to s1.
  EXPECT_EQ(d["cycle"], nlohmann::json({"s1:3:3", "s5:2:3", "s2:2:3", "s4:1:3"}));
  EXPECT_EQ(d["flows"], nlohmann::json({0, 2, 3, 5, 6, 7}));
  EXPECT_EQ(d["to_end"], true);
  EXPECT_EQ(j["pfc"]["flows_left_in_deadlock"], 6);
  const nlohmann::json& r = j["routing"]["reconvergences"];
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["at_ns"], 1500000);
  EXPECT_EQ(r[0]["flows_rerouted"], 4);
  EXPECT_EQ(r[0]["flows_cut_off"], 0);
  EXPECT_EQ(j["drops_by_cause"],
            nlohmann::json({{"buffer", 0}, {"link", 6993}, {"ttl", 0}, {"watchdog", 0}}));
  EXPECT_EQ(j["drops"], 6993);
  // Without the failures, or with DCQCN, no deadlock.
  const nlohmann::json healthy = RunExample("link_failure_deadlock.toml", {"event=[]"});
  EXPECT_FALSE(Deadlocked(healthy));
  EXPECT_EQ(healthy["drops"], 0);
  EXPECT_GT(healthy["bytes_delivered"], 2 * j["bytes_delivered"].get<int64_t>());
  const nlohmann::json dcqcn = RunExample("link_failure_deadlock.toml", {"cc.algorithm=dcqcn"});
  EXPECT_FALSE(Deadlocked(dcqcn));
  EXPECT_EQ(dcqcn["drops_by_cause"]["buffer"], 0);
  // A watchdog breaks it before it qualifies as a deadlock, dropping what the cycle holds.
  const nlohmann::json wd = RunExample("link_failure_deadlock.toml", kWatchdog);
  EXPECT_FALSE(Deadlocked(wd));
  EXPECT_GT(wd["pfc"]["watchdog"]["dropped_packets"], 0);
  EXPECT_EQ(wd["drops_by_cause"]["buffer"], 0);
}

double P99(const nlohmann::json& j) { return j["fct_slowdown"]["p99"].get<double>(); }

// Example (d): the link fails at 5 ms and is back at 15 ms; the switches follow 5 ms after each.
// Every flow finishes, the fabric loses nothing in its buffers, and what the link lost costs
// the tail: a flow that lost its last packets waits for its retransmission timeout.
TEST(PfcExamples, SpineLinkFailureCostsTheTailAndLeavesNothingUnfinished) {
  const nlohmann::json calm = RunExample("spine_link_failure.toml", {"event=[]"});
  const nlohmann::json j = RunExample("spine_link_failure.toml", {});
  const nlohmann::json fast =
      RunExample("spine_link_failure.toml", {"topology.reconvergence=100us"});
  for (const nlohmann::json* run : {&calm, &j, &fast}) {
    EXPECT_EQ((*run)["flows_finished"], 270);
    EXPECT_EQ((*run)["bytes_delivered"], calm["bytes_delivered"]);
    const int64_t link =
        run->contains("drops_by_cause") ? (*run)["drops_by_cause"]["link"].get<int64_t>() : 0;
    EXPECT_EQ((*run)["drops"], link);
  }
  EXPECT_EQ(calm["drops"], 0);
  const nlohmann::json& r = j["routing"]["reconvergences"];
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0]["at_ns"], 10000000);
  EXPECT_EQ(r[1]["at_ns"], 20000000);
  EXPECT_EQ(r[0]["flows_cut_off"], 0);
  // docs/pfc-pathologies.md's numbers: 8 of the 21 flows in flight at 10 ms take another path,
  // 3 of the 29 at 20 ms.
  EXPECT_EQ(r[0]["flows_rerouted"], 8);
  EXPECT_EQ(r[1]["flows_rerouted"], 3);
  EXPECT_EQ(j["drops"], 16680);
  EXPECT_EQ(j["timeouts"], 8);
  EXPECT_NEAR(P99(calm), 8.37, 0.01);
  EXPECT_NEAR(P99(j), 65.89, 0.01);
  EXPECT_NEAR(P99(fast), 8.44, 0.01);
  // Routing around it at once costs next to nothing: it loses only a few ACKs.
  EXPECT_EQ(fast["bytes_dropped"], 0);
  EXPECT_LT(P99(fast), 1.1 * P99(calm));
}

}  // namespace
}  // namespace dcqcn
