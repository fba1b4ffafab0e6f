// Whole-scenario physics of the PFC-only network: conservation, losslessness, PAUSE behaviour,
// buffer counters back at zero, and the same seed giving the same results.
#include <gtest/gtest.h>

#include "net/network.h"
#include "run/run_scenario.h"
#include "test_util.h"

namespace dcqcn {
namespace {

using testing::IncastScenario;
using testing::StarScenario;

TEST(IncastTest, PfcOnlyIncastIsLosslessAndPauses) {
  Scenario s = IncastScenario(16, 1000000);
  nlohmann::json j = RunScenario(s, {});
  EXPECT_EQ(j["flows_finished"], 16);
  EXPECT_EQ(j["drops"], 0);
  EXPECT_GT(j["pfc_pause_frames"].get<int>(), 0);
  EXPECT_GT(j["pfc_resume_frames"].get<int>(), 0);
  EXPECT_EQ(j["bytes_sent"], 16 * 1000000);
  EXPECT_EQ(j["bytes_delivered"], 16 * 1000000);
  EXPECT_TRUE(j["drained"].get<bool>());
  EXPECT_EQ(j["retransmitted_packets"], 0);
  // The receiver's link runs at line rate while the incast lasts.
  EXPECT_GT(j["max_link_utilisation"].get<double>(), 0.9);
}

// A run whose duration is shorter than the retransmission timeout still drains: the finished
// flow's timer fires in the drain, and the end-of-run buffer check runs.
TEST(IncastTest, ARunShorterThanTheRtoDrains) {
  Scenario s = StarScenario(2);
  s.flows.push_back({0, 1, 10000, 0, 3});
  s.explicit_flows = 1;
  s.duration = 100 * kMicrosecond;
  ASSERT_LT(s.duration, s.host.rto);
  nlohmann::json j = RunScenario(s, {});
  EXPECT_EQ(j["flows_finished"], 1);
  EXPECT_TRUE(j["drained"].get<bool>());
}

// A lone flow finds every switch port idle: each packet leaves the moment it arrives (the
// port's fast path past its queue), and the queue statistics still see it for that instant.
TEST(IncastTest, APacketPassingAnIdlePortCountsAsOneFrameQueued) {
  Scenario s = StarScenario(2);
  s.flows.push_back({0, 1, 100000, 0, 3});
  s.explicit_flows = 1;
  nlohmann::json j = RunScenario(s, {});
  EXPECT_EQ(j["flows_finished"], 1);
  EXPECT_EQ(j["max_queue_bytes"], DataFrameBytes(1000));
  EXPECT_EQ(j["bottleneck"]["mean_queue_bytes"], 0.0);  // queued for no time at all
  // Two senders into one port queue behind each other.
  Scenario two = IncastScenario(2, 100000);
  nlohmann::json k = RunScenario(two, {});
  EXPECT_GT(k["max_queue_bytes"].get<int64_t>(), 2 * (DataFrameBytes(1000)));
}

// Conservation and buffer accounting hold after every slice of events, not just at the end:
// PFC alone, DCQCN, ACKs queued in the data class (HPCC's switches) and drops from a headroom
// too small.
TEST(IncastTest, InvariantsHoldThroughoutTheRun) {
  RunOptions check;
  check.check_invariants = true;
  Scenario pfc = IncastScenario(16, 1000000);
  EXPECT_EQ(RunScenario(pfc, check)["drops"], 0);
  Scenario dcqcn = IncastScenario(16, 1000000);
  dcqcn.cc.algorithm = "dcqcn";
  dcqcn.host.ack_in_data_class = true;
  EXPECT_EQ(RunScenario(dcqcn, check)["flows_finished"], 16);
  Scenario lossy = IncastScenario(16, 1000000);
  lossy.sw.pfc.headroom_rule = PfcConfig::HeadroomRule::kFixed;
  lossy.sw.pfc.headroom = 2000;
  EXPECT_GT(RunScenario(lossy, check)["drops"].get<int>(), 0);
}

TEST(IncastTest, QueueStaysWithinThresholdPlusHeadroom) {
  Scenario s = IncastScenario(8, 300000);
  s.sw.pfc.dynamic_threshold = false;
  s.sw.pfc.static_threshold = 20000;
  s.sw.pfc.reserve = 0;
  nlohmann::json j = RunScenario(s, {});
  Network probe(ToNetworkConfig(s));
  Bytes headroom = probe.headroom(0, 1);
  // Each of the 8 ingress queues holds at most threshold + headroom; the egress queue to the
  // receiver is the sum of them.
  EXPECT_LE(j["max_queue_bytes"].get<Bytes>(), 8 * (20000 + headroom));
  EXPECT_GT(j["max_queue_bytes"].get<Bytes>(), 8 * 20000 / 2);
  EXPECT_EQ(j["drops"], 0);
}

TEST(IncastTest, UndersizedHeadroomDropsAndCountsThem) {
  Scenario s = IncastScenario(8, 100000);
  s.sw.pfc.headroom_rule = PfcConfig::HeadroomRule::kFixed;
  s.sw.pfc.headroom = 1100;  // about one frame: far below the in-flight bytes
  s.sw.pfc.dynamic_threshold = false;
  s.sw.pfc.static_threshold = 5000;
  s.duration = 200 * kMillisecond;
  nlohmann::json j = RunScenario(s, {});
  EXPECT_GT(j["drops"].get<int>(), 0);
  // Go-back-N still delivers every byte.
  EXPECT_EQ(j["flows_finished"], 8);
  EXPECT_EQ(j["bytes_delivered"], 8 * 100000);
  EXPECT_GT(j["retransmitted_packets"].get<int>(), 0);
}

TEST(TransportTest, GoBackNRecoversEveryByteWithoutPfc) {
  Scenario s = IncastScenario(6, 500000);
  s.sw.pfc.enabled = false;
  s.sw.buffer = 60000;              // small: the incast overflows it
  s.duration = 200 * kMillisecond;  // go-back-N at line rate without CC wastes a lot
  nlohmann::json j = RunScenario(s, {});
  EXPECT_GT(j["drops"].get<int>(), 0);
  EXPECT_GT(j["nacks"].get<int>(), 0);
  EXPECT_EQ(j["pfc_pause_frames"], 0);
  EXPECT_EQ(j["flows_finished"], 6);
  EXPECT_EQ(j["bytes_delivered"], 6 * 500000);
  // Sent = delivered + what was dropped or discarded out of order (checked exactly inside).
  EXPECT_GT(j["bytes_sent"].get<Bytes>(), 6 * 500000);
  EXPECT_TRUE(j["drained"].get<bool>());
}

TEST(TransportTest, TimeoutRecoversATailDrop) {
  // One flow through a buffer that cannot hold even the tail: the last packets are lost with
  // nothing behind them to reveal the gap, so only the retransmission timer can recover.
  Scenario s = StarScenario(3);
  s.flows = {{1, 0, 40000, 0, 3}, {2, 0, 40000, 0, 3}};
  s.sw.pfc.enabled = false;
  s.sw.pfc.reserve = 0;
  s.sw.buffer = 6000;
  s.host.rto = 100 * kMicrosecond;
  nlohmann::json j = RunScenario(s, {});
  EXPECT_EQ(j["flows_finished"], 2);
  EXPECT_EQ(j["bytes_delivered"], 80000);
  EXPECT_GT(j["drops"].get<int>(), 0);
  EXPECT_GT(j["timeouts"].get<int>(), 0);
}

TEST(PfcTest, PauseRefreshKeepsUpstreamPausedWhileCongested) {
  // A short pause time forces many refreshes; the network must stay lossless.
  Scenario s = IncastScenario(8, 400000);
  s.sw.pfc.pause_quanta = 200;  // 2.56 us at 40G
  s.sw.pfc.dynamic_threshold = false;
  s.sw.pfc.static_threshold = 20000;
  s.output.ts_pfc = true;
  nlohmann::json j = RunScenario(s, {});
  EXPECT_EQ(j["drops"], 0);
  EXPECT_GT(j["pfc_pause_frames"].get<int>(), 4 * j["pfc_resume_frames"].get<int>());
}

TEST(PfcTest, PausedUntilResumeSemanticsIsLossless) {
  Scenario s = IncastScenario(8, 300000);
  s.sw.pfc.pause_until_resume = true;
  s.sw.pfc.dynamic_threshold = false;
  s.sw.pfc.static_threshold = 20000;
  nlohmann::json j = RunScenario(s, {});
  EXPECT_EQ(j["drops"], 0);
  EXPECT_GT(j["pfc_pause_frames"].get<int>(), 0);
  // Edge-triggered: one PAUSE per RESUME (give or take the last).
  EXPECT_LE(j["pfc_pause_frames"].get<int>(), j["pfc_resume_frames"].get<int>() + 8);
  EXPECT_EQ(j["flows_finished"], 8);
}

TEST(IncastTest, FlowsFinishAtTheFairShareRate) {
  // PFC alone with one ingress port per sender: round-robin serves them equally.
  Scenario s = IncastScenario(4, 1000000);
  nlohmann::json j = RunScenario(s, {});
  double min = j["flow_throughput_gbps"]["min"];
  double max = j["flow_throughput_gbps"]["max"];
  EXPECT_GT(min, 0.9 * max);
  // 4 senders share 40G of which payload is 1000/1086 of the wire.
  EXPECT_NEAR(j["aggregate_goodput_gbps"].get<double>(), 40.0 * 1000 / 1086, 1.5);
}

TEST(DeterminismTest, SameSeedSameFlows) {
  Scenario s = IncastScenario(5, 200000);
  s.topology.type = "custom";
  // Two switches with two parallel links so ECMP hashing matters.
  s.topology.hosts = 6;
  s.topology.switches = 2;
  s.topology.links.clear();
  for (int h = 0; h < 3; ++h) s.topology.links.push_back({h, 6, 40 * kGbps, kMicrosecond});
  for (int h = 3; h < 6; ++h) s.topology.links.push_back({h, 7, 40 * kGbps, kMicrosecond});
  s.topology.links.push_back({6, 7, 40 * kGbps, kMicrosecond});
  s.topology.links.push_back({6, 7, 40 * kGbps, kMicrosecond});
  s.flows = {{0, 3, 300000, 0, 3},
             {1, 4, 300000, 0, 3},
             {2, 5, 300000, 0, 3},
             {1, 3, 300000, 5 * kMicrosecond, 3}};
  nlohmann::json a = RunScenario(s, {});
  nlohmann::json b = RunScenario(s, {});
  for (const char* key :
       {"events", "packet_hops", "pfc_pause_frames", "max_queue_bytes", "sim_time_ns"}) {
    EXPECT_EQ(a[key], b[key]) << key;
  }
  EXPECT_EQ(a["flows_finished"], 4);
}

}  // namespace
}  // namespace dcqcn
