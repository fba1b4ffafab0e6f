// Link: serialization, propagation and in-order delivery.
#include "net/link.h"

#include <algorithm>
#include <cstddef>

#include "net/headers.h"

namespace dcqcn {

// The layout link.h's comment describes, checked: a reordering that breaks it fails to compile.
// offsetof on a class with virtual functions is only conditionally supported and warns; GCC and
// Clang give the real offsets, which is what we check.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
struct LinkLayout {
  // What an arrival (HandleEvent) reads lies in the 64 bytes the run loop prefetches.
  static_assert(offsetof(Link, last_) + sizeof(Link::last_) <= 64);
  static_assert(offsetof(Link, peer_) + sizeof(Link::peer_) <= 64);
  static_assert(offsetof(Link, peer_port_) + sizeof(Link::peer_port_) <= 64);
  static_assert(offsetof(Link, in_flight_) + sizeof(Link::in_flight_) <= 64);
  static_assert(offsetof(Link, stats_) + sizeof(Link::stats_) <= 64);
  static_assert(offsetof(Link, sim_) + sizeof(Link::sim_) <= 64);
  // The rate and the arrival tap come after everything else a transmission (Transmit) reads.
  static constexpr size_t kTransmitted =
      std::max({offsetof(Link, delay_), offsetof(Link, busy_bytes_), offsetof(Link, ps_per_byte_),
                offsetof(Link, notes_), offsetof(Link, gap_), offsetof(Link, whole_ns_),
                offsetof(Link, nearest_ns_)});
  static_assert(offsetof(Link, rate_) > kTransmitted);
  static_assert(offsetof(Link, tapped_peer_) > kTransmitted);
  static_assert(offsetof(Link, cut_peer_) > kTransmitted);
};
#pragma GCC diagnostic pop

namespace {

// Shows the tap each packet that arrives, then hands it to the node.
class TappedNode final : public Node {
 public:
  TappedNode(Simulator* sim, PacketTap* tap, Node* node) : sim_(sim), tap_(tap), node_(node) {}
  void Receive(Packet* p, int port) override {
    tap_->OnPacket(*p, sim_->Now());
    node_->Receive(p, port);
  }
  Node* node() const { return node_; }

 private:
  Simulator* sim_;
  PacketTap* tap_;
  Node* node_;
};

// In front of the peer of a link that has failed: a packet that was on the wire at any moment
// the link was down is lost. (Its queue keeps sending into the dead link until the switches
// route around it, as a real port's does: what was queued for it is lost the same way.)
class CutNode final : public Node {
 public:
  CutNode(const Link* link, Simulator* sim, NetStats* stats, Node* node)
      : link_(link), sim_(sim), stats_(stats), node_(node) {}
  void Receive(Packet* p, int port) override {
    // Sent (its first bit) once the link was up again: it arrives.
    const Time sent = sim_->Now() - link_->delay() - link_->WireTime(*p);
    if (!down_ && sent >= up_at_) return node_->Receive(p, port);
    // PFC frames are the link's own: lost with it, nobody's packet.
    if (p->type != PacketType::kPause) {
      stats_->CountLoss(p->flow, p->payload);  // payload 0 but on data
      ++stats_->link_drops;
    }
    pool_->Free(p);
  }
  void SetDown(bool down, PacketPool* pool) {
    down_ = down;
    pool_ = pool;
    if (!down) up_at_ = sim_->Now();
  }
  bool down() const { return down_; }
  Node* node() const { return node_; }
  void set_node(Node* node) { node_ = node; }

 private:
  const Link* link_;
  Simulator* sim_;
  NetStats* stats_;
  PacketPool* pool_ = nullptr;
  Node* node_;
  bool down_ = false;
  Time up_at_ = 0;  // when it last came back
};

}  // namespace

void Link::SetArrivalTap(PacketTap* tap) {
  auto* cut = static_cast<CutNode*>(cut_peer_.get());
  Node* node = tapped_peer_ ? static_cast<TappedNode*>(tapped_peer_.get())->node()
                            : (cut != nullptr ? cut->node() : peer_);
  tapped_peer_ = tap ? std::make_unique<TappedNode>(sim_, tap, node) : nullptr;
  Node* first = tap ? tapped_peer_.get() : node;
  if (cut != nullptr) {
    cut->set_node(first);
  } else {
    peer_ = first;
  }
}

void Link::SetDown(bool down, PacketPool* pool) {
  if (cut_peer_ == nullptr) {
    cut_peer_ = std::make_unique<CutNode>(this, sim_, stats_, peer_);
    peer_ = cut_peer_.get();
  }
  static_cast<CutNode*>(cut_peer_.get())->SetDown(down, pool);
}

bool Link::down() const {
  return cut_peer_ != nullptr && static_cast<const CutNode*>(cut_peer_.get())->down();
}

Time Link::WireTime(const Packet& p) const {
  const Bytes wire = Bytes{p.size} + gap_;
  if (ps_per_byte_ != 0) {
    const Time tx = wire * ps_per_byte_;
    return whole_ns_ ? WireFormat::WholeNs(tx, nearest_ns_) : tx;
  }
  return WireFormat::WireTime(wire, rate_, whole_ns_, nearest_ns_);
}

Time Link::Serialize(const Packet& p) {
  busy_bytes_ += Bytes{p.size} + gap_;
  return WireTime(p);
}

// Transmissions on one link are serialized and the delay is constant, so arrivals are monotonic:
// the packets in flight arrive in the order they were sent. (A packet's successor fields are read
// only when a later packet was sent after it: what a packet carries from its previous link is
// never read.)
Time Link::Transmit(Packet* p, Time now) {
  if (notes_ != nullptr) [[unlikely]]
    return TransmitNoted(p, now);
  const Time tx = Serialize(*p);
  Enqueue(now + tx + delay_, p);
  return tx;
}

Time Link::TransmitNoted(Packet* p, Time now) {
  if (notes_->send_tap != nullptr) notes_->send_tap->OnPacket(*p, now);
  const Time tx = Serialize(*p);
  const Time arrival = now + tx + delay_;
  if (const CrossingRoute* crossing = notes_->crossing) {
    crossing->outbox->push_back({crossing->receiving_half, arrival, p});
  } else {
    Enqueue(arrival, p);
  }
  return tx;
}

void Link::HandleEvent(uint32_t, uint64_t arg) {
  Packet* p = reinterpret_cast<Packet*>(arg);  // the packet this arrival was scheduled for
  --in_flight_;
  if (p == last_) {
    last_ = nullptr;
  } else {
    ScheduleArrival(p->next_arrival, p->next_on_link);
  }
  ++stats_->packet_hops;
  peer_->Receive(p, peer_port_);
}

}  // namespace dcqcn
