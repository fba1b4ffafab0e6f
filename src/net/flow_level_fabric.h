// The flow-level model (scenario key `model = "flow"`): each flow that the packet model would
// send through NICs and switches is a fluid stream instead, at its max-min fair share of the
// egress ports its packets would cross (the same ECMP hash, the same NIC port), computed again
// whenever a flow starts or stops sending, for the streams it shares ports with (and theirs,
// and so on: the others' shares are as they were). A flow's frames take `weight` of each port on
// its way per byte of payload (headers, preamble and gap), and its ACKs a share of each port on the
// way back, so a rank that sends and receives at once gets what the packet model gives it on an
// idle fabric.
//
// A flow's times: its first frame crosses the path hop by hop (`latency`, stored and forwarded,
// as on an idle fabric); the rest of its bytes stream at its share from its start; its last
// byte leaves the sender `first_frame` after the stream ends and is delivered `latency` after;
// its last ACK reaches the sender `ack_flight` after that.
//
// What it leaves out, by design: queues, ECN, PFC, drops and congestion control's dynamics
// (every flow gets its fair share at once, as an ideal controller would give it). NVLink
// transfers keep their own fluid model (nvlink_fabric.h).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "core/max_min.h"
#include "core/simulator.h"
#include "core/units.h"

namespace dcqcn {

class FlowLevelFabric final : public EventHandler {
 public:
  struct Path {
    std::vector<LinkUse> uses;  // ports (indices into the capacities) and wire bits per bit
    Time latency = 0;           // the first frame's time from sender to receiver
    Time first_frame = 0;       // its time on the sender's link
    Time ack_flight = 0;        // from delivery to the sender's last ACK
    double stream_bits = 0;     // the payload bits after the first frame
  };
  struct Callbacks {
    std::function<void(uint32_t)> sent;       // the last byte left the sender (empty: none)
    std::function<void(uint32_t)> delivered;  // it reached the receiver
    std::function<void(uint32_t)> acked;      // its ACK reached the sender
  };
  // `capacity`: each port's rate in bits per second.
  FlowLevelFabric(Simulator* sim, std::vector<double> capacity, Callbacks callbacks);

  // Starts flow `id` now.
  void Start(uint32_t id, const Path& path);
  // Flows started and not yet acknowledged.
  int active() const { return active_; }
  // How many times the shares were computed, and over how many streams in all (its cost).
  uint64_t reshares() const { return reshares_; }
  uint64_t streams_reshared() const { return streams_reshared_; }
  // The wire bits each port has carried so far (frames and ACKs), by capacity index.
  const std::vector<double>& carried_bits();
  void HandleEvent(uint32_t kind, uint64_t arg) override;

 private:
  enum Kind : uint32_t { kReshare = 0, kStreamed = 1, kSent = 2, kDelivered = 3, kAcked = 4 };
  // A flow while it streams, in a slot of pool_ that a later stream reuses: a recomputation
  // reaches each stream of its ports, and slots recycled in a few warm lines cost it less than a
  // table by flow id spread over memory. One cache line each; its path's ports are in uses_of_.
  struct alignas(64) Stream {
    static constexpr uint32_t kFree = UINT32_MAX;
    uint32_t id = kFree;      // the flow's, kFree while the slot is free
    uint32_t generation = 0;  // of its pending kStreamed event; older ones are stale (it keeps
                              // counting across reuses of the slot)
    uint32_t seen = 0;        // the last reshare that gathered it
    uint16_t uses = 0;        // how many ports its path takes
    bool scheduled = false;   // its end has been scheduled since it started
    double bits_left = 0;     // as of `since`
    double rate = 0;          // payload bits per second, its current share
    Time since = 0;
    Time latency = 0, first_frame = 0, ack_flight = 0;  // its path's, for what follows
  };
  static_assert(sizeof(Stream) == 64);
  // The ports of the stream in `slot`'s path.
  std::span<const LinkUse> UsesOf(uint32_t slot) const {
    return {uses_of_.data() + static_cast<size_t>(slot) * stride_, pool_[slot].uses};
  }
  // Makes room for paths of `stride` ports in every slot, keeping the streams' own.
  void Restride(size_t stride);
  // Brings the stream in `slot`'s bits left and its ports' carried bits up to now.
  void Advance(uint32_t slot);
  // Asks for new shares at this instant, once however many flows start or stop in it.
  void ReshareNow();
  // New shares for the streams connected, through the ports they share, to a port where a
  // stream started or stopped; the others' shares cannot have changed.
  void Reshare();
  // Flow `id` has streamed: its last frame, delivery and ACK follow, `first_frame`, `latency`
  // and `latency + ack_flight` from now.
  void Streamed(uint32_t id, Time latency, Time first_frame, Time ack_flight);
  // When the stream in `slot` ends at its share, as a kStreamed event.
  void ScheduleEnd(uint32_t slot);

  Simulator* sim_;
  MaxMinSolver solver_;                         // over every port's capacity
  std::vector<double> carried_;                 // carried_bits, up to each stream's `since`
  std::vector<std::span<const LinkUse>> uses_;  // the gathered streams' paths, for the solver
  Callbacks callbacks_;
  std::vector<Stream> pool_;  // the streams, by slot
  // The streams' paths, `stride_` entries a slot (the longest path so started): read at every
  // recomputation, so in one array beside the slots rather than one allocation each.
  std::vector<LinkUse> uses_of_;
  size_t stride_ = 0;
  std::vector<uint32_t> free_;                  // free slots, the last freed last
  std::vector<std::vector<uint32_t>> on_port_;  // the slots of the streams crossing each port
  std::vector<uint32_t> changed_;               // ports where a stream started or stopped
  std::vector<uint32_t> port_seen_;             // the last reshare that gathered each port
  std::vector<std::pair<uint32_t, uint32_t>> gathered_;  // (flow id, slot) of this reshare
  uint32_t reshare_count_ = 0;
  bool reshare_pending_ = false;
  int active_ = 0;
  uint64_t reshares_ = 0;
  uint64_t streams_reshared_ = 0;
};

}  // namespace dcqcn
