// EgressPort's PFC state: PAUSE frames per class, their expiry and RESUME, against the clock.
#include "net/egress_port.h"

#include <gtest/gtest.h>

#include <functional>
#include <utility>

#include "core/simulator.h"
#include "net/headers.h"

namespace dcqcn {
namespace {

// A port whose owner never has a packet: only its pause state is under test.
class IdlePort : public EgressPort {
 public:
  using EgressPort::EgressPort;

 protected:
  Packet* NextPacket(Time, Time*) override { return nullptr; }
  Time NextReadyTime(Time) const override { return kTimeNever; }
};

struct Nowhere : Node {
  void Receive(Packet*, int) override {}
};

// Runs a function at a given time, to act on the port as the network would.
struct At : EventHandler {
  explicit At(std::function<void()> f) : f(std::move(f)) {}
  std::function<void()> f;
  void HandleEvent(uint32_t, uint64_t) override { f(); }
};

TEST(EgressPortTest, PauseFramesPauseTheirClassUntilExpiryOrResume) {
  Simulator sim;
  NetStats stats;
  Nowhere peer;
  IdlePort port(&sim, &stats, 0, 0);
  port.Connect(100 * kGbps, kMicrosecond, &peer, 0, WireFormat{});
  const Time quanta_time = PauseQuantaToTime(100, 100 * kGbps);
  // Nothing is paused before any frame.
  for (int q = 0; q < kNumPriorities; ++q) EXPECT_FALSE(port.paused(q));
  At pause3{[&] { port.OnPauseFrame(3, 100, false); }};
  // A shorter pause of another class, which expires first.
  At short1{[&] { port.OnPauseFrame(1, 10, false); }};
  At check{[&] {
    EXPECT_TRUE(port.paused(3));
    EXPECT_FALSE(port.paused(1));
    EXPECT_FALSE(port.paused(2));  // never paused
    EXPECT_EQ(port.paused_until(3), 10 + quanta_time);
  }};
  At expired{[&] { EXPECT_FALSE(port.paused(3)); }};
  At pause1{[&] { port.OnPauseFrame(1, 100, false); }};
  At resume1{[&] { port.OnPauseFrame(1, 0, false); }};
  At after_resume{[&] {
    EXPECT_FALSE(port.paused(1));  // resumed early, though an expiry later than now was seen
    EXPECT_FALSE(port.paused(3));
  }};
  At until_resume{[&] { port.OnPauseFrame(5, 100, true); }};
  At much_later{[&] { EXPECT_TRUE(port.paused(5)); }};
  sim.Schedule(10, &pause3, 0, 0);
  sim.Schedule(12, &short1, 0, 0);
  sim.Schedule(12 + PauseQuantaToTime(10, 100 * kGbps), &check, 0, 0);
  sim.Schedule(10 + quanta_time, &expired, 0, 0);  // expiry: paused while until > now
  sim.Schedule(20 + quanta_time, &pause1, 0, 0);
  sim.Schedule(30 + quanta_time, &resume1, 0, 0);
  sim.Schedule(31 + quanta_time, &after_resume, 0, 0);
  sim.Schedule(40 + quanta_time, &until_resume, 0, 0);
  sim.Schedule(kSecond, &much_later, 0, 0);
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(sim.events_executed(), 9u);
}

// Paused time adds up each pause from its start to its expiry, its RESUME or now, whichever
// comes first (a RESUME after an expiry ends nothing more); refreshes extend a pause. The port
// keeps the fewest hops of the PAUSE frames it obeyed.
TEST(EgressPortTest, PausedTimeAndSpreadHops) {
  Simulator sim;
  NetStats stats;
  Nowhere peer;
  IdlePort port(&sim, &stats, 0, 0);
  port.Connect(100 * kGbps, kMicrosecond, &peer, 0, WireFormat{});
  const Time q100 = PauseQuantaToTime(100, 100 * kGbps);  // 512 ns
  EXPECT_EQ(port.paused_time(3, 0), 0);
  EXPECT_EQ(port.pause_hops(), 0);
  At pause{[&] { port.OnPauseFrame(3, 100, false, 3); }};    // at 0: until 512 ns
  At refresh{[&] { port.OnPauseFrame(3, 100, false, 2); }};  // at 400 ns: until 912 ns
  At resume{[&] { port.OnPauseFrame(3, 0, false); }};        // at 700 ns: ends it
  At late_resume{[&] { port.OnPauseFrame(3, 0, false); }};   // at 2000 ns: nothing to end
  At again{[&] { port.OnPauseFrame(3, 100, false, 4); }};    // at 3000 ns: expires 3512 ns
  At check{
      [&] { EXPECT_EQ(port.paused_time(3, sim.Now()), 700 * kNanosecond + 100 * kNanosecond); }};
  sim.Schedule(0, &pause, 0, 0);
  sim.Schedule(400 * kNanosecond, &refresh, 0, 0);
  sim.Schedule(700 * kNanosecond, &resume, 0, 0);
  sim.Schedule(2000 * kNanosecond, &late_resume, 0, 0);
  sim.Schedule(3000 * kNanosecond, &again, 0, 0);
  sim.Schedule(3100 * kNanosecond, &check, 0, 0);
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(port.paused_time(3, 10 * kMicrosecond), 700 * kNanosecond + q100);
  EXPECT_EQ(port.paused_time(2, 10 * kMicrosecond), 0);
  EXPECT_EQ(port.pause_hops(), 2);
}

}  // namespace
}  // namespace dcqcn
