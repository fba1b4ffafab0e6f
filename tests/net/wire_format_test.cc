// Frame sizes and transmit times: RoCEv2 by default, HPCC ns-3's format in `dcqcn ns3`, checked
// against the lone-flow FCTs that simulator prints (its MODEL-NOTES, "checked" examples).
#include <gtest/gtest.h>

#include "net/headers.h"
#include "net/network.h"
#include "run/run_scenario.h"
#include "scenario/hpcc_config.h"
#include "test_util.h"

namespace dcqcn {
namespace {

TEST(WireFormat, RoceDefaults) {
  const WireFormat w;
  EXPECT_EQ(w.DataFrame(1000), 1066);
  EXPECT_EQ(w.DataFrame(1), 67);
  EXPECT_EQ(w.Wire(w.DataFrame(1000)), 1086);
  // Rounded up to whole ps: 1086 B at 40 Gb/s = 217.2 ns.
  EXPECT_EQ(w.TxTime(1066, 40 * kGbps), 217200);
  EXPECT_EQ(w.TxTime(1066, 3 * kGbps), 2896000);  // 2896 ns exactly
}

TEST(WireFormat, HpccTruncatesToWholeNanoseconds) {
  const WireFormat w = HpccWireFormat();
  EXPECT_EQ(w.DataFrame(1000), 1048);
  EXPECT_EQ(w.DataFrame(1), 60);                                          // padded up to 60 bytes
  EXPECT_EQ(w.TxTime(w.DataFrame(1000), 100 * kGbps), 83 * kNanosecond);  // not 83.84
  EXPECT_EQ(w.TxTime(w.DataFrame(1000), 400 * kGbps), 20 * kNanosecond);  // 20.96
  EXPECT_EQ(w.TxTime(w.ack_frame, 100 * kGbps), 4 * kNanosecond);         // 4.8
}

// A lone flow over two 100 Gb/s hops with 1 us links, PFC alone, in HPCC's format.
Time LoneFlowFct(Bytes size) {
  Scenario s = testing::StarScenario(2, 100 * kGbps, kMicrosecond);
  s.wire = HpccWireFormat();
  s.flows.push_back({1, 0, size, 0, 3});
  s.explicit_flows = 1;
  Time fct = -1;
  RunOptions options;
  options.after_run = [&](const Network& net) { fct = net.flow_finish(0); };
  RunScenario(s, options);
  return fct;
}

TEST(WireFormat, LoneFlowsTakeWhatThatSimulatorPrints) {
  // 2 x 83 (data) + 2 x 4 (ACK) + 4 x 1000 ns of propagation.
  EXPECT_EQ(LoneFlowFct(1000), 4174 * kNanosecond);
  // 1000 packets of 83 ns back to back, the last one's second hop, the ACK and the delays.
  EXPECT_EQ(LoneFlowFct(1000000), 87091 * kNanosecond);
}

// FCT of a 10 KB flow h0 -> h2 whose ACKs cross s0's congested port towards h0 (two line-rate
// senders h1, h3 -> h0 build its queue).
Time SmallFlowFctBehindAQueue(bool ack_in_data_class) {
  Scenario s = testing::StarScenario(4, 100 * kGbps, kMicrosecond);
  s.host.ack_in_data_class = ack_in_data_class;
  s.flows.push_back({1, 0, 2000000, 0, 3});
  s.flows.push_back({3, 0, 2000000, 0, 3});
  s.flows.push_back({0, 2, 10000, 50 * kMicrosecond, 3});
  s.explicit_flows = 3;
  Time fct = -1;
  RunOptions options;
  options.after_run = [&](const Network& net) {
    fct = net.flow_finish(2) - net.flow_spec(2).start;
    EXPECT_EQ(net.stats().drops, 0u);
  };
  RunScenario(s, options);
  return fct;
}

TEST(AckInDataClass, AcksQueueBehindDataAtSwitches) {
  const Time control = SmallFlowFctBehindAQueue(false);
  const Time data = SmallFlowFctBehindAQueue(true);
  // In the control queue the ACKs pass the queue of the incast; in the data class they wait
  // behind it (tens of KB at 100 Gb/s: microseconds).
  EXPECT_GT(data, control + 2 * kMicrosecond) << control << " vs " << data;
}

}  // namespace
}  // namespace dcqcn
