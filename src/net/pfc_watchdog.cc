// PFC watchdog: detection, mitigation and restoration of stormed queues.
#include "net/pfc_watchdog.h"

#include "net/switch_node.h"

namespace dcqcn {

bool PfcWatchdog::OnPfcFrame(int port, int priority, bool pause) {
  Slot& s = slot(port, priority);
  if (pause) s.last_pause = sim_->Now();
  return s.stormed;
}

void PfcWatchdog::AfterPause(int port, int priority) {
  Slot& s = slot(port, priority);
  const Time now = sim_->Now();
  const SwitchPort& p = owner_->port(port);
  if (s.stormed || p.paused_since(priority) != now) return;  // a refresh: its check is pending
  s.pause_since = now;
  ScheduleAt(kDetect, now + config_.detection, port, priority);
}

void PfcWatchdog::ScheduleAt(Kind kind, Time at, int port, int priority) {
  Slot& s = slot(port, priority);
  (kind == kDetect ? s.next_detect : s.next_restore) = at;
  sim_->Schedule(at, this, kind, static_cast<uint64_t>(port * kNumPriorities + priority));
}

void PfcWatchdog::HandleEvent(uint32_t kind, uint64_t arg) {
  const int port = static_cast<int>(arg) / kNumPriorities;
  const int priority = static_cast<int>(arg) % kNumPriorities;
  const Slot& s = slot(port, priority);
  const Time now = sim_->Now();
  if (kind == kDetect && now == s.next_detect) Detect(port, priority);
  if (kind == kRestore && now == s.next_restore) Restore(port, priority);
}

void PfcWatchdog::Detect(int port, int priority) {
  Slot& s = slot(port, priority);
  s.next_detect = kTimeNever;
  SwitchPort& p = owner_->port(port);
  // The pause ended (or a new one began, which has its own check).
  if (s.stormed || !p.paused(priority) || p.paused_since(priority) != s.pause_since) return;
  if (p.queued_packets(priority) == 0) {
    // Paused but nothing waits: not a storm yet; a poll a period later looks again.
    ScheduleAt(kDetect, sim_->Now() + config_.detection, port, priority);
    return;
  }
  s.stormed = true;
  ++stats_->pfc_watchdog_storms;
  // The quiet period that restores the queue counts from the storm at the earliest.
  s.last_pause = sim_->Now();
  // Dropped before the pause ends, or the port would send the first of them.
  if (config_.action == PfcWatchdogConfig::Action::kDrop) owner_->DropQueue(port, priority);
  p.EndPause(priority);
  ScheduleAt(kRestore, s.last_pause + config_.restoration, port, priority);
}

void PfcWatchdog::Restore(int port, int priority) {
  Slot& s = slot(port, priority);
  s.next_restore = kTimeNever;
  if (!s.stormed) return;
  const Time quiet_until = s.last_pause + config_.restoration;
  if (sim_->Now() < quiet_until) {
    ScheduleAt(kRestore, quiet_until, port, priority);  // PAUSE kept coming
    return;
  }
  s.stormed = false;
  ++stats_->pfc_watchdog_restorations;
}

}  // namespace dcqcn
