// SwitchNode against a real simulator stepped by hand: a three-port switch cabled to hosts that
// record what arrives, fed packets as if its links delivered them. ECN marking at dequeue, PFC
// PAUSE, refresh and RESUME from the MMU's decisions, round robin and the control queue.
#include "net/switch_node.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <utility>
#include <vector>

#include "core/simulator.h"
#include "net/flow_table.h"
#include "net/headers.h"
#include "net/routing.h"
#include "test_actions.h"

namespace dcqcn {
namespace {

using testing::Actions;

constexpr Time kDelay = 1 * kMicrosecond;
constexpr Time kNs = kNanosecond;
// A 1,066-byte frame (1,000 bytes of payload) is 1,086 bytes on the wire: 868.8 ns at 10 Gb/s,
// 86.88 ns at 100 Gb/s. A byte takes 800 ps at 10 Gb/s, 80 ps at 100 Gb/s.
constexpr Bytes kFrame = 1066;
constexpr Time kT10 = 868'800;
constexpr Time kT100 = 86'880;
constexpr Time kPs10 = 800;
constexpr Time kPs100 = 80;
// Runs stop here (all is long drained by then): a broken XON would otherwise refresh forever.
constexpr Time kEnd = 1 * kMillisecond;

// A packet as a host received it.
struct Got {
  Time at;
  PacketType type;
  uint32_t flow;
  uint32_t psn;
  uint8_t priority;
  bool ce = false;
  uint16_t quanta = 0;  // PAUSE: its class is `priority`
  bool operator==(const Got&) const = default;
};
void PrintTo(const Got& g, std::ostream* os) {
  static const char* const kTypes[] = {"data", "ack", "nack", "cnp", "pause"};
  *os << "{" << g.at << " ps, " << kTypes[static_cast<int>(g.type)] << ", flow " << g.flow
      << ", psn " << g.psn << ", prio " << int{g.priority} << ", ce " << g.ce << ", quanta "
      << g.quanta << "}";
}

struct Host : Node {
  Host(Simulator* sim, PacketPool* pool) : sim(sim), pool(pool) {}
  void Receive(Packet* p, int port) override {
    EXPECT_EQ(port, 0);
    const bool pause = p->type == PacketType::kPause;
    got.push_back({sim->Now(), p->type, p->flow, p->psn, pause ? p->pause_class : p->priority,
                   p->ce, p->pause_quanta});
    pool->Free(p);
  }
  std::vector<Got> got;
  Simulator* sim;
  PacketPool* pool;
};

// Switch s0 (node 3) with port i cabled to host i (1 us each); port rates per test.
struct SwitchBench {
  Simulator sim;
  NetStats stats;
  PacketPool pool;
  FlowTable flows{8};
  SwitchConfig config;
  std::vector<Host> hosts{Host(&sim, &pool), Host(&sim, &pool), Host(&sim, &pool)};
  Actions act{&sim};
  std::unique_ptr<RouteTable> routes;
  std::unique_ptr<SwitchNode> sw;

  SwitchBench() {
    config.buffer = 1000000;
    config.pfc.reserve = 0;  // every byte in the shared pool, as MmuTest's counts
    config.ecn.enabled = false;
  }
  void Build(Rate r0, Rate r1, Rate r2) {
    sw = std::make_unique<SwitchNode>(&sim, &stats, &pool, &flows, config, 3, 3, 1);
    const Rate rates[] = {r0, r1, r2};
    for (int i = 0; i < 3; ++i) sw->AddPort().Connect(rates[i], kDelay, &hosts[i], 0, WireFormat{});
    routes = std::make_unique<RouteTable>(
        3, std::vector<std::vector<std::pair<int, int>>>{
               {{3, 0}}, {{3, 1}}, {{3, 2}}, {{0, 0}, {1, 0}, {2, 0}}});
    sw->SetRoutes(routes.get(), 0);
    sw->InitMmu(2, kFrame, {20000, 20000, 20000}, {3, 5});
  }
  // Data packet `psn` of flow `flow` (host `src` to host `dst`, class `prio`) arriving whole on
  // port `src` at `t`.
  void DataAt(Time t, uint32_t flow, int src, int dst, uint8_t prio, uint32_t psn,
              bool ce = false) {
    act.At(t, [=, this] {
      Packet* p = pool.Allocate();
      p->type = PacketType::kData;
      p->flow = flow;
      p->psn = psn;
      p->payload = 1000;
      p->size = static_cast<uint32_t>(kFrame);
      p->src = src;
      p->dst = dst;
      p->priority = prio;
      p->ce = ce;
      sw->Receive(p, src);
    });
  }
  // An ACK or CNP from host `src` to host `dst` in the control queue.
  void ControlAt(Time t, PacketType type, uint32_t flow, int src, int dst) {
    act.At(t, [=, this] {
      Packet* p = pool.Allocate();
      p->type = type;
      p->flow = flow;
      p->size = static_cast<uint32_t>(type == PacketType::kCnp ? kCnpFrameBytes : kAckFrameBytes);
      p->src = src;
      p->dst = dst;
      p->priority = kControlQueue;
      sw->Receive(p, src);
    });
  }
  // A PFC frame from host `from` to the switch.
  void PauseAt(Time t, int from, int prio, int quanta) {
    act.At(t, [=, this] {
      Packet* p = pool.Allocate();
      p->type = PacketType::kPause;
      p->size = kPauseFrameBytes;
      p->priority = kControlQueue;
      p->pause_class = static_cast<uint8_t>(prio);
      p->pause_quanta = static_cast<uint16_t>(quanta);
      sw->Receive(p, from);
    });
  }
};

struct SwitchNodeTest : ::testing::Test, SwitchBench {};

Got Data(Time left, Time tx, uint32_t flow, uint32_t psn, uint8_t prio = 3, bool ce = false) {
  // Received one serialization and the delay after it left the switch.
  return {left + tx + kDelay, PacketType::kData, flow, psn, prio, ce};
}

TEST_F(SwitchNodeTest, EcnMarksOnTheQueueLeftBehindAtDeparture) {
  // Kmin = Kmax = 2,000 bytes, so RED marks exactly the packets that leave more than 2,000
  // bytes behind them in their queue. Five packets arrive together at a 10 Gb/s port: the
  // first leaves at once, the others one frame time apart, leaving 3, 2, 1 and 0 frames behind.
  // Packets 1 and 2 are marked though their queue was short when they came; packet 4, which
  // came to the longest queue, is not. Marks already set stay and are not counted again.
  config.ecn.enabled = true;
  config.ecn.kmin = config.ecn.kmax = 2000;
  config.ecn.pmax = 1;
  Build(100 * kGbps, 100 * kGbps, 10 * kGbps);
  DataAt(0, 0, 0, 2, 3, 0);
  DataAt(1, 0, 0, 2, 3, 1);
  DataAt(2, 0, 0, 2, 3, 2, /*ce=*/true);
  DataAt(3, 0, 0, 2, 3, 3);
  DataAt(4, 0, 0, 2, 3, 4, /*ce=*/true);
  sim.RunUntil(kEnd);
  EXPECT_EQ(
      hosts[2].got,
      (std::vector<Got>{Data(0, kT10, 0, 0, 3, false), Data(kT10, kT10, 0, 1, 3, true),
                        Data(2 * kT10, kT10, 0, 2, 3, true), Data(3 * kT10, kT10, 0, 3, 3, false),
                        Data(4 * kT10, kT10, 0, 4, 3, true)}));
  EXPECT_EQ(stats.ecn_marked_packets, 1u);  // packet 1: packet 2 came marked
  EXPECT_EQ(sw->port_ecn(2).kmax, 2000);
}

TEST_F(SwitchNodeTest, EcnReadsTheLeavingPacketsOwnClassQueue) {
  // Three class-5 frames wait at the port; a class-3 packet leaving with its own queue empty is
  // not marked, the class-5 packet after it (two class-5 frames behind it) is.
  config.ecn.enabled = true;
  config.ecn.kmin = config.ecn.kmax = 2000;
  config.ecn.pmax = 1;
  Build(100 * kGbps, 100 * kGbps, 10 * kGbps);
  for (uint32_t psn = 0; psn < 4; ++psn) DataAt(psn, 1, 0, 2, 5, psn);
  DataAt(4, 0, 0, 2, 3, 0);
  sim.RunUntil(kEnd);
  // Class 5's first leaves at once; round robin then serves class 3 before class 5 again.
  EXPECT_EQ(
      hosts[2].got,
      (std::vector<Got>{Data(0, kT10, 1, 0, 5, false), Data(kT10, kT10, 0, 0, 3, false),
                        Data(2 * kT10, kT10, 1, 1, 5, true), Data(3 * kT10, kT10, 1, 2, 5, false),
                        Data(4 * kT10, kT10, 1, 3, 5, false)}));
}

// Flow 0 sends five frames from host 0 (100 Gb/s) one frame time apart into a 10 Gb/s port:
// XOFF at 3 frames of shared bytes on ingress (port 0, class 3), XON 1 frame below it.
//  - frame 0 leaves at once (the MMU holds only queued frames);
//  - frame 3 (at 3 T100) brings the shared bytes to 3,198: PAUSE out of port 0;
//  - frame 4 lands in headroom;
//  - the departure of frame 1 (T10) empties the headroom, frame 2's (2 T10) brings the shared
//    bytes to 2,132 + 1,066 <= 3,198: RESUME.
// Returns the PFC frames host 0 received.
std::vector<Got> RunXoffXon(bool pause_until_resume, NetStats* stats_out) {
  SwitchBench b;
  b.config.pfc.dynamic_threshold = false;
  b.config.pfc.static_threshold = 3 * kFrame;
  b.config.pfc.xon_offset = kFrame;
  b.config.pfc.pause_quanta = 100;  // 512 ns at 100 Gb/s
  b.config.pfc.pause_until_resume = pause_until_resume;
  b.Build(100 * kGbps, 100 * kGbps, 10 * kGbps);
  for (uint32_t psn = 0; psn < 5; ++psn) b.DataAt(psn * kT100, 0, 0, 2, 3, psn);
  b.act.At(3 * kT100 + 1, [&] {
    EXPECT_TRUE(b.sw->mmu().paused(0, 3));
    EXPECT_EQ(b.sw->mmu().shared_used(0, 3), 3 * kFrame);
  });
  b.act.At(4 * kT100 + 1, [&] { EXPECT_EQ(b.sw->mmu().headroom_used(0, 3), kFrame); });
  b.sim.RunUntil(kEnd);
  // Lossless: all five delivered, in order, one 10 Gb/s frame time apart; buffers empty.
  std::vector<Got> data;
  for (uint32_t psn = 0; psn < 5; ++psn) data.push_back(Data(psn * kT10, kT10, 0, psn));
  EXPECT_EQ(b.hosts[2].got, data);
  EXPECT_TRUE(b.hosts[1].got.empty());
  EXPECT_TRUE(b.sw->mmu().Empty());
  EXPECT_FALSE(b.sw->mmu().paused(0, 3));
  EXPECT_EQ(b.stats.drops, 0u);
  EXPECT_EQ(b.sim.pending(), 0u);  // no refresh timer outlived the RESUME
  *stats_out = b.stats;
  return b.hosts[0].got;
}

// A PFC frame as host 0 receives it: 64 bytes (84 on the wire, 6.72 ns) after the delay.
Got Pfc(Time sent, uint16_t quanta) {
  return {
      sent + (kPauseFrameBytes + 20) * kPs100 + kDelay, PacketType::kPause, 0, 0, 3, false, quanta};
}

TEST(SwitchNodePfcTest, PauseOnXoffRefreshedAtHalfItsTimeThenResumeOnXon) {
  // PAUSE at 3 T100; while the queue stays paused the switch sends it again every half pause
  // time (256 ns), up to the RESUME at 2 T10 (which cancels the refresh due at 1,796.64 ns).
  NetStats stats;
  const std::vector<Got> pfc = RunXoffXon(false, &stats);
  const Time half = PauseQuantaToTime(100, 100 * kGbps) / 2;
  EXPECT_EQ(half, 256 * kNs);
  std::vector<Got> expected;
  for (int k = 0; k < 6; ++k) expected.push_back(Pfc(3 * kT100 + k * half, 100));
  expected.push_back(Pfc(2 * kT10, 0));
  EXPECT_EQ(pfc, expected);
  EXPECT_EQ(stats.pfc_pause_frames, 6u);
  EXPECT_EQ(stats.pfc_resume_frames, 1u);
}

TEST(SwitchNodePfcTest, PauseUntilResumeIsSentOnceWithoutRefresh) {
  NetStats stats;
  const std::vector<Got> pfc = RunXoffXon(true, &stats);
  EXPECT_EQ(pfc, (std::vector<Got>{Pfc(3 * kT100, 100), Pfc(2 * kT10, 0)}));
  EXPECT_EQ(stats.pfc_pause_frames, 1u);
  EXPECT_EQ(stats.pfc_resume_frames, 1u);
}

TEST_F(SwitchNodeTest, DataClassesTakeTurns) {
  // Three class-3 frames, then three class-5 frames, arrive together at a 10 Gb/s port: they
  // leave alternating by class, not in arrival order.
  Build(100 * kGbps, 100 * kGbps, 10 * kGbps);
  for (uint32_t psn = 0; psn < 3; ++psn) DataAt(psn, 0, 0, 2, 3, psn);
  for (uint32_t psn = 0; psn < 3; ++psn) DataAt(3 + psn, 1, 1, 2, 5, psn);
  sim.RunUntil(kEnd);
  EXPECT_EQ(hosts[2].got,
            (std::vector<Got>{Data(0, kT10, 0, 0, 3), Data(kT10, kT10, 1, 0, 5),
                              Data(2 * kT10, kT10, 0, 1, 3), Data(3 * kT10, kT10, 1, 1, 5),
                              Data(4 * kT10, kT10, 0, 2, 3), Data(5 * kT10, kT10, 1, 2, 5)}));
}

TEST_F(SwitchNodeTest, APausedClassIsSkippedUntilItsPauseExpires) {
  // Host 2 pauses class 5 at 1 ns for 30 quanta (1,536 ns at 10 Gb/s): class 3 takes the first
  // turn of class 5; class 5 has its turn again once the pause has expired (at 2 T10).
  Build(100 * kGbps, 100 * kGbps, 10 * kGbps);
  for (uint32_t psn = 0; psn < 4; ++psn) DataAt(psn, 0, 0, 2, 3, psn);
  for (uint32_t psn = 0; psn < 4; ++psn) DataAt(4 + psn, 1, 1, 2, 5, psn);
  PauseAt(1 * kNs, 2, 5, 30);
  sim.RunUntil(kEnd);
  EXPECT_EQ(PauseQuantaToTime(30, 10 * kGbps), 1536 * kNs);
  EXPECT_EQ(hosts[2].got,
            (std::vector<Got>{Data(0, kT10, 0, 0, 3), Data(kT10, kT10, 0, 1, 3),
                              Data(2 * kT10, kT10, 1, 0, 5), Data(3 * kT10, kT10, 0, 2, 3),
                              Data(4 * kT10, kT10, 1, 1, 5), Data(5 * kT10, kT10, 0, 3, 3),
                              Data(6 * kT10, kT10, 1, 2, 5), Data(7 * kT10, kT10, 1, 3, 5)}));
}

TEST_F(SwitchNodeTest, ControlFramesLeaveBeforeQueuedDataAndSkipTheBuffer) {
  // Port 2 (10 Gb/s) sends flow 0's four frames to host 2. While the first is on the wire, an
  // ACK and a CNP for host 2 come in from host 1, and flow 1 from host 2 crosses XOFF (4 frames)
  // on port 2's ingress, so a PAUSE is queued on port 2 too. All three leave, in that order,
  // when the frame on the wire ends, before flow 0's second frame.
  config.pfc.dynamic_threshold = false;
  config.pfc.static_threshold = 4 * kFrame;
  Build(10 * kGbps, 100 * kGbps, 10 * kGbps);
  for (uint32_t psn = 0; psn < 4; ++psn) DataAt(psn, 0, 0, 2, 3, psn);
  ControlAt(100 * kNs, PacketType::kAck, 2, 1, 2);
  ControlAt(100 * kNs + 1, PacketType::kCnp, 2, 1, 2);
  for (uint32_t psn = 0; psn < 6; ++psn) DataAt(200 * kNs + psn, 1, 2, 0, 3, psn);
  act.At(300 * kNs, [&] {
    // The control frames wait in the control queue and in no buffer count.
    const SwitchPort& port = sw->port(2);
    EXPECT_EQ(port.queued_bytes(kControlQueue), kAckFrameBytes + kCnpFrameBytes + kPauseFrameBytes);
    EXPECT_EQ(port.queued_bytes(), 3 * kFrame);  // data only
    EXPECT_EQ(sw->mmu().ingress_bytes(1, 3), 0);
    EXPECT_EQ(sw->mmu().shared_used(), (3 + 4) * kFrame);
  });
  sim.RunUntil(kEnd);
  const Time ack = kT10;
  const Time cnp = ack + (kAckFrameBytes + 20) * kPs10;
  const Time pause = cnp + (kCnpFrameBytes + 20) * kPs10;
  const Time data1 = pause + (kPauseFrameBytes + 20) * kPs10;
  ASSERT_GE(hosts[2].got.size(), 5u);
  const std::vector<Got> first(hosts[2].got.begin(), hosts[2].got.begin() + 5);
  EXPECT_EQ(first, (std::vector<Got>{
                       Data(0, kT10, 0, 0),
                       {ack + (kAckFrameBytes + 20) * kPs10 + kDelay, PacketType::kAck, 2, 0, 0},
                       {cnp + (kCnpFrameBytes + 20) * kPs10 + kDelay, PacketType::kCnp, 2, 0, 0},
                       {data1 + kDelay, PacketType::kPause, 0, 0, 3, false, 65535},
                       Data(data1, kT10, 0, 1),
                   }));
}

// A switch drops what it cannot route: a packet to a host a failed link cut off (its table has
// no port for it), counted as the link's loss, and one that has passed 64 switches already (a
// routing loop: its TTL has run out), counted as TTL's. Neither touches the buffer.
TEST_F(SwitchNodeTest, APacketWithNoRouteOrNoTtlLeftIsDroppedByCause) {
  Build(10 * kGbps, 10 * kGbps, 10 * kGbps);
  // h2's cable is down: the routes, recomputed, reach it no more.
  routes = std::make_unique<RouteTable>(
      3, std::vector<std::vector<std::pair<int, int>>>{
             {{3, 0}}, {{3, 1}}, {{-1, 2}}, {{0, 0}, {1, 0}, {-1, 0}}});
  sw->SetRoutes(routes.get(), 0);
  auto arrive = [&](Time t, uint32_t psn, int dst, uint8_t hops) {
    act.At(t, [=, this] {
      Packet* p = pool.Allocate();
      p->flow = 1;
      p->psn = psn;
      p->payload = 1000;
      p->size = static_cast<uint32_t>(kFrame);
      p->src = 0;
      p->dst = dst;
      p->priority = 3;
      p->switch_hops = hops;
      sw->Receive(p, 0);
    });
  };
  arrive(0, 0, 2, 0);                               // cut off
  arrive(1 * kNs, 1, 1, SwitchNode::kTtlHops - 1);  // its 64th switch: passes
  arrive(2 * kNs, 2, 1, SwitchNode::kTtlHops);      // its 65th: dropped
  sim.RunUntil(kEnd);
  EXPECT_EQ(hosts[1].got, (std::vector<Got>{Data(1 * kNs, kT10, 1, 1)}));
  EXPECT_TRUE(hosts[2].got.empty());
  EXPECT_EQ(stats.drops, 2u);
  EXPECT_EQ(stats.link_drops, 1u);
  EXPECT_EQ(stats.ttl_drops, 1u);
  EXPECT_EQ(stats.payload_dropped, 2000);
  EXPECT_EQ(stats.dropped_by_flow[1], 2u);
  EXPECT_EQ(sw->mmu().shared_used(), 0);
}

// The PFC watchdog (pfc_watchdog.h): host 2 pauses class 3 at 1 ns for the longest PAUSE
// (3.36 ms at 10 Gb/s) while flow 0 sends it four frames; the first is already on the wire.
struct PfcWatchdogTest : SwitchNodeTest {
  void Build(PfcWatchdogConfig::Action action) {
    config.pfc.watchdog = {true, 10 * kMicrosecond, 20 * kMicrosecond, action};
    SwitchNodeTest::Build(100 * kGbps, 100 * kGbps, 10 * kGbps);
  }
};

TEST_F(PfcWatchdogTest, DropDiscardsTheStormedQueueAndWhatComesToItUntilPauseStops) {
  Build(PfcWatchdogConfig::Action::kDrop);
  for (uint32_t psn = 0; psn < 4; ++psn) DataAt(psn, 0, 0, 2, 3, psn);
  PauseAt(1 * kNs, 2, 3, 65535);
  // Paused without a break for 10 us with three frames waiting: stormed, and they are dropped
  // (their buffer freed), as is a frame that arrives at 15 us.
  act.At(10 * kMicrosecond + 2 * kNs, [&] {
    EXPECT_EQ(stats.pfc_watchdog_storms, 1u);
    EXPECT_EQ(stats.pfc_watchdog_drops, 3u);
    EXPECT_EQ(sw->port(2).queued_bytes(), 0);
    EXPECT_EQ(sw->mmu().shared_used(), 0);
  });
  DataAt(15 * kMicrosecond, 0, 0, 2, 3, 4);
  // A refresh at 20 us is ignored, and delays the restoration to 40 us.
  PauseAt(20 * kMicrosecond, 2, 3, 65535);
  DataAt(39 * kMicrosecond, 0, 0, 2, 3, 5);
  act.At(40 * kMicrosecond - 1, [&] { EXPECT_EQ(stats.pfc_watchdog_restorations, 0u); });
  act.At(40 * kMicrosecond + 1, [&] { EXPECT_EQ(stats.pfc_watchdog_restorations, 1u); });
  // Restored: the port obeys PAUSE again, and it has had none in force since the storm.
  DataAt(50 * kMicrosecond, 0, 0, 2, 3, 6);
  sim.RunUntil(kEnd);
  EXPECT_EQ(stats.pfc_watchdog_storms, 1u);
  EXPECT_EQ(stats.pfc_watchdog_drops, 5u);
  EXPECT_EQ(stats.drops, 5u);
  EXPECT_EQ(stats.dropped_by_flow[0], 5u);
  EXPECT_EQ(hosts[2].got,
            (std::vector<Got>{Data(0, kT10, 0, 0), Data(50 * kMicrosecond, kT10, 0, 6)}));
}

TEST_F(PfcWatchdogTest, ForwardSendsTheStormedQueueOnAndDropsNothing) {
  Build(PfcWatchdogConfig::Action::kForward);
  for (uint32_t psn = 0; psn < 4; ++psn) DataAt(psn, 0, 0, 2, 3, psn);
  PauseAt(1 * kNs, 2, 3, 65535);
  PauseAt(12 * kMicrosecond, 2, 3, 65535);  // ignored: the queue is stormed
  DataAt(15 * kMicrosecond, 0, 0, 2, 3, 4);
  // Restored at 32 us (no PAUSE since 12 us); a PAUSE at 40 us is obeyed again, holds the frame
  // that arrives at 41 us, and is declared a storm 10 us later: the frame leaves then.
  PauseAt(40 * kMicrosecond, 2, 3, 65535);
  DataAt(41 * kMicrosecond, 0, 0, 2, 3, 5);
  act.At(50 * kMicrosecond - 1, [&] {
    EXPECT_EQ(stats.pfc_watchdog_restorations, 1u);
    EXPECT_EQ(stats.pfc_watchdog_storms, 1u);
  });
  sim.RunUntil(kEnd);
  const Time storm = 10 * kMicrosecond + 1 * kNs;
  const Time again = 50 * kMicrosecond;
  EXPECT_EQ(hosts[2].got,
            (std::vector<Got>{Data(0, kT10, 0, 0), Data(storm, kT10, 0, 1),
                              Data(storm + kT10, kT10, 0, 2), Data(storm + 2 * kT10, kT10, 0, 3),
                              Data(15 * kMicrosecond, kT10, 0, 4), Data(again, kT10, 0, 5)}));
  EXPECT_EQ(stats.pfc_watchdog_storms, 2u);
  EXPECT_EQ(stats.drops, 0u);
}

TEST_F(PfcWatchdogTest, APausedEmptyQueueIsNoStormUntilPacketsWaitAPeriodLater) {
  // Paused from 1 ns with nothing queued: the check at 10 us finds no storm and looks again at
  // 20 us, when the frame that arrived at 15 us is waiting.
  Build(PfcWatchdogConfig::Action::kDrop);
  PauseAt(1 * kNs, 2, 3, 65535);
  DataAt(15 * kMicrosecond, 0, 0, 2, 3, 0);
  act.At(20 * kMicrosecond, [&] { EXPECT_EQ(stats.pfc_watchdog_storms, 0u); });
  act.At(20 * kMicrosecond + 2 * kNs, [&] { EXPECT_EQ(stats.pfc_watchdog_storms, 1u); });
  sim.RunUntil(kEnd);
  EXPECT_EQ(stats.pfc_watchdog_drops, 1u);
  EXPECT_EQ(hosts[2].got, std::vector<Got>{});
}

}  // namespace
}  // namespace dcqcn
