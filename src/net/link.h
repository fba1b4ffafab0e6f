// One direction of a cable. Only the first in-flight packet's arrival is scheduled (one pending
// event per link, not one per packet); each packet in flight knows the one sent after it.
// A link between two threads of a split run has a sending half (Transmit, in the sender's thread)
// and a receiving half (the packets in flight and their arrivals, in the peer's thread): what it
// sends waits in an outbox until the window ends, then the peer's thread takes it in (Enqueue).
#pragma once

#include <memory>
#include <vector>

#include "core/simulator.h"
#include "net/headers.h"
#include "net/node.h"
#include "net/packet_tap.h"
#include "net/stats.h"

namespace dcqcn {

class Link;

// A packet sent on a link into another thread's part of the network, not yet taken in there.
struct Crossing {
  Link* link;
  Time arrival;
  Packet* packet;
};

// Where a link into another thread sends: the sender's outbox for that thread, and the link's
// receiving half there, a twin in the peer's memory with the link's place in the event order
// (the sending half runs no events), so that the two threads write no line in common.
struct CrossingRoute {
  std::vector<Crossing>* outbox;
  Link* receiving_half;
};

class Link : public EventHandler {
 public:
  // `sim` and `stats` are the peer's: the arrivals run and are counted there.
  Link(Simulator* sim, NetStats* stats, Rate rate, Time delay, Node* peer, int peer_port,
       const WireFormat& wire = {})
      : peer_(peer),
        peer_port_(peer_port),
        stats_(stats),
        sim_(sim),
        delay_(delay),
        ps_per_byte_(8 * kSecond % rate == 0 ? 8 * kSecond / rate : 0),
        gap_(static_cast<uint32_t>(wire.gap)),
        whole_ns_(wire.whole_ns),
        nearest_ns_(wire.ns_rounding == WireFormat::NsRounding::kNearest),
        rate_(rate) {
    sim->Enroll(*this);
  }

  // Starts sending `p` at `now` (the sender's clock); returns the serialization time (when the
  // sender is free again). The packet arrives whole at the peer after serialization plus
  // propagation delay.
  Time Transmit(Packet* p, Time now);
  // The link crosses into another thread: what it sends goes to the route's outbox, for that
  // thread to Enqueue on the receiving half between windows.
  void SetCrossing(const CrossingRoute* route) {
    Noted().crossing = route;
    DropUnusedNotes();
  }
  // The half whose events deliver what this link sends: itself, or its twin in another thread.
  Link& receiving_half() { return crossing() != nullptr ? *crossing()->receiving_half : *this; }
  // Puts `p`, arriving at `arrival`, in flight behind the packets already in flight.
  void Enqueue(Time arrival, Packet* p) {
    if (last_ != nullptr) {
      last_->next_on_link = p;
      last_->next_arrival = arrival;
    } else {
      ScheduleArrival(arrival, p);
    }
    last_ = p;
    ++in_flight_;
  }
  void HandleEvent(uint32_t kind, uint64_t arg) override;

  // Packet captures: a tap that sees what this link's sender sends (when it starts sending),
  // and one that sees what arrives at its peer (when the last bit has). The arrival tap stands
  // between the link and its peer, so that links without one pay nothing for it.
  void SetSendTap(PacketTap* tap) {
    Noted().send_tap = tap;
    DropUnusedNotes();
  }
  void SetArrivalTap(PacketTap* tap);

  // The cable failed ([[event]] link_down) or came back (link_up). Called on the receiving half.
  // What was on the wire at any moment the link was down is lost when it would have arrived:
  // counted as the link's loss and freed into `pool` (the peer's). A link never cut pays nothing
  // for this: the cut stands between it and its peer, as the arrival tap does.
  void SetDown(bool down, PacketPool* pool);
  bool down() const;

  Rate rate() const { return rate_; }
  Time delay() const { return delay_; }
  // How long `p` takes on the wire (its serialization time).
  Time WireTime(const Packet& p) const;
  size_t in_flight() const {
    return crossing() != nullptr ? crossing()->receiving_half->in_flight_ : in_flight_;
  }
  Bytes busy_bytes() const { return busy_bytes_; }  // wire bytes sent so far (utilisation)
  // Another process's count for this link (a run spread over processes, for the results).
  void AdoptBusyBytes(Bytes bytes) { busy_bytes_ = bytes; }

 private:
  friend struct LinkLayout;  // link.cc: static_asserts of the order below
  // A link's arrivals are ordered among equal-time events by the link alone (one arrival per
  // instant), whoever sent the packet and whichever event loop it ran in.
  void ScheduleArrival(Time at, Packet* p) {
    sim_->ScheduleKeyed(at, this, 0, reinterpret_cast<uint64_t>(p), *this, 0, /*hot=*/true);
  }
  // What an arrival reads, first: the run loop prefetches a handler's first 64 bytes.
  // Then what a transmission reads; the rate (for uncommon rates) and the arrival tap last.
  Packet* last_ = nullptr;  // the packet sent last, while it is in flight
  Node* peer_;
  int peer_port_;
  uint32_t in_flight_ = 0;
  NetStats* stats_;
  Simulator* sim_;
  Time delay_;
  Bytes busy_bytes_ = 0;
  Time ps_per_byte_;  // exact picoseconds per byte (common rates), 0 = divide per packet
  // What few links have and every transmission would otherwise test for: one test for both.
  struct Notes {
    PacketTap* send_tap = nullptr;
    const CrossingRoute* crossing = nullptr;  // a link into another thread (SetCrossing)
  };
  Notes& Noted() {
    if (notes_ == nullptr) notes_ = std::make_unique<Notes>();
    return *notes_;
  }
  void DropUnusedNotes() {
    if (notes_->send_tap == nullptr && notes_->crossing == nullptr) notes_.reset();
  }
  const CrossingRoute* crossing() const { return notes_ ? notes_->crossing : nullptr; }
  // Transmit for a link with notes: its tap sees the packet, and it may cross into another thread.
  [[gnu::noinline]] Time TransmitNoted(Packet* p, Time now);
  // The packet's wire time, counted as busy.
  Time Serialize(const Packet& p);
  std::unique_ptr<Notes> notes_;
  uint32_t gap_;     // wire bytes per frame besides the frame (preamble and gap; beside whole_ns_)
  bool whole_ns_;    // transmit times truncated to whole ns (WireFormat::whole_ns)
  bool nearest_ns_;  // ... rounded to the nearest instead (WireFormat::ns_rounding)
  Rate rate_;
  std::unique_ptr<Node> tapped_peer_;  // the arrival tap in front of the peer, if any
  std::unique_ptr<Node> cut_peer_;     // a failure's cut in front of both, once the link failed
};

}  // namespace dcqcn
