// The transmit side of a port: sends one frame at a time onto its link, honours the PFC pause
// state the peer imposed on it, and asks its owner (switch queues or NIC scheduler) which packet
// goes next. A pause takes effect after the frame in transmission, because the owner is only
// asked between frames.
#pragma once

#include <array>
#include <memory>
#include <optional>

#include "core/simulator.h"
#include "net/headers.h"
#include "net/link.h"

namespace dcqcn {

class EgressPort : public EventHandler {
 public:
  EgressPort(Simulator* sim, NetStats* stats, int node_id, int port_index)
      : sim_(sim), stats_(stats), node_id_(node_id), port_index_(port_index) {
    sim->Enroll(*this);
  }
  ~EgressPort() override = default;

  // Cables the port: its link, of `rate` and `delay`, to `peer`'s port `peer_port`. In a run
  // split over threads, `peer_sim` and `peer_stats` are the peer's thread's (the arrivals run
  // there).
  void Connect(Rate rate, Time delay, Node* peer, int peer_port, const WireFormat& wire,
               Simulator* peer_sim = nullptr, NetStats* peer_stats = nullptr) {
    link_.emplace(peer_sim != nullptr ? peer_sim : sim_,
                  peer_stats != nullptr ? peer_stats : stats_, rate, delay, peer, peer_port, wire);
  }
  Link& link() { return *link_; }
  const Link& link() const { return *link_; }
  Rate rate() const { return link_->rate(); }
  int node_id() const { return node_id_; }
  int index() const { return port_index_; }

  // Starts transmitting if the port is idle and a packet is eligible.
  void Kick();
  // A PFC frame for `priority` arrived on this interface from the peer.
  // `hops`: the frame's Packet::switch_hops.
  void OnPauseFrame(int priority, int quanta, bool until_resume, int hops = 1);
  bool paused(int priority) const {
    // The array exists once the latest expiry has been set: one comparison for most ports.
    const Time now = sim_->Now();
    return paused_until_max_ > now && pause_->until[priority] > now;
  }
  Time paused_until(int priority) const { return pause_ ? pause_->until[priority] : 0; }
  // While `priority` is paused: since when, without a break (refreshes extend a pause).
  Time paused_since(int priority) const { return pause_ ? pause_->since[priority] : 0; }
  // The pause of `priority` ends now, whatever the peer asked (a PFC watchdog overrides it).
  void EndPause(int priority);
  // How long `priority` has been paused up to `now`, over the whole run.
  Time paused_time(int priority, Time now) const;
  // Congestion spreading: the fewest hops any PAUSE this port obeyed had travelled from a node
  // that nothing paused (1: paused by congestion of its own), or 0 if never paused.
  int pause_hops() const { return pause_ ? pause_->hops : 0; }

  // When each class's PAUSE expires and since when it has lasted; made by the first PFC frame
  // (most ports never see one).
  struct PauseState {
    std::array<Time, kNumPriorities> until{};
    std::array<Time, kNumPriorities> since{};
    std::array<Time, kNumPriorities> ended{};  // paused time of the pauses that have ended
    int hops = 0;
  };
  // The port's pause state (null: never paused), and taking another's: a run spread over
  // processes brings the state of the ports other processes ran to the one writing results.
  const PauseState* pause_state() const { return pause_.get(); }
  void AdoptPauseState(const PauseState& state);

  void HandleEvent(uint32_t kind, uint64_t arg) override;

 protected:
  // The owner's choice of the next packet to send now, or nullptr. When it returns nullptr
  // but something will become eligible later (pacer, pause expiry), it sets *wake_at.
  virtual Packet* NextPacket(Time now, Time* wake_at) = 0;
  // After a transmission: the earliest time the owner may have another packet (`now` when one
  // is queued), or kTimeNever when nothing waits. An early answer costs one wasted wake-up.
  virtual Time NextReadyTime(Time now) const = 0;
  // Nothing on the wire at `now`: a Kick now would ask the owner for a packet.
  bool idle(Time now) const { return now >= busy_until_; }
  // Transmits `p`, which the owner has just taken off its queues as NextPacket would have, and
  // wakes up when the next packet may follow (what Kick does once it has a packet).
  void Send(Packet* p, Time now);
  // Send when the owner knows that nothing else waits (NextReadyTime would say kTimeNever).
  void SendAlone(Packet* p, Time now) { busy_until_ = now + link_->Transmit(p, now); }
  Simulator* sim_;
  NetStats* stats_;

 private:
  friend struct EgressPortLayout;  // egress_port.cc: static_asserts of the order below
  void WakeAt(Time t);
  // What a packet passing the port reads comes first, then the link (its hot part first), then
  // the owner's part (SwitchPort): four lines where there were six, on a large fabric where each
  // is a likely cache miss.
  Time busy_until_ = 0;        // the frame on the wire finishes then
  Time paused_until_max_ = 0;  // no class is paused once this has passed (most ports, always)
  int node_id_;
  int port_index_;
  Time wake_at_ = kTimeNever;  // earliest pending wake-up (lazily cancelled)
  uint64_t wake_gen_ = 0;
  // Held in the port, not behind a pointer: every packet the port sends touches both.
  std::optional<Link> link_;
  std::unique_ptr<PauseState> pause_;
};

}  // namespace dcqcn
