// Egress port: transmission, wake-ups and PFC pause state.
#include "net/egress_port.h"

#include <algorithm>

namespace dcqcn {

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

void EgressPort::OnPauseFrame(int priority, int quanta, bool until_resume) {
  Time now = sim_->Now();
  if (stats_->log_pfc) {
    stats_->pfc_log.push_back(
        {now, node_id_, port_index_, static_cast<uint8_t>(priority), quanta != 0});
  }
  if (!paused_until_) paused_until_ = std::make_unique<std::array<Time, kNumPriorities>>();
  std::array<Time, kNumPriorities>& until = *paused_until_;
  if (quanta == 0) {
    until[priority] = now;
    Kick();
    return;
  }
  until[priority] = until_resume ? kTimeNever : now + PauseQuantaToTime(quanta, link_->rate());
  paused_until_max_ = std::max(paused_until_max_, until[priority]);
  // Expiry is noticed by NextPacket (it reports the expiry as a wake-up time when data waits).
}

}  // namespace dcqcn
