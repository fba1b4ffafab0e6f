// One RDMA flow in flight (a reliable-connected queue pair and its message): what the NIC needs
// of its spec, the sender's transport and pacing state, the receiver's state and the
// measurements. It exists from the flow's start until it retires (FlowTable).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "cc/cc_flow.h"
#include "core/units.h"

namespace dcqcn {

// CcFlow holds the id, the rates and the congestion-control slots. Three groups of lines: what
// the sender writes, what nobody writes after the start (read by the switches and both ends),
// and what the receiver writes; a run split over threads runs a flow's sender, switches and
// receiver in different threads, and a line two threads write would bounce between their cores.
struct Flow : CcFlow {
  // Sender (requester) side.
  // Frame bytes of the packet that left last (0: none yet), from which a rate change re-times
  // the next departure (HPCC ns-3's lastPktSize): after go-back-N it is not PSN snd_nxt - 1.
  uint32_t last_frame = 0;
  uint32_t snd_nxt = 0;  // next PSN to send
  uint32_t snd_una = 0;  // oldest unacknowledged PSN
  Time next_avail = 0;   // pacer: earliest time the next packet may leave
  Time last_tx = 0;      // when the packet of last_frame left (pacer re-timing on rate change)
  Time rto_deadline = kTimeNever;
  bool rto_timer_pending = false;
  enum Sched : uint8_t { kIdle = 0, kReady = 1, kPacing = 2 };
  Sched sched = kIdle;    // idle, in the NIC's ready ring, or in its pacer heap
  uint32_t high_psn = 0;  // one past the highest PSN ever sent (retransmission count)
  // host.reorder = "selective": the PSN a NACK asked for, sent before new data (kNoResend: none).
  static constexpr uint32_t kNoResend = UINT32_MAX;
  uint32_t resend_psn = kNoResend;
  Bytes window = 0;  // most bytes in flight at line rate (host.window); 0 = no limit
  // Its packets (data, ACK, NACK, CNP) in queues, on links or in the NICs' control queues are
  // counted in two halves, each written by one side only: data sent less ACK, NACK and CNP
  // taken in (here), and the receiver's receiver_packets. Their sum less what switches dropped
  // is what is left (Network::PacketsOut): the flow retires only when nothing is.
  int32_t sender_packets = 0;
  Time finish = -1;  // sender received the last ACK (as HPCC's FCT), -1 = not done
  // A connection's transfers (FlowAfter::previous) are one queue pair: `connection` is the id
  // of its first transfer (kNoConnection: a flow of its own), `stream_offset` this transfer's
  // first byte in the connection's byte stream (what ACK-driven congestion control counts in),
  // `awaiting_successor` holds a finished transfer in flight until the next one has taken its
  // congestion-control state over, and `handed_over` says the next one has (what arrives for
  // this one then acts on the connection's newest transfer).
  static constexpr uint32_t kNoConnection = UINT32_MAX;
  uint32_t connection = kNoConnection;
  bool awaiting_successor = false;
  bool handed_over = false;
  Bytes stream_offset = 0;

  // What the user asked for.
  alignas(64) int32_t src = 0;
  int32_t dst = 0;
  Bytes size = 0;
  uint32_t total_packets = 0;
  uint16_t sport = 0;  // UDP source port (ECMP entropy)
  uint8_t priority = 3;
  uint8_t nic_port = 0;  // the sender's port its queue pair is bound to (a host may have several)

  // The egress port its packets take at each switch of their path, filled when it starts
  // (Network::FillRouteCache) and only read by the switches: routes are static and a switch's
  // choice depends only on the flow and the direction, so every packet of a direction visits
  // the same switches. Index [0] is data, [1] ACK, NACK and CNP (from the receiver back); then
  // the switch's place along the path. It spares each hop the route table, which on a large
  // fabric is rarely in cache.
  static constexpr int kRouteCacheHops = 8;
  static constexpr uint16_t kUnrouted = UINT16_MAX;
  using RouteCache = std::array<std::array<uint16_t, kRouteCacheHops>, 2>;
  static constexpr RouteCache kNoRoutes = [] {
    RouteCache none;
    for (auto& direction : none) direction.fill(kUnrouted);
    return none;
  }();
  RouteCache route_cache = kNoRoutes;

  // Receiver (responder) side.
  alignas(64) uint32_t rcv_nxt = 0;  // next expected PSN
  uint32_t since_ack = 0;            // in-order packets since the last ACK
  bool nack_pending = false;         // a NACK for rcv_nxt was sent; wait for it to be filled
  uint8_t reply_port = 0;            // the receiver's port its data came in on: ACKs leave there
  int32_t receiver_packets = 0;      // ACK, NACK and CNP sent less data taken in (sender_packets)
  Bytes bytes_delivered = 0;         // in-order payload at the receiver

  // Bytes before PSN `psn`: HPCC ns-3's byte sequence numbers.
  Bytes BytesBefore(uint32_t psn, Bytes mtu) const {
    const Bytes b = static_cast<Bytes>(psn) * mtu;
    return b < size ? b : size;
  }
  Bytes PayloadOf(uint32_t psn, Bytes mtu) const {
    Bytes offset = static_cast<Bytes>(psn) * mtu;
    return size - offset < mtu ? size - offset : mtu;
  }
};

// offsetof on a type that is not standard-layout (Flow's base has members too) is only
// conditionally supported and warns; GCC and Clang give the real offsets, which is what we check.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
static_assert(offsetof(Flow, route_cache) + sizeof(Flow::route_cache) - offsetof(Flow, src) <= 64,
              "what nobody writes after the start is one line");
static_assert(offsetof(Flow, bytes_delivered) + sizeof(Flow::bytes_delivered) -
                      offsetof(Flow, rcv_nxt) <=
                  64,
              "what the receiver writes is one line");
#pragma GCC diagnostic pop

}  // namespace dcqcn
