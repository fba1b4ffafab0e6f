// Link: serialization, propagation and in-order delivery.
#include "net/link.h"

#include "net/headers.h"

namespace dcqcn {

Time Link::Transmit(Packet* p) {
  if (send_tap_ != nullptr) send_tap_->OnPacket(*p, sim_->Now());
  Bytes wire = p->size + gap_;
  busy_bytes_ += wire;
  Time tx;
  if (ps_per_byte_ != 0) {
    tx = wire * ps_per_byte_;
    if (whole_ns_) tx -= tx % kNanosecond;
  } else {
    tx = WireFormat::WireTime(wire, rate_, whole_ns_);
  }
  Time arrival = sim_->Now() + tx + delay_;
  // Transmissions on one link are serialized and the delay is constant, so arrivals are
  // monotonic and the ring is in arrival order.
  if (ring_.empty()) sim_->Schedule(arrival, this, 0, 0);
  ring_.push_back({arrival, p});
  return tx;
}

void Link::HandleEvent(uint32_t, uint64_t) {
  InFlight head = ring_.pop_front();
  if (!ring_.empty()) sim_->Schedule(ring_.front().arrival, this, 0, 0);
  ++stats_->packet_hops;
  if (arrival_tap_ != nullptr) arrival_tap_->OnPacket(*head.packet, sim_->Now());
  peer_->Receive(head.packet, peer_port_);
}

}  // namespace dcqcn
