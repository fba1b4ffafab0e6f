// Egress port: transmission, wake-ups and PFC pause state.
#include "net/egress_port.h"

namespace dcqcn {

void EgressPort::Kick() {
  if (busy_) return;
  Time now = sim_->Now();
  Time wake = kTimeNever;
  Packet* p = NextPacket(now, &wake);
  if (p == nullptr) {
    if (wake != kTimeNever) WakeAt(wake);
    return;
  }
  busy_ = true;
  Time tx = link_->Transmit(p);
  sim_->Schedule(now + tx, this, kTxDone, 0);
}

void EgressPort::WakeAt(Time t) {
  Time now = sim_->Now();
  if (t < now) t = now;
  // A pending earlier wake-up covers this one: Kick() re-evaluates everything.
  if (wake_at_ > now && wake_at_ <= t) return;
  wake_at_ = t;
  sim_->Schedule(t, this, kWake, ++wake_gen_);
}

void EgressPort::HandleEvent(uint32_t kind, uint64_t arg) {
  if (kind == kTxDone) {
    busy_ = false;
  } else if (arg != wake_gen_) {
    return;  // superseded wake-up
  } else {
    wake_at_ = kTimeNever;
  }
  Kick();
}

void EgressPort::OnPauseFrame(int priority, int quanta, bool until_resume) {
  Time now = sim_->Now();
  if (stats_->log_pfc) {
    stats_->pfc_log.push_back(
        {now, node_id_, port_index_, static_cast<uint8_t>(priority), quanta != 0});
  }
  if (quanta == 0) {
    paused_until_[priority] = now;
    Kick();
    return;
  }
  paused_until_[priority] =
      until_resume ? kTimeNever : now + PauseQuantaToTime(quanta, link_->rate());
  // Expiry is noticed by NextPacket (it reports the expiry as a wake-up time when data waits).
}

}  // namespace dcqcn
