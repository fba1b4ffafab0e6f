// Flows retire when they are done with (their state freed, their slots reused): a run gives the
// same results as one in which no flow ever retires, for every algorithm, with CNPs delayed by
// the NIC's generator, with drops and timeouts, and with windows.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/one_thread_engine.h"
#include "net/network.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

struct RunResult {
  std::vector<Time> finish;
  std::vector<Bytes> delivered;
  NetStats stats;
  CcCounters cc;
  size_t peak_in_flight = 0;
  bool all_done = false;
};

RunResult Simulate(const Scenario& s, bool retire) {
  Network net(ToNetworkConfig(s));
  OneThreadEngine engine(net);
  if (!retire) net.HoldFinishedFlows(kTimeNever);
  engine.RunUntil(s.duration);
  RunResult r;
  for (uint32_t id = 0; id < net.num_flows(); ++id) {
    r.finish.push_back(net.flow_finish(id));
    r.delivered.push_back(net.flow_delivered(id));
  }
  r.stats = net.stats();
  r.cc = net.cc_counters();
  r.peak_in_flight = net.flows_in_flight().peak();
  r.all_done = engine.all_done();
  net.CheckInvariants(/*drained=*/true);
  return r;
}

// Returns the run without retirement.
RunResult ExpectRetiringChangesNothing(const std::vector<std::string>& sets) {
  const Scenario s = LoadScenarioText(testing::kBusyFabric, "busy.toml", sets);
  const RunResult held = Simulate(s, false);
  const RunResult retiring = Simulate(s, true);
  EXPECT_TRUE(held.all_done);
  EXPECT_TRUE(retiring.all_done);
  EXPECT_EQ(held.peak_in_flight, s.flows.size());  // nothing retired
  // Most flows retired before the last ones started.
  EXPECT_LT(retiring.peak_in_flight, s.flows.size() / 2);
  EXPECT_EQ(retiring.finish, held.finish);
  EXPECT_EQ(retiring.delivered, held.delivered);
  const NetStats& a = retiring.stats;
  const NetStats& b = held.stats;
  EXPECT_EQ(a.packet_hops, b.packet_hops);
  EXPECT_EQ(a.data_packets_sent, b.data_packets_sent);
  EXPECT_EQ(a.retransmitted_packets, b.retransmitted_packets);
  EXPECT_EQ(a.drops, b.drops);
  EXPECT_EQ(a.timeouts, b.timeouts);
  EXPECT_EQ(a.nacks, b.nacks);
  EXPECT_EQ(a.cnps_sent, b.cnps_sent);
  EXPECT_EQ(a.cnps_received, b.cnps_received);
  EXPECT_EQ(a.pfc_pause_frames, b.pfc_pause_frames);
  // Released state's counts are kept.
  EXPECT_EQ(retiring.cc.size(), held.cc.size());
  for (size_t i = 0; i < std::min(retiring.cc.size(), held.cc.size()); ++i) {
    EXPECT_EQ(retiring.cc[i], held.cc[i]) << held.cc.specs()[i].name;
  }
  return held;
}

TEST(FlowRetirement, DcqcnGivesTheSameRun) {
  const RunResult held = ExpectRetiringChangesNothing({});
  EXPECT_GT(held.stats.cnps_sent, 0u);
}

TEST(FlowRetirement, DcqcnWithASlowCnpGeneratorGivesTheSameRun) {
  const RunResult held = ExpectRetiringChangesNothing({"cc.cnp_service_time=4us"});
  EXPECT_GT(held.cc.at("cnps_delayed"), 0);
}

TEST(FlowRetirement, LossyWithTimeoutsGivesTheSameRun) {
  // Drops, go-back-N and timeouts: duplicates and late ACKs of finished flows are in flight.
  const RunResult held =
      ExpectRetiringChangesNothing({"switch.pfc.enabled=false", "switch.buffer=300KB"});
  EXPECT_GT(held.stats.drops, 0u);
  EXPECT_GT(held.stats.timeouts, 0u);
}

TEST(FlowRetirement, AckDrivenAlgorithmsGiveTheSameRun) {
  for (const char* algorithm : {"dctcp", "timely", "hpcc"}) {
    SCOPED_TRACE(algorithm);
    ExpectRetiringChangesNothing({std::string("cc.algorithm=") + algorithm});
  }
  ExpectRetiringChangesNothing({"cc.algorithm=hpcc", "host.window=true", "host.base_rtt=pair"});
}

}  // namespace
}  // namespace dcqcn
