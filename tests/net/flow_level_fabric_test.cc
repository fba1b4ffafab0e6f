// FlowLevelFabric against a real simulator: a flow streams at its max-min share of the ports it
// crosses (with its frames' and ACKs' weights), its times follow to the picosecond, the shares
// change when a flow starts or ends, and flows that start or end at one instant are shared once.
#include "net/flow_level_fabric.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "core/simulator.h"
#include "test_actions.h"

namespace dcqcn {
namespace {

constexpr double kRate = 100e9;  // bits per second, every port

// Picoseconds to stream `bits` at `rate`, rounded up as the fabric rounds its events.
Time StreamTime(double bits, double rate) {
  return static_cast<Time>(std::ceil(bits / rate * 1e12));
}

struct Fixture {
  Simulator sim;
  std::map<uint32_t, Time> sent, delivered, acked;
  FlowLevelFabric fabric{
      &sim, std::vector<double>(4, kRate),
      FlowLevelFabric::Callbacks{[this](uint32_t id) { sent[id] = sim.Now(); },
                                 [this](uint32_t id) { delivered[id] = sim.Now(); },
                                 [this](uint32_t id) { acked[id] = sim.Now(); }}};
  // A flow over ports `data` (weight w) with ACKs back over `acks` (weight a).
  static FlowLevelFabric::Path Path(std::vector<uint32_t> data, std::vector<uint32_t> acks,
                                    double bits, double w = 1, double a = 0) {
    FlowLevelFabric::Path p;
    for (uint32_t port : data) p.uses.push_back({port, w});
    for (uint32_t port : acks) p.uses.push_back({port, a});
    p.latency = 3 * kMicrosecond;
    p.first_frame = 80 * kNanosecond;
    p.ack_flight = 2 * kMicrosecond;
    p.stream_bits = bits;
    return p;
  }
};

TEST(FlowLevelFabricTest, AFlowAloneStreamsAtItsBottleneckThenItsLastFrameAndAckFollow) {
  Fixture f;
  // Frames of 1.1 wire bits per payload bit: 1e6 bits take 1.1e6 bits of the port's time.
  f.fabric.Start(5, Fixture::Path({0, 1}, {}, 1e6, 1.1));
  EXPECT_EQ(f.fabric.active(), 1);
  f.sim.RunUntil(kTimeNever);
  const Time streamed = StreamTime(1e6, kRate / 1.1);
  EXPECT_NEAR(static_cast<double>(f.sent.at(5)), streamed + 80 * kNanosecond, 1);
  EXPECT_NEAR(static_cast<double>(f.delivered.at(5)), streamed + 3 * kMicrosecond, 1);
  EXPECT_NEAR(static_cast<double>(f.acked.at(5)), streamed + 5 * kMicrosecond, 1);
  EXPECT_EQ(f.fabric.active(), 0);
}

TEST(FlowLevelFabricTest, AOneFrameFlowTakesNoShare) {
  Fixture f;
  f.fabric.Start(1, Fixture::Path({0}, {}, 0));
  f.sim.RunUntil(kTimeNever);
  EXPECT_EQ(f.delivered.at(1), 3 * kMicrosecond);
  EXPECT_EQ(f.fabric.reshares(), 0u);
}

TEST(FlowLevelFabricTest, AcksTakeTheirShareOfThePortsBack) {
  Fixture f;
  // Flow 0 sends on port 0, flow 1 on port 1 with its ACKs back on port 0 at weight 0.25:
  // port 0 fills at x + 0.25 x = rate, so both run at 0.8 of it.
  f.fabric.Start(0, Fixture::Path({0}, {}, 8e5));
  f.fabric.Start(1, Fixture::Path({1}, {0}, 8e5, 1, 0.25));
  f.sim.RunUntil(kTimeNever);
  EXPECT_NEAR(static_cast<double>(f.delivered.at(0)),
              static_cast<double>(StreamTime(8e5, 0.8 * kRate) + 3 * kMicrosecond), 2);
  EXPECT_EQ(f.delivered.at(0), f.delivered.at(1));
  // Both flows started at one instant: their shares were computed once, then once more when
  // they ended (nothing left to share).
  EXPECT_EQ(f.fabric.reshares(), 1u);
}

TEST(FlowLevelFabricTest, SharesChangeWhenAFlowStartsOrEnds) {
  Fixture f;
  const Time t = StreamTime(1e6, kRate);  // 1e6 bits alone
  f.fabric.Start(0, Fixture::Path({0, 2}, {}, 1e6));
  testing::Actions later(&f.sim);
  later.At(t / 2, [&] { f.fabric.Start(1, Fixture::Path({2, 3}, {}, 1e6)); });
  f.sim.RunUntil(kTimeNever);
  // Flow 0 streams half alone, the other half at half the rate (t); flow 1 then has half left,
  // which it streams alone in t / 2.
  EXPECT_NEAR(static_cast<double>(f.delivered.at(0)), 1.5 * t + 3 * kMicrosecond, 2);
  EXPECT_NEAR(static_cast<double>(f.delivered.at(1)), 2.0 * t + 3 * kMicrosecond, 2);
}

}  // namespace
}  // namespace dcqcn
