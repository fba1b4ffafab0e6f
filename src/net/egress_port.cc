// Egress port: transmission, wake-ups and PFC pause state.
#include "net/egress_port.h"

#include <algorithm>
#include <cstddef>

namespace dcqcn {

// The layout egress_port.h's comment describes, checked: a reordering that breaks it fails to
// compile (SwitchPortLayout, in switch_node.cc, checks the four lines). offsetof on a class with
// virtual functions is only conditionally supported and warns; GCC and Clang give the real
// offsets, which is what we check.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
struct EgressPortLayout {
  // What a packet passing the port reads (Kick, Send, paused) lies in its first line.
  static_assert(offsetof(EgressPort, sim_) + sizeof(EgressPort::sim_) <= 64);
  static_assert(offsetof(EgressPort, stats_) + sizeof(EgressPort::stats_) <= 64);
  static_assert(offsetof(EgressPort, busy_until_) + sizeof(EgressPort::busy_until_) <= 64);
  static_assert(offsetof(EgressPort, paused_until_max_) + sizeof(EgressPort::paused_until_max_) <=
                64);
  static_assert(offsetof(EgressPort, port_index_) + sizeof(EgressPort::port_index_) <= 64);
};
#pragma GCC diagnostic pop

void EgressPort::Kick() {
  Time now = sim_->Now();
  if (!idle(now)) {
    WakeAt(busy_until_);
    return;
  }
  Time wake = kTimeNever;
  Packet* p = NextPacket(now, &wake);
  if (p == nullptr) {
    if (wake != kTimeNever) WakeAt(wake);
    return;
  }
  Send(p, now);
}

void EgressPort::Send(Packet* p, Time now) {
  SendAlone(p, now);
  // No event marks the end of the transmission unless something already waits to follow it:
  // a packet that arrives later finds the port free (or schedules the wake-up itself).
  Time next = NextReadyTime(now);
  if (next != kTimeNever) WakeAt(std::max(next, busy_until_));
}

void EgressPort::WakeAt(Time t) {
  Time now = sim_->Now();
  if (t < now) t = now;
  // A pending earlier wake-up covers this one: Kick() re-evaluates everything.
  if (wake_at_ > now && wake_at_ <= t) return;
  wake_at_ = t;
  sim_->Schedule(t, this, 0, ++wake_gen_);
}

void EgressPort::HandleEvent(uint32_t, uint64_t gen) {
  if (gen != wake_gen_) return;  // superseded wake-up
  wake_at_ = kTimeNever;
  Kick();
}

void EgressPort::EndPause(int priority) {
  const Time now = sim_->Now();
  if (pause_ && pause_->until[priority] > now) {
    pause_->until[priority] = now;
    Kick();
  }
}

void EgressPort::AdoptPauseState(const PauseState& state) {
  pause_ = std::make_unique<PauseState>(state);
  for (const Time until : state.until) paused_until_max_ = std::max(paused_until_max_, until);
}

Time EgressPort::paused_time(int priority, Time now) const {
  if (!pause_) return 0;
  const Time until = pause_->until[priority];
  const Time since = pause_->since[priority];
  return pause_->ended[priority] + std::max<Time>(0, std::min(until, now) - since);
}

void EgressPort::OnPauseFrame(int priority, int quanta, bool until_resume, int hops) {
  Time now = sim_->Now();
  if (stats_->log_pfc) {
    stats_->pfc_log.push_back({now, node_id_, port_index_, static_cast<uint8_t>(priority),
                               quanta != 0, sim_->running_order()});
  }
  if (!pause_) pause_ = std::make_unique<PauseState>();
  std::array<Time, kNumPriorities>& until = pause_->until;
  if (quanta == 0) {
    until[priority] = std::min(until[priority], now);  // a pause that had expired ended then
    Kick();
    return;
  }
  pause_->hops = pause_->hops == 0 ? hops : std::min(pause_->hops, hops);
  if (until[priority] <= now) {  // a new pause, not a refresh: the last one has ended
    pause_->ended[priority] += std::max<Time>(0, until[priority] - pause_->since[priority]);
    pause_->since[priority] = now;
  }
  until[priority] = until_resume ? kTimeNever : now + PauseQuantaToTime(quanta, link_->rate());
  paused_until_max_ = std::max(paused_until_max_, until[priority]);
  // Expiry is noticed by NextPacket (it reports the expiry as a wake-up time when data waits).
}

}  // namespace dcqcn
