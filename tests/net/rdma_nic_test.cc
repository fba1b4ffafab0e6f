// RdmaNic against a real simulator stepped by hand: its port cabled to a peer that records what
// arrives and sends back what each test scripts (ACK, NACK, CNP, PAUSE, data), with a fake
// congestion control that records every hook and sets rates through CcHost.
#include "net/rdma_nic.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <utility>
#include <vector>

#include "cc/congestion_control.h"
#include "core/simulator.h"
#include "net/flow_table.h"
#include "net/headers.h"
#include "net/packet_tap.h"
#include "test_actions.h"

namespace dcqcn {
namespace {

using testing::Actions;

constexpr Rate kLine = 100 * kGbps;
constexpr Time kDelay = 1 * kMicrosecond;
constexpr Time kUs = kMicrosecond;
// A 1,000-byte payload is a 1,066-byte frame (66 bytes of RoCEv2 headers), 1,086 bytes on the
// wire with preamble and gap: 86.88 ns at 100 Gb/s, 868.8 ns at 10 Gb/s.
constexpr Time kLineTx = 86'880;
constexpr Time kTx10G = 868'800;
// Runs end here when a flow is left unacknowledged: before its first timeout (4 ms).
constexpr Time kBeforeRto = 1 * kMillisecond;

// Every hook call the NIC makes into congestion control.
enum class Hook { kStart, kSent, kCnp, kAck, kDone, kData, kContinue };
struct Call {
  Time at;
  Hook hook;
  uint32_t flow;
  int64_t value = 0;  // kSent: frame bytes; kData: the CE mark
  bool operator==(const Call&) const = default;
};
void PrintTo(const Call& c, std::ostream* os) {
  static const char* const kNames[] = {"start", "sent", "cnp", "ack", "done", "data", "continue"};
  *os << "{" << c.at << " ps, " << kNames[static_cast<int>(c.hook)] << ", flow " << c.flow << ", "
      << c.value << "}";
}

// What OnAck saw, with the time it saw it.
struct Ack {
  Time at;
  uint32_t flow;
  Bytes acked;
  Bytes sent;
  bool echo;
  bool nack;
  Time rtt;
  bool operator==(const Ack&) const = default;
};
void PrintTo(const Ack& a, std::ostream* os) {
  *os << "{" << a.at << " ps, flow " << a.flow << ", acked " << a.acked << ", sent " << a.sent
      << ", echo " << a.echo << ", nack " << a.nack << ", rtt " << a.rtt << "}";
}

// A congestion control that records each hook; it sets `start_rate` (0: the line rate) when a
// flow starts, and a test may act on a CNP or a marked arrival through its host.
class FakeCc : public CongestionControl {
 public:
  FakeCc(const Simulator* sim, CcHost* host, Rate start_rate)
      : sim_(sim), host_(host), start_rate_(start_rate) {}
  void OnFlowStart(CcFlow& f) override {
    Record(Hook::kStart, f);
    host_->SetRate(f, start_rate_ != 0 ? start_rate_ : f.line_rate);
  }
  void OnFlowContinue(CcFlow& from, CcFlow& to) override {
    Record(Hook::kContinue, to, from.id);
    host_->SetRate(to, from.rate);
  }
  void OnPacketSent(CcFlow& f, Bytes bytes) override { Record(Hook::kSent, f, bytes); }
  void OnCnp(CcFlow& f) override {
    Record(Hook::kCnp, f);
    if (on_cnp) on_cnp(f);
  }
  void OnFlowDone(CcFlow& f) override { Record(Hook::kDone, f); }
  void OnAck(CcFlow& f, const AckEvent& a) override {
    Record(Hook::kAck, f);
    acks.push_back({sim_->Now(), f.id, a.acked, a.sent, a.echo, a.nack, a.rtt});
    EXPECT_EQ(a.telemetry, nullptr);  // nothing asked for it
  }
  void OnDataArrival(CcFlow& f, bool ce) override {
    Record(Hook::kData, f, ce);
    if (ce && cnp_on_mark) host_->SendCnp(f);
  }
  // The calls of one hook, in order.
  std::vector<Call> Of(Hook hook) const {
    std::vector<Call> of;
    for (const Call& c : calls) {
      if (c.hook == hook) of.push_back(c);
    }
    return of;
  }
  // The calls other than OnPacketSent, in order.
  std::vector<Call> Events() const {
    std::vector<Call> events;
    for (const Call& c : calls) {
      if (c.hook != Hook::kSent) events.push_back(c);
    }
    return events;
  }
  CcHost* host() const { return host_; }

  std::vector<Call> calls;
  std::vector<Ack> acks;
  std::function<void(CcFlow&)> on_cnp;
  bool cnp_on_mark = false;  // the receiver answers each marked data packet with a CNP

 private:
  void Record(Hook hook, const CcFlow& f, int64_t value = 0) {
    calls.push_back({sim_->Now(), hook, f.id, value});
  }
  const Simulator* sim_;
  CcHost* host_;
  Rate start_rate_;
};

// A frame as the NIC started sending it.
struct Sent {
  Time at;
  PacketType type;
  uint32_t flow;
  uint32_t psn;
  uint32_t size;
  uint8_t priority;
  bool cnp_flag = false;
  bool operator==(const Sent&) const = default;
};
void PrintTo(const Sent& s, std::ostream* os) {
  static const char* const kTypes[] = {"data", "ack", "nack", "cnp", "pause"};
  *os << "{" << s.at << " ps, " << kTypes[static_cast<int>(s.type)] << ", flow " << s.flow
      << ", psn " << s.psn << ", " << s.size << " B, prio " << int{s.priority} << ", cnp_flag "
      << s.cnp_flag << "}";
}

// Sees what the NIC sends, as it starts sending it.
struct SendLog : PacketTap {
  void OnPacket(const Packet& p, Time now) override {
    sent.push_back({now, p.type, p.flow, p.psn, p.size, p.priority, p.cnp_flag});
  }
  std::vector<Sent> sent;
};

// The far end of the NIC's cable: records what arrives and keeps each data packet's
// congestion-control header (its send time stamp) for the ACK a test sends back.
class Peer : public Node {
 public:
  Peer(Simulator* sim, PacketPool* pool, FlowTable* flows)
      : sim_(sim), pool_(pool), flows_(flows) {}
  void Receive(Packet* p, int port) override {
    EXPECT_EQ(port, 0);
    arrivals.push_back({sim_->Now(), p->type, p->flow, p->psn, p->size, p->priority, p->cnp_flag});
    if (p->cc_header != 0) {
      stamps[p->psn] = pool_->cc_header(p->cc_header).sent_at;
      headers[p->psn] = p->cc_header;
      p->cc_header = 0;  // kept for the ACK
    }
    --(*flows_)[p->flow].receiver_packets;  // it reached its receiver
    pool_->Free(p);
  }
  std::vector<Sent> arrivals;
  std::map<uint32_t, Time> stamps;       // psn -> send time stamped on it
  std::map<uint32_t, uint32_t> headers;  // psn -> its header, for an ACK to echo

 private:
  Simulator* sim_;
  PacketPool* pool_;
  FlowTable* flows_;
};

// A NIC, its peer and the clock; a test sets the config, needs and wire format, then Build()s.
struct NicBench {
  Simulator sim;
  NetStats stats;
  PacketPool pool;
  FlowTable flows{8};
  HostConfig config;
  WireFormat wire;
  CcNeeds needs;
  bool pause_until_resume = false;
  Peer peer{&sim, &pool, &flows};
  SendLog log;
  Actions act{&sim};
  std::unique_ptr<RdmaNic> nic;
  FakeCc* cc = nullptr;

  // Host 0's NIC with a 100 Gb/s, 1 us cable to the peer; `start_rate` 0 = line rate.
  void Build(Rate start_rate = 0) {
    nic =
        std::make_unique<RdmaNic>(&sim, &stats, &pool, config, 0, &flows, pause_until_resume, wire);
    nic->port().Connect(kLine, kDelay, &peer, 0, wire);
    auto fake = std::make_unique<FakeCc>(&sim, nic.get(), start_rate);
    cc = fake.get();
    nic->SetCongestionControl(std::move(fake), needs);
    nic->port().link().SetSendTap(&log);
  }
  // Flow `id` of `size` bytes in class `priority`, from host `src` (0: this NIC sends it).
  Flow& AddFlow(uint32_t id, Bytes size, uint8_t priority = 3, int src = 0) {
    Flow& f = flows.Create(id);
    f.src = src;
    f.dst = 1 - src;
    f.size = size;
    f.priority = priority;
    f.total_packets = static_cast<uint32_t>((size + config.mtu - 1) / config.mtu);
    return f;
  }
  void StartAt(Time t, Flow& f) {
    act.At(t, [this, &f] { nic->StartFlow(f); });
  }
  // A packet of flow `flow` from the peer, arriving whole at the NIC at `t`.
  void ArriveAt(Time t, PacketType type, uint32_t flow, uint32_t psn,
                const std::function<void(Packet&)>& fill = {}) {
    act.At(t, [=, this] {
      Packet* p = pool.Allocate();
      p->type = type;
      p->flow = flow;
      p->psn = psn;
      p->size = static_cast<uint32_t>(type == PacketType::kCnp ? kCnpFrameBytes : kAckFrameBytes);
      if (fill) fill(*p);
      ++flows[flow].receiver_packets;  // as the NIC at the other end counts it
      nic->Receive(p, 0);
    });
  }
  void AckAt(Time t, uint32_t flow, uint32_t psn) { ArriveAt(t, PacketType::kAck, flow, psn); }
  void NackAt(Time t, uint32_t flow, uint32_t psn) { ArriveAt(t, PacketType::kNack, flow, psn); }
  // An ACK or NACK that echoes data packet `echo_psn`'s time stamp, and perhaps a mark.
  void AckEchoAt(Time t, PacketType type, uint32_t flow, uint32_t psn, uint32_t echo_psn,
                 bool cnp_flag = false) {
    ArriveAt(t, type, flow, psn, [this, echo_psn, cnp_flag](Packet& p) {
      p.cnp_flag = cnp_flag;
      auto h = peer.headers.find(echo_psn);
      if (h == peer.headers.end()) return;
      p.cc_header = h->second;
      peer.headers.erase(h);
    });
  }
  void DataAt(Time t, uint32_t flow, uint32_t psn, bool ce = false) {
    ArriveAt(t, PacketType::kData, flow, psn, [this, ce, psn](Packet& p) {
      const Flow& f = flows[p.flow];
      p.payload = static_cast<uint32_t>(f.PayloadOf(psn, config.mtu));
      p.size = static_cast<uint32_t>(wire.DataFrame(p.payload));
      p.priority = f.priority;
      p.ce = ce;
    });
  }
  void PauseAt(Time t, int priority, int quanta) {
    act.At(t, [=, this] {
      Packet* p = pool.Allocate();
      p->type = PacketType::kPause;
      p->size = kPauseFrameBytes;
      p->pause_class = static_cast<uint8_t>(priority);
      p->pause_quanta = static_cast<uint16_t>(quanta);
      nic->Receive(p, 0);
    });
  }
  // The data frames the NIC sent: (time, psn), in order.
  std::vector<std::pair<Time, uint32_t>> DataSent(uint32_t flow) const {
    std::vector<std::pair<Time, uint32_t>> out;
    for (const Sent& s : log.sent) {
      if (s.type == PacketType::kData && s.flow == flow) out.emplace_back(s.at, s.psn);
    }
    return out;
  }
  static Sent Data(Time at, uint32_t flow, uint32_t psn, uint32_t size = 1066, uint8_t prio = 3) {
    return {at, PacketType::kData, flow, psn, size, prio};
  }
  // An ACK, NACK or CNP of flow 0 in the control queue.
  static Sent Control(Time at, PacketType type, uint32_t psn) {
    return {at, type, 0, psn, static_cast<uint32_t>(kAckFrameBytes), kControlQueue};
  }
};

struct RdmaNicTest : ::testing::Test, NicBench {};

using Departures = std::vector<std::pair<Time, uint32_t>>;

TEST_F(RdmaNicTest, PacesDataAtTheRateCongestionControlSetsWithRoceFraming) {
  // 10 Gb/s on a 100 Gb/s port: a packet may leave one packet time at 10 Gb/s after the last
  // one started, its whole wire size (frame, preamble and gap) counted; the last packet's
  // payload is the 500 bytes left, in a 566-byte frame.
  Build(10 * kGbps);
  StartAt(5 * kUs, AddFlow(0, 3500));
  sim.RunUntil(kBeforeRto);
  const Time t0 = 5 * kUs;
  EXPECT_EQ(log.sent,
            (std::vector<Sent>{Data(t0, 0, 0), Data(t0 + kTx10G, 0, 1), Data(t0 + 2 * kTx10G, 0, 2),
                               Data(t0 + 3 * kTx10G, 0, 3, 566)}));
  // Each frame arrives whole one serialization at the line rate and the delay later.
  ASSERT_EQ(peer.arrivals.size(), 4u);
  EXPECT_EQ(peer.arrivals[0].at, t0 + kLineTx + kDelay);
  EXPECT_EQ(peer.arrivals[3].at, t0 + 3 * kTx10G + (566 + 20) * 80 + kDelay);
  // Congestion control saw the start, then each frame's bytes as it left.
  EXPECT_EQ(cc->calls, (std::vector<Call>{{t0, Hook::kStart, 0},
                                          {t0, Hook::kSent, 0, 1066},
                                          {t0 + kTx10G, Hook::kSent, 0, 1066},
                                          {t0 + 2 * kTx10G, Hook::kSent, 0, 1066},
                                          {t0 + 3 * kTx10G, Hook::kSent, 0, 566}}));
  EXPECT_EQ(flows[0].line_rate, kLine);
  EXPECT_EQ(stats.data_packets_sent, 4u);
  EXPECT_EQ(stats.payload_sent, 3500);
}

TEST_F(RdmaNicTest, AtLineRateDataLeavesBackToBack) {
  Build();
  StartAt(0, AddFlow(0, 3000));
  sim.RunUntil(kBeforeRto);
  EXPECT_EQ(DataSent(0), (Departures{{0, 0}, {kLineTx, 1}, {2 * kLineTx, 2}}));
}

TEST_F(RdmaNicTest, PacingFollowsTheWireFormat) {
  // HPCC ns-3's format: 48 bytes of headers, frames padded to 64 bytes, no preamble or gap,
  // times truncated to whole ns. 1,048 bytes at 3 Gb/s: 2,794.67 ns, truncated to 2,794 ns.
  wire = WireFormat{.data_headers = 48,
                    .ack_frame = 60,
                    .ack_headers = 46,
                    .cnp_frame = 60,
                    .min_frame = 64,
                    .gap = 0,
                    .whole_ns = true};
  Build(3 * kGbps);
  StartAt(0, AddFlow(0, 2010));  // payloads 1000, 1000, 10 (58 bytes, padded to 64)
  sim.RunUntil(kBeforeRto);
  const Time tx = 2'794 * kNanosecond;
  EXPECT_EQ(log.sent,
            (std::vector<Sent>{Data(0, 0, 0, 1048), Data(tx, 0, 1, 1048), Data(2 * tx, 0, 2, 64)}));
  // On the 100 Gb/s link 1,048 bytes take 83.84 ns, truncated to 83 ns.
  ASSERT_EQ(peer.arrivals.size(), 3u);
  EXPECT_EQ(peer.arrivals[0].at, 83 * kNanosecond + kDelay);
}

TEST_F(RdmaNicTest, SetRateRetimesThePendingDepartureFromTheLastOne) {
  Build(10 * kGbps);
  Flow& f = AddFlow(0, 5000);
  StartAt(0, f);
  // Halved 100 ns after packet 0 left: packet 1 leaves one 5 Gb/s packet time after packet 0.
  act.At(100 * kNanosecond, [&] { cc->host()->SetRate(f, 5 * kGbps); });
  // Raised to the line rate at 2 us: packet 2 was due at 3.4752 us; one line-rate packet time
  // after packet 1 has passed, so it leaves at once.
  act.At(2 * kUs, [&] { cc->host()->SetRate(f, kLine); });
  sim.RunUntil(kBeforeRto);
  const Time second = 2 * kTx10G;
  EXPECT_EQ(
      DataSent(0),
      (Departures{
          {0, 0}, {second, 1}, {2 * kUs, 2}, {2 * kUs + kLineTx, 3}, {2 * kUs + 2 * kLineTx, 4}}));
  EXPECT_EQ(f.rate, kLine);
}

TEST_F(RdmaNicTest, SetRateAfterNextPacketKeepsThePendingDeparture) {
  Build(10 * kGbps);
  Flow& f = AddFlow(0, 3000);
  StartAt(0, f);
  act.At(100 * kNanosecond, [&] { cc->host()->SetRateAfterNextPacket(f, 5 * kGbps); });
  sim.RunUntil(kBeforeRto);
  EXPECT_EQ(DataSent(0), (Departures{{0, 0}, {kTx10G, 1}, {kTx10G + 2 * kTx10G, 2}}));
}

// A rate change re-times the pending departure from the packet that left last, which after
// go-back-N is not PSN snd_nxt - 1 (the NIC once took that one's size, and did nothing when
// snd_nxt went back to 0). Here the last packet sent is PSN 3 (566 bytes, at 3 T); a NACK moves
// snd_nxt back to 1 or 0 and the flow waits in the pacer; then the rate is halved: the resend
// leaves at 3 T + 586 x 1,600 ps, not at 3 T + 1,737.6 ns (a 1,066-byte frame) nor at the old
// 3 T + 468.8 ns. HPCC ns-3 keeps the last packet's size (lastPktSize) for this.
TEST(RdmaNicBugTest, SetRateAfterGoBackNRetimesFromThePacketSentLast) {
  for (const uint32_t nack : {1u, 0u}) {
    SCOPED_TRACE(nack);
    NicBench t;
    t.Build(10 * kGbps);
    Flow& f = t.AddFlow(0, 3500);
    t.StartAt(0, f);
    t.NackAt(3 * kTx10G + 10 * kNanosecond, 0, nack);
    t.act.At(3 * kTx10G + 20 * kNanosecond, [&] { t.cc->host()->SetRate(f, 5 * kGbps); });
    t.sim.RunUntil(kBeforeRto);
    const Departures sent = t.DataSent(0);
    ASSERT_GE(sent.size(), 5u);
    EXPECT_EQ(sent[3], std::make_pair(3 * kTx10G, 3u));
    EXPECT_EQ(sent[4], std::make_pair(3 * kTx10G + (566 + 20) * 1600, nack));
  }
}

TEST_F(RdmaNicTest, WindowCapsTheBytesInFlight) {
  // 3,000 bytes: a packet may leave while fewer than 3,000 bytes are unacknowledged, so three
  // go, and each ACK lets as many more go as it opened.
  Build();
  Flow& f = AddFlow(0, 6000);
  f.window = 3000;
  StartAt(0, f);
  AckAt(5 * kUs, 0, 1);  // 2,000 in flight: one more
  AckAt(8 * kUs, 0, 3);  // 1,000 in flight: two more
  AckAt(12 * kUs, 0, 6);
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(DataSent(0), (Departures{{0, 0},
                                     {kLineTx, 1},
                                     {2 * kLineTx, 2},
                                     {5 * kUs, 3},
                                     {8 * kUs, 4},
                                     {8 * kUs + kLineTx, 5}}));
  EXPECT_TRUE(f.sender_done);
  EXPECT_EQ(f.finish, 12 * kUs);
  EXPECT_EQ(cc->Of(Hook::kDone), (std::vector<Call>{{12 * kUs, Hook::kDone, 0}}));
}

TEST_F(RdmaNicTest, ScaledWindowFollowsTheRate) {
  // window_scales_with_rate: 4,000 bytes x rate / line rate. At 25 Gb/s it is 1,000 bytes (one
  // packet in flight); at 50 Gb/s 2,000 bytes (two).
  config.window_scales_with_rate = true;
  Build(25 * kGbps);
  Flow& f = AddFlow(0, 5000);
  f.window = 4000;
  StartAt(0, f);
  AckAt(2 * kUs, 0, 1);
  act.At(3 * kUs, [&] { cc->host()->SetRate(f, 50 * kGbps); });
  AckAt(4 * kUs, 0, 2);
  sim.RunUntil(kBeforeRto);
  EXPECT_EQ(
      DataSent(0),
      (Departures{
          {0, 0}, {2 * kUs, 1}, {4 * kUs, 2}, {4 * kUs + 2 * kLineTx, 3}}));  // 50 Gb/s pacing
}

TEST_F(RdmaNicTest, OnAckSeesEachAckAfterTheTransportButNotTheLast) {
  // CcNeeds::acks and timestamps: OnAck gets the acknowledged and sent byte sequences after the
  // transport processed the ACK, and the RTT of the data packet the ACK echoes. The NACK's
  // go-back-N has resent PSN 3 before OnAck (the port was idle): sent is back at 4,000. The
  // last ACK finishes the flow: OnFlowDone, and no OnAck.
  needs.acks = true;
  needs.timestamps = true;
  Build();
  Flow& f = AddFlow(0, 4000);
  StartAt(0, f);
  AckEchoAt(3 * kUs, PacketType::kAck, 0, 2, /*echo_psn=*/1);
  AckEchoAt(4 * kUs, PacketType::kNack, 0, 3, /*echo_psn=*/3);
  AckEchoAt(7 * kUs, PacketType::kAck, 0, 4, /*echo_psn=*/3, /*cnp_flag=*/true);
  sim.RunUntil(kTimeNever);
  // The time stamps are the departure times.
  EXPECT_EQ(peer.stamps,
            (std::map<uint32_t, Time>{{0, 0}, {1, kLineTx}, {2, 2 * kLineTx}, {3, 4 * kUs}}));
  EXPECT_EQ(cc->acks, (std::vector<Ack>{
                          {3 * kUs, 0, 2000, 4000, false, false, 3 * kUs - kLineTx},
                          {4 * kUs, 0, 3000, 4000, false, true, 4 * kUs - 3 * kLineTx},
                      }));
  EXPECT_EQ(cc->Events(), (std::vector<Call>{{0, Hook::kStart, 0},
                                             {3 * kUs, Hook::kAck, 0},
                                             {4 * kUs, Hook::kAck, 0},
                                             {7 * kUs, Hook::kCnp, 0},
                                             {7 * kUs, Hook::kDone, 0}}));
  EXPECT_EQ(stats.cnps_received, 1u);
}

TEST(RdmaNicAckTest, OnAckOnlyWhenAskedAndRttOnlyWithTimeStamps) {
  for (const bool acks : {false, true}) {
    SCOPED_TRACE(acks);
    NicBench t;
    t.needs.acks = acks;
    t.Build();
    t.StartAt(0, t.AddFlow(0, 2000));
    t.AckAt(3 * kUs, 0, 1);
    t.AckAt(4 * kUs, 0, 2);
    t.sim.RunUntil(kTimeNever);
    if (acks) {
      EXPECT_EQ(t.cc->acks, (std::vector<Ack>{{3 * kUs, 0, 1000, 2000, false, false, 0}}));
    } else {
      EXPECT_TRUE(t.cc->acks.empty());
    }
    EXPECT_TRUE(t.peer.stamps.empty());  // no time stamps asked for: no header on data
    EXPECT_EQ(t.cc->Of(Hook::kDone).size(), 1u);
  }
}

TEST_F(RdmaNicTest, NackGoesBackToItsPsnAtThePacersNextDeparture) {
  // 10 Gb/s: packets every 868.8 ns. A NACK for PSN 1 between packets 2 and 3 makes PSN 1 the
  // next to send, at the time packet 3 would have left; everything from there is sent again.
  Build(10 * kGbps);
  Flow& f = AddFlow(0, 6000);
  StartAt(0, f);
  NackAt(2 * kTx10G + 100 * kNanosecond, 0, 1);
  // A NACK once everything was sent: the flow is idle and resends at once.
  NackAt(10 * kUs, 0, 4);
  AckAt(15 * kUs, 0, 6);
  sim.RunUntil(kTimeNever);
  Departures expected;
  const uint32_t first[] = {0, 1, 2, 1, 2, 3, 4, 5};
  for (int k = 0; k < 8; ++k) expected.push_back({k * kTx10G, first[k]});
  expected.push_back({10 * kUs, 4});
  expected.push_back({10 * kUs + kTx10G, 5});
  EXPECT_EQ(DataSent(0), expected);
  EXPECT_EQ(stats.retransmitted_packets, 4u);
  EXPECT_EQ(stats.data_packets_sent, 10u);
  EXPECT_EQ(f.snd_una, 6u);
  EXPECT_TRUE(f.sender_done);
}

TEST_F(RdmaNicTest, TimeoutResendsFromTheOldestUnacknowledgedPacket) {
  // The deadline is rto after the last ACK progress (or the first send): the timer armed for
  // 10 us finds the deadline moved to 15 us by the ACK at 5 us, waits, then goes back to PSN 1.
  config.rto = 10 * kUs;
  Build();
  Flow& f = AddFlow(0, 3000);
  StartAt(0, f);
  AckAt(5 * kUs, 0, 1);
  AckAt(20 * kUs, 0, 3);
  sim.RunUntil(14 * kUs);
  EXPECT_EQ(stats.timeouts, 0u);
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(
      DataSent(0),
      (Departures{{0, 0}, {kLineTx, 1}, {2 * kLineTx, 2}, {15 * kUs, 1}, {15 * kUs + kLineTx, 2}}));
  EXPECT_EQ(stats.timeouts, 1u);
  EXPECT_EQ(stats.retransmitted_packets, 2u);
  // The timer re-armed at 15 us for 25 us found the flow done and stopped.
  EXPECT_EQ(sim.Now(), 25 * kUs);
  EXPECT_EQ(sim.pending(), 0u);
}

TEST_F(RdmaNicTest, CnpCallsOnCnpAndTheRateItSetsRetimesTheNextPacket) {
  // The fake answers a CNP by cutting the rate to 10 Gb/s: the packet due next leaves one
  // 10 Gb/s packet time after the last one started (packet 11, at 955.68 ns).
  Build();
  Flow& f = AddFlow(0, 20000);
  StartAt(0, f);
  cc->on_cnp = [this](CcFlow& flow) { cc->host()->SetRate(flow, 10 * kGbps); };
  ArriveAt(1 * kUs, PacketType::kCnp, 0, 0);
  sim.RunUntil(3 * kUs);
  EXPECT_EQ(cc->Of(Hook::kCnp), (std::vector<Call>{{1 * kUs, Hook::kCnp, 0}}));
  EXPECT_EQ(stats.cnps_received, 1u);
  const Departures sent = DataSent(0);
  ASSERT_EQ(sent.size(), 14u);
  EXPECT_EQ(sent[11], std::make_pair(11 * kLineTx, 11u));
  EXPECT_EQ(sent[12], std::make_pair(11 * kLineTx + kTx10G, 12u));
  EXPECT_EQ(sent[13], std::make_pair(11 * kLineTx + 2 * kTx10G, 13u));
}

TEST_F(RdmaNicTest, AConnectionsNextTransferContinuesItsQueuePair) {
  // Flows 0 (3 packets) and 1 (2 packets) are one connection. Flow 0 reports its last packet
  // sent (2 T), and flow 1, started then, continues its pacing, rate and byte stream: its
  // packets leave at 3 T and 4 T, congestion control hands it flow 0's state (kContinue), and
  // what arrives for flow 0 later (a CNP, its ACKs, its last one included) acts on flow 1's,
  // with ACK sequences in the connection's stream. Only the connection's end is kDone.
  needs.acks = true;
  Build(20 * kGbps);
  Flow& f0 = AddFlow(0, 3000);
  Flow& f1 = AddFlow(1, 2000);
  f0.connection = f1.connection = 0;
  f0.awaiting_successor = true;
  std::vector<Time> sent_last;
  nic->SetOnFlowSent([&](Flow& f) {
    sent_last.push_back(sim.Now());
    EXPECT_EQ(f.id, 0u);
    act.At(sim.Now(), [&] { nic->StartFlow(f1); });
  });
  StartAt(0, f0);
  ArriveAt(10 * kUs, PacketType::kCnp, 0, 0);
  AckAt(11 * kUs, 0, 3);
  AckAt(12 * kUs, 1, 1);
  AckAt(13 * kUs, 1, 2);
  sim.RunUntil(20 * kUs);
  const Time t20 = kTx10G / 2;  // one packet time at 20 Gb/s
  EXPECT_EQ(sent_last, (std::vector<Time>{2 * t20}));
  EXPECT_EQ(DataSent(1), (Departures{{3 * t20, 0}, {4 * t20, 1}}));
  EXPECT_EQ(f1.rate, 20 * kGbps);
  EXPECT_EQ(f1.stream_offset, 3000);
  EXPECT_TRUE(f0.handed_over);
  EXPECT_FALSE(f0.awaiting_successor);
  EXPECT_EQ(cc->Events(), (std::vector<Call>{{0, Hook::kStart, 0},
                                             {2 * t20, Hook::kContinue, 1, 0},
                                             {10 * kUs, Hook::kCnp, 1},
                                             {11 * kUs, Hook::kAck, 1},
                                             {12 * kUs, Hook::kAck, 1},
                                             {13 * kUs, Hook::kDone, 1}}));
  EXPECT_EQ(cc->acks, (std::vector<Ack>{{11 * kUs, 1, 3000, 5000, false, false, 0},
                                        {12 * kUs, 1, 4000, 5000, false, false, 0}}));
}

TEST_F(RdmaNicTest, WithCnpOnAckTheAcksBitIsTheCnp) {
  needs.acks = true;
  needs.cnp_on_ack = true;
  Build();
  StartAt(0, AddFlow(0, 3000));
  AckEchoAt(2 * kUs, PacketType::kAck, 0, 1, 0, /*cnp_flag=*/true);
  AckEchoAt(3 * kUs, PacketType::kAck, 0, 2, 1, /*cnp_flag=*/false);
  sim.RunUntil(kBeforeRto);
  EXPECT_EQ(cc->Events(), (std::vector<Call>{{0, Hook::kStart, 0},
                                             {2 * kUs, Hook::kCnp, 0},
                                             {2 * kUs, Hook::kAck, 0},
                                             {3 * kUs, Hook::kAck, 0}}));
  EXPECT_EQ(cc->acks, (std::vector<Ack>{{2 * kUs, 0, 1000, 3000, true, false, 0},
                                        {3 * kUs, 0, 2000, 3000, false, false, 0}}));
  EXPECT_EQ(stats.cnps_received, 1u);
}

TEST_F(RdmaNicTest, ReceiverAcksEveryNthNacksAGapOnceAndReacksDuplicates) {
  // This NIC receives flow 0 (host 1 -> host 0), ACK every 2 in-order packets and on the last.
  config.ack_interval = 2;
  Build();
  Flow& f = AddFlow(0, 5000, 3, /*src=*/1);
  DataAt(1 * kUs, 0, 0);
  DataAt(2 * kUs, 0, 1);  // ACK 2
  DataAt(3 * kUs, 0, 3);  // gap: NACK 2
  DataAt(4 * kUs, 0, 4);  // still missing 2: no second NACK
  DataAt(5 * kUs, 0, 2);  // in order, first of two since the ACK
  DataAt(6 * kUs, 0, 1);  // duplicate: ACK 3 again
  DataAt(7 * kUs, 0, 3);  // second in order: ACK 4
  DataAt(8 * kUs, 0, 4);  // the last: ACK 5
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(log.sent,
            (std::vector<Sent>{
                Control(2 * kUs, PacketType::kAck, 2), Control(3 * kUs, PacketType::kNack, 2),
                Control(6 * kUs, PacketType::kAck, 3), Control(7 * kUs, PacketType::kAck, 4),
                Control(8 * kUs, PacketType::kAck, 5)}));
  EXPECT_EQ(f.rcv_nxt, 5u);
  EXPECT_EQ(f.bytes_delivered, 5000);
  EXPECT_EQ(stats.payload_received, 8000);
  EXPECT_EQ(stats.payload_delivered, 5000);
  EXPECT_EQ(stats.nacks, 1u);
  EXPECT_EQ(cc->Of(Hook::kData).size(), 8u);
  EXPECT_EQ(f.sender_packets + f.receiver_packets, 0);  // every ACK reached the peer
}

// host.reorder = "selective": packets ahead within the window are kept and the hole NACKed
// once; a filled hole releases them, and one still open behind kept packets is NACKed at once.
TEST_F(RdmaNicTest, SelectiveReceiverKeepsPacketsAheadWithinItsWindowAndNacksEachHole) {
  config.reorder = HostConfig::Reorder::kSelective;
  config.reorder_window = 3;
  Build();
  Flow& f = AddFlow(0, 8000, 3, /*src=*/1);
  DataAt(1 * kUs, 0, 0);   // ACK 1
  DataAt(2 * kUs, 0, 2);   // kept: NACK 1
  DataAt(3 * kUs, 0, 3);   // kept, NACK pending
  DataAt(4 * kUs, 0, 1);   // fills the hole: 1, 2, 3 delivered, ACK 4
  DataAt(5 * kUs, 0, 7);   // 3 ahead of 4: beyond the window, discarded; NACK 4
  DataAt(6 * kUs, 0, 6);   // kept
  DataAt(7 * kUs, 0, 4);   // ACK 5, and 5 is a hole behind 6: NACK 5 at once
  DataAt(8 * kUs, 0, 5);   // 5 and 6: ACK 7
  DataAt(9 * kUs, 0, 3);   // a copy: ACK 7 again
  DataAt(10 * kUs, 0, 7);  // the last: ACK 8
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(log.sent, (std::vector<Sent>{
                          Control(1 * kUs, PacketType::kAck, 1),
                          Control(2 * kUs, PacketType::kNack, 1),
                          Control(4 * kUs, PacketType::kAck, 4),
                          Control(5 * kUs, PacketType::kNack, 4),
                          Control(7 * kUs, PacketType::kAck, 5),
                          // behind the ACK: 90 bytes on the wire, 7.2 ns at 100 Gb/s
                          Control(7 * kUs + 7200, PacketType::kNack, 5),
                          Control(8 * kUs, PacketType::kAck, 7),
                          Control(9 * kUs, PacketType::kAck, 7),
                          Control(10 * kUs, PacketType::kAck, 8),
                      }));
  EXPECT_EQ(f.rcv_nxt, 8u);
  EXPECT_EQ(stats.payload_delivered, 8000);
  EXPECT_EQ(stats.payload_received, 10000);
  EXPECT_EQ(stats.nacks, 3u);
  EXPECT_EQ(stats.out_of_order_packets, 4u);
  EXPECT_EQ(stats.duplicate_packets, 1u);
}

// host.reorder = "placement": any order is placed, nothing is NACKed, the ACK clock keeps its
// interval with the cumulative PSN, and the transfer is delivered when every byte is in.
TEST_F(RdmaNicTest, PlacementReceiverTakesAnyOrderAndNeverNacks) {
  config.reorder = HostConfig::Reorder::kPlacement;
  Build();
  Flow& f = AddFlow(0, 4000, 3, /*src=*/1);
  int delivered = 0;
  nic->SetOnFlowDelivered([&](Flow&) { ++delivered; });
  DataAt(1 * kUs, 0, 1);  // placed: ACK 0
  DataAt(2 * kUs, 0, 3);  // placed: ACK 0
  DataAt(3 * kUs, 0, 3);  // a copy: ACK 0
  DataAt(4 * kUs, 0, 0);  // 0 and 1: ACK 2
  sim.RunUntil(5 * kUs);
  EXPECT_EQ(delivered, 0);
  DataAt(6 * kUs, 0, 2);  // 2 and 3: ACK 4, delivered
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(log.sent,
            (std::vector<Sent>{
                Control(1 * kUs, PacketType::kAck, 0), Control(2 * kUs, PacketType::kAck, 0),
                Control(3 * kUs, PacketType::kAck, 0), Control(4 * kUs, PacketType::kAck, 2),
                Control(6 * kUs, PacketType::kAck, 4)}));
  EXPECT_EQ(delivered, 1);
  EXPECT_EQ(f.rcv_nxt, 4u);
  EXPECT_EQ(f.bytes_delivered, 4000);
  EXPECT_EQ(stats.nacks, 0u);
  EXPECT_EQ(stats.out_of_order_packets, 3u);
  EXPECT_EQ(stats.duplicate_packets, 1u);
}

// host.reorder = "selective" at the sender: a NACK resends only the PSN it names, at the pacer's
// next departure, and new data goes on after it.
TEST_F(RdmaNicTest, SelectiveSenderResendsOnlyTheNackedPsn) {
  config.reorder = HostConfig::Reorder::kSelective;
  Build(10 * kGbps);
  Flow& f = AddFlow(0, 6000);
  StartAt(0, f);
  NackAt(2 * kTx10G + 100 * kNanosecond, 0, 1);
  AckAt(15 * kUs, 0, 6);
  sim.RunUntil(kTimeNever);
  Departures expected;
  const uint32_t psn[] = {0, 1, 2, 1, 3, 4, 5};
  for (int k = 0; k < 7; ++k) expected.push_back({k * kTx10G, psn[k]});
  EXPECT_EQ(DataSent(0), expected);
  EXPECT_EQ(stats.retransmitted_packets, 1u);
  EXPECT_EQ(stats.data_packets_sent, 7u);
  EXPECT_TRUE(f.sender_done);
}

TEST_F(RdmaNicTest, WithCnpOnAckOnlyAPacketThatTriggersAnAckReportsItsMark) {
  config.ack_interval = 2;
  needs.acks = true;
  needs.cnp_on_ack = true;
  Build();
  AddFlow(0, 4000, 3, /*src=*/1);
  DataAt(1 * kUs, 0, 0, /*ce=*/true);  // no ACK: its mark is not reported
  DataAt(2 * kUs, 0, 1, false);
  DataAt(3 * kUs, 0, 2, true);
  DataAt(4 * kUs, 0, 3, true);
  sim.RunUntil(kTimeNever);
  ASSERT_EQ(log.sent.size(), 2u);
  EXPECT_EQ(log.sent[0].psn, 2u);
  EXPECT_FALSE(log.sent[0].cnp_flag);
  EXPECT_EQ(log.sent[1].psn, 4u);
  EXPECT_TRUE(log.sent[1].cnp_flag);
  EXPECT_EQ(stats.cnps_sent, 1u);
  EXPECT_EQ(cc->Of(Hook::kData), (std::vector<Call>{{1 * kUs, Hook::kData, 0, 1},
                                                    {2 * kUs, Hook::kData, 0, 0},
                                                    {3 * kUs, Hook::kData, 0, 1},
                                                    {4 * kUs, Hook::kData, 0, 1}}));
}

TEST_F(RdmaNicTest, AckInDataClassTakesTheFlowsPriorityButCnpsStayInControl) {
  config.ack_in_data_class = true;
  Build();
  AddFlow(0, 2000, 5, /*src=*/1);
  cc->cnp_on_mark = true;
  DataAt(1 * kUs, 0, 0, /*ce=*/true);
  sim.RunUntil(kTimeNever);
  // The CNP is sent from OnDataArrival, before the transport's ACK.
  EXPECT_EQ(log.sent, (std::vector<Sent>{{1 * kUs, PacketType::kCnp, 0, 0,
                                          static_cast<uint32_t>(kCnpFrameBytes), 0},
                                         {1 * kUs + (kCnpFrameBytes + 20) * 80, PacketType::kAck, 0,
                                          1, static_cast<uint32_t>(kAckFrameBytes), 5}}));
}

TEST_F(RdmaNicTest, ControlFramesGoAheadOfQueuedData) {
  // The NIC sends flow 1 at line rate and receives flow 0; the fake answers a marked packet
  // with a CNP. The CNP, queued during data packet 1, leaves when it ends, ahead of packet 2.
  Build();
  cc->cnp_on_mark = true;
  AddFlow(0, 1000, 3, /*src=*/1);
  StartAt(0, AddFlow(1, 5000));
  DataAt(100 * kNanosecond, 0, 0, /*ce=*/true);
  sim.RunUntil(kBeforeRto);
  const Time cnp_tx = (kCnpFrameBytes + 20) * 80;  // 8.16 ns
  const Time ack_tx = (kAckFrameBytes + 20) * 80;  // 7.2 ns
  EXPECT_EQ(kCnpFrameBytes, 82);
  const uint32_t cnp = static_cast<uint32_t>(kCnpFrameBytes);
  const uint32_t ack = static_cast<uint32_t>(kAckFrameBytes);
  EXPECT_EQ(log.sent, (std::vector<Sent>{
                          Data(0, 1, 0),
                          Data(kLineTx, 1, 1),
                          {2 * kLineTx, PacketType::kCnp, 0, 0, cnp, kControlQueue},
                          {2 * kLineTx + cnp_tx, PacketType::kAck, 0, 1, ack, kControlQueue},
                          Data(2 * kLineTx + cnp_tx + ack_tx, 1, 2),
                          Data(3 * kLineTx + cnp_tx + ack_tx, 1, 3),
                          Data(4 * kLineTx + cnp_tx + ack_tx, 1, 4),
                      }));
  EXPECT_EQ(stats.cnps_sent, 1u);
}

// Two flows at line rate, flow 0 in class 3 (10 packets) and flow 1 in class 5 (4 packets),
// alternate; class 3 is paused during flow 0's packet 1 (at 2 T + 1 ns) for 100 quanta (512 ns at
// 100 Gb/s), or until a RESUME at 2 us. Returns flow 0's departures after its packet 1.
struct PauseRun {
  Departures class3_after_pause;
  Departures class5;
};
PauseRun RunPauseScenario(bool until_resume, bool send_resume) {
  NicBench t;
  t.pause_until_resume = until_resume;
  t.Build();
  t.StartAt(0, t.AddFlow(0, 10000, 3));
  t.StartAt(0, t.AddFlow(1, 4000, 5));
  t.PauseAt(2 * kLineTx + kNanosecond, 3, 100);
  if (send_resume) t.PauseAt(2 * kUs, 3, 0);
  t.sim.RunUntil(kBeforeRto);
  PauseRun r;
  const Departures a = t.DataSent(0);
  EXPECT_EQ(a.size(), 10u);
  EXPECT_EQ(a[0], std::make_pair(Time{0}, 0u));
  EXPECT_EQ(a[1], std::make_pair(2 * kLineTx, 1u));
  r.class3_after_pause.assign(a.begin() + 2, a.end());
  r.class5 = t.DataSent(1);
  return r;
}

Departures BackToBack(Time from, uint32_t first_psn, uint32_t last_psn) {
  Departures d;
  for (uint32_t psn = first_psn; psn <= last_psn; ++psn) {
    d.push_back({from + (psn - first_psn) * kLineTx, psn});
  }
  return d;
}

TEST(RdmaNicPauseTest, PauseStopsItsClassUntilExpiryWhileOthersGoOn) {
  const PauseRun r = RunPauseScenario(false, false);
  // Class 5 goes on every frame time (its own turn, then class 3's).
  EXPECT_EQ(r.class5,
            (Departures{{kLineTx, 0}, {3 * kLineTx, 1}, {4 * kLineTx, 2}, {5 * kLineTx, 3}}));
  // Class 3 waits for the pause to expire: 2 T + 1 ns + 512 ns, exactly.
  const Time expiry = 2 * kLineTx + kNanosecond + PauseQuantaToTime(100, kLine);
  EXPECT_EQ(PauseQuantaToTime(100, kLine), 512 * kNanosecond);
  EXPECT_EQ(r.class3_after_pause, BackToBack(expiry, 2, 9));
}

TEST(RdmaNicPauseTest, ResumeEndsAPauseEarly) {
  // Pausing for the most quanta (335 us), then resuming at 2 us.
  NicBench t;
  t.Build();
  t.StartAt(0, t.AddFlow(0, 3000, 3));
  t.PauseAt(kLineTx / 2, 3, 65535);
  t.PauseAt(2 * kUs, 3, 0);
  t.sim.RunUntil(kBeforeRto);
  // The frame on the wire finishes; the next waits for the RESUME.
  EXPECT_EQ(t.DataSent(0), (Departures{{0, 0}, {2 * kUs, 1}, {2 * kUs + kLineTx, 2}}));
}

TEST(RdmaNicPauseTest, PauseUntilResumeIgnoresTheQuanta) {
  const PauseRun r = RunPauseScenario(true, true);
  EXPECT_EQ(r.class3_after_pause, BackToBack(2 * kUs, 2, 9));
}

TEST(RdmaNicPauseTest, AcksIgnorePauseUnlessPauseAcks) {
  // This NIC receives flow 0 in class 3 while class 3 is paused for 512 ns from 1 us. ACKs
  // leave at once; with pause_acks the ACK waits for the pause to expire, a CNP does not.
  for (const bool pause_acks : {false, true}) {
    SCOPED_TRACE(pause_acks);
    NicBench t;
    t.config.pause_acks = pause_acks;
    t.Build();
    t.cc->cnp_on_mark = true;
    t.AddFlow(0, 3000, 3, /*src=*/1);
    t.PauseAt(1 * kUs, 3, 100);
    t.DataAt(1 * kUs + 100 * kNanosecond, 0, 0, /*ce=*/true);
    t.sim.RunUntil(kTimeNever);
    ASSERT_EQ(t.log.sent.size(), 2u);
    EXPECT_EQ(t.log.sent[0].type, PacketType::kCnp);
    EXPECT_EQ(t.log.sent[0].at, 1 * kUs + 100 * kNanosecond);
    EXPECT_EQ(t.log.sent[1].type, PacketType::kAck);
    const Time cnp_done = 1 * kUs + 100 * kNanosecond + (kCnpFrameBytes + 20) * 80;
    EXPECT_EQ(t.log.sent[1].at, pause_acks ? 1 * kUs + 512 * kNanosecond : cnp_done);
  }
}

}  // namespace
}  // namespace dcqcn
