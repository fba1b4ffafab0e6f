// Link: serialization, propagation and in-order delivery, with one pending arrival event per link
// whatever the number of packets in flight (each packet knows the one sent after it).
#include "net/link.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "core/simulator.h"
#include "net/packet.h"

namespace dcqcn {
namespace {

// Records what arrives, and when.
struct Receiver : Node {
  explicit Receiver(Simulator* sim) : sim(sim) {}
  void Receive(Packet* p, int port) override {
    arrivals.push_back({p->psn, sim->Now()});
    EXPECT_EQ(port, 3);
  }
  Simulator* sim;
  std::vector<std::pair<uint32_t, Time>> arrivals;  // (psn, time)
};

// 100 Gb/s with a 20-byte gap: a 1,230-byte frame takes (1,230 + 20) x 80 ps = 100 ns.
constexpr Rate kRate = 100 * kGbps;
constexpr Time kDelay = 1 * kMicrosecond;
constexpr Time kTx = 100 * kNanosecond;

// Sends packet `psn` at the time its event is scheduled for, as a sender port would.
struct LinkTest : ::testing::Test, EventHandler {
  Simulator sim;
  NetStats stats;
  Receiver peer{&sim};
  Link link{&sim, &stats, kRate, kDelay, &peer, 3, WireFormat{.gap = 20}};
  PacketPool pool;
  std::vector<size_t> in_flight_after_send;
  void SendAt(Time t, uint32_t psn) { sim.Schedule(t, this, 0, psn); }
  void HandleEvent(uint32_t, uint64_t psn) override {
    Packet* p = pool.Allocate();
    p->psn = static_cast<uint32_t>(psn);
    p->size = 1230;
    EXPECT_EQ(link.Transmit(p, sim.Now()), kTx);
    in_flight_after_send.push_back(link.in_flight());
  }
  std::pair<uint32_t, Time> Arrival(uint32_t psn, Time t) { return {psn, t}; }
};

TEST_F(LinkTest, BackToBackPacketsArriveInOrderOneTransmissionApart) {
  // Each sent as the previous one's transmission ends: five in flight at once.
  for (uint32_t psn = 0; psn < 5; ++psn) SendAt(psn * kTx, psn);
  sim.RunUntil(4 * kTx);
  EXPECT_EQ(in_flight_after_send, (std::vector<size_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(sim.pending(), 1u);  // five packets in flight, one pending event
  sim.RunUntil(kTimeNever);
  ASSERT_EQ(peer.arrivals.size(), 5u);
  for (uint32_t psn = 0; psn < 5; ++psn) {
    EXPECT_EQ(peer.arrivals[psn], Arrival(psn, psn * kTx + kTx + kDelay));
  }
  EXPECT_EQ(link.in_flight(), 0u);
  EXPECT_EQ(stats.packet_hops, 5u);
  EXPECT_EQ(link.busy_bytes(), 5 * 1250);
}

TEST_F(LinkTest, APacketSentAfterTheLastArrivedStartsAfresh) {
  SendAt(0, 0);
  // Later, two back to back, and a third while the second is the only one in flight.
  const Time later = 5 * kMicrosecond;
  SendAt(later, 1);
  SendAt(later + kTx, 2);
  SendAt(later + kTx + kDelay + kTx / 2, 3);  // the second arrives at later + 2 kTx + kDelay
  sim.RunUntil(later + kTx + kDelay);
  EXPECT_EQ(peer.arrivals.size(), 2u);
  EXPECT_EQ(link.in_flight(), 1u);
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(in_flight_after_send, (std::vector<size_t>{1, 1, 2, 2}));
  ASSERT_EQ(peer.arrivals.size(), 4u);
  EXPECT_EQ(peer.arrivals[0], Arrival(0, kTx + kDelay));
  EXPECT_EQ(peer.arrivals[1], Arrival(1, later + kTx + kDelay));
  EXPECT_EQ(peer.arrivals[2], Arrival(2, later + 2 * kTx + kDelay));
  const Time third_sent = later + kTx + kDelay + kTx / 2;
  EXPECT_EQ(peer.arrivals[3], Arrival(3, third_sent + kTx + kDelay));
  EXPECT_EQ(link.in_flight(), 0u);
}

TEST_F(LinkTest, ALinkIntoAnotherThreadHoldsItsPacketsInTheOutboxUntilTakenIn) {
  // The receiving half, as a split run builds it in the peer's thread.
  Link receiving{&sim, &stats, kRate, kDelay, &peer, 3, WireFormat{.gap = 20}};
  Simulator::TakePlaceOf(receiving, link);
  std::vector<Crossing> outbox;
  const CrossingRoute route{&outbox, &receiving};
  link.SetCrossing(&route);
  for (uint32_t psn = 0; psn < 3; ++psn) SendAt(psn * kTx, psn);
  sim.RunUntil(2 * kTx);
  // Nothing in flight on the receiving half yet, nothing scheduled: three in the outbox.
  EXPECT_EQ(in_flight_after_send, (std::vector<size_t>{0, 0, 0}));
  EXPECT_EQ(sim.pending(), 0u);
  ASSERT_EQ(outbox.size(), 3u);
  EXPECT_EQ(outbox[0].link, &receiving);
  // The receiving side takes them in (between windows) and they arrive as on a plain link.
  for (const Crossing& c : outbox) c.link->Enqueue(c.arrival, c.packet);
  EXPECT_EQ(link.in_flight(), 3u);
  EXPECT_EQ(sim.pending(), 1u);
  sim.RunUntil(kTimeNever);
  ASSERT_EQ(peer.arrivals.size(), 3u);
  for (uint32_t psn = 0; psn < 3; ++psn) {
    EXPECT_EQ(peer.arrivals[psn], Arrival(psn, psn * kTx + kTx + kDelay));
  }
  EXPECT_EQ(link.in_flight(), 0u);
  EXPECT_EQ(link.busy_bytes(), 3 * 1250);  // the sending half counts what it sent
}

TEST_F(LinkTest, AFailedLinkLosesWhatWasOnItWhileItWasDown) {
  // psn 0 is on the wire when the link fails at 0.5 us; psn 1 is sent into it while down; psn 2
  // starts 50 ns before it is back at 2.05 us; psn 3 and a PFC frame (psn 9) are sent
  // after. What was on the wire at any moment the link was down is lost when it would have
  // arrived: three packets of flow 7, counted as the link's loss. A PFC frame sent while down
  // is freed uncounted (nobody's packet).
  struct Sender : EventHandler {
    LinkTest* t;
    void HandleEvent(uint32_t kind, uint64_t psn) override {
      Packet* p = t->pool.Allocate();
      p->psn = static_cast<uint32_t>(psn);
      p->flow = 7;
      p->size = 1230;
      p->payload = 1000;
      if (kind == 1) p->type = PacketType::kPause;
      t->link.Transmit(p, t->sim.Now());
    }
  } sender;
  sender.t = this;
  auto send = [&](Time at, uint32_t psn, uint32_t kind = 0) {
    sim.Schedule(at, &sender, kind, psn);
  };
  send(0, 0);
  send(1 * kMicrosecond, 1);
  send(1500 * kNanosecond, 9, 1);
  send(1950 * kNanosecond, 2);
  send(3 * kMicrosecond, 3);
  send(4 * kMicrosecond, 4, 1);
  EXPECT_FALSE(link.down());
  sim.RunUntil(500 * kNanosecond);
  sim.AdvanceTo(500 * kNanosecond);
  link.SetDown(true, &pool);
  EXPECT_TRUE(link.down());
  sim.RunUntil(2050 * kNanosecond);
  sim.AdvanceTo(2050 * kNanosecond);
  link.SetDown(false, &pool);
  EXPECT_FALSE(link.down());
  sim.RunUntil(kTimeNever);
  // psn 3 arrives as on a link that never failed; so does the PFC frame sent after.
  EXPECT_EQ(peer.arrivals,
            (std::vector<std::pair<uint32_t, Time>>{Arrival(3, 3 * kMicrosecond + kTx + kDelay),
                                                    Arrival(4, 4 * kMicrosecond + kTx + kDelay)}));
  EXPECT_EQ(stats.drops, 3u);
  EXPECT_EQ(stats.link_drops, 3u);
  EXPECT_EQ(stats.payload_dropped, 3000);
  EXPECT_EQ(stats.dropped_by_flow[7], 3u);
  EXPECT_EQ(pool.live(), 2);  // the two that arrived; the peer keeps them
  EXPECT_EQ(link.in_flight(), 0u);
  // Every packet crossed the link: the hops count arrivals, lost or not.
  EXPECT_EQ(stats.packet_hops, 6u);
}

}  // namespace
}  // namespace dcqcn
