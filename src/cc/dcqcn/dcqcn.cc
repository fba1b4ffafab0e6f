// DCQCN NIC glue: lazily created per-flow state, timers with lazy cancellation, pacer updates,
// the CNP generator's queue.
#include "cc/dcqcn/dcqcn.h"

#include <algorithm>
#include <cmath>

namespace dcqcn {

const CcCounterSpec DcqcnCc::kCounters[12] = {
    {"rate_cuts", CcCounterKind::kCount, "rate cuts (CNPs that cut, or sampled cuts)"},
    {"fast_recovery_events", CcCounterKind::kCount, "increase events in fast recovery"},
    {"additive_increase_events", CcCounterKind::kCount, "additive-increase events"},
    {"hyper_increase_events", CcCounterKind::kCount, "hyper-increase events"},
    {"timer_events", CcCounterKind::kCount, "increase events from the timer T"},
    {"byte_counter_events", CcCounterKind::kCount, "increase events from the byte counter B"},
    {"flows_that_saw_cnps", CcCounterKind::kCount, "flows whose sender ever got a CNP"},
    {"cnps_delayed", CcCounterKind::kCount,
     "CNPs that waited behind other flows' CNPs at a busy generator (cnp_service_time > 0)"},
    {"cnp_wait_total", CcCounterKind::kTime, "the sum of those waits, without service times"},
    {"cnp_wait_max", CcCounterKind::kMaxTime, "the longest of those waits"},
    {"cnp_queue_max", CcCounterKind::kMaxCount,
     "the longest queue of due CNPs at one NIC's generator, the one in service included"},
    {"cnp_marks_coalesced", CcCounterKind::kCount,
     "marks folded into a CNP that was still waiting for the generator"},
};

template <class Slot>
uint32_t DcqcnCc::NewSlot(std::vector<Slot>& slots, uint32_t& free_head, Slot fresh) {
  if (free_head == UINT32_MAX) {
    slots.push_back(fresh);
    return static_cast<uint32_t>(slots.size() - 1);
  }
  const uint32_t slot = free_head;
  free_head = slots[slot].next_free;
  fresh.generation = slots[slot].generation;
  slots[slot] = fresh;
  return slot;
}

template <class Slot>
void DcqcnCc::FreeSlot(std::vector<Slot>& slots, uint32_t& free_head, uint32_t slot) {
  slots[slot].flow = nullptr;
  ++slots[slot].generation;  // its pending timer, if any, is now stale
  slots[slot].next_free = free_head;
  free_head = slot;
}

void DcqcnCc::Apply(uint32_t slot) {
  RpSlot& s = rps_[slot];
  Rate rate = std::llround(s.rp.rc());
  if (rate != s.flow->rate) host_->SetRate(*s.flow, rate);
  Time deadline = s.rp.next_deadline();
  if (deadline < s.scheduled_at) {
    s.scheduled_at = deadline;
    sim_->Schedule(deadline, this, kRpTimer, TimerArg(slot, s));
  }
}

void DcqcnCc::OnPacketSent(CcFlow& f, Bytes bytes) {
  if (f.cc_sender_slot == UINT32_MAX) return;  // never saw a CNP: no state, no work
  rps_[f.cc_sender_slot].rp.OnBytesSent(sim_->Now(), bytes);
  Apply(f.cc_sender_slot);
}

void DcqcnCc::OnCnp(CcFlow& f) {
  if (f.sender_done) return;
  if (f.cc_sender_slot == UINT32_MAX) {
    f.cc_sender_slot = NewSlot(
        rps_, free_rps_,
        {DcqcnRp(p_, f.line_rate, static_cast<double>(f.rate), sim_->Now()), &f, kTimeNever});
  }
  rps_[f.cc_sender_slot].rp.OnCnp(sim_->Now());
  Apply(f.cc_sender_slot);
}

void DcqcnCc::OnFlowContinue(CcFlow& from, CcFlow& to) {
  const uint32_t slot = from.cc_sender_slot;
  host_->SetRate(to, from.rate);
  if (slot == UINT32_MAX) return;  // never saw a CNP: nothing to carry over
  from.cc_sender_slot = UINT32_MAX;
  to.cc_sender_slot = slot;
  rps_[slot].flow = &to;  // its pending timer now paces `to`
  Apply(slot);
}

void DcqcnCc::OnFlowDone(CcFlow& f) {
  if (f.cc_sender_slot != UINT32_MAX) rps_[f.cc_sender_slot].rp.Stop();
}

void DcqcnCc::OnDataArrival(CcFlow& f, bool ce) {
  if (!ce || p_->cnp_on_ack) return;
  Time now = sim_->Now();
  if (f.cc_receiver_slot == UINT32_MAX) {
    f.cc_receiver_slot = NewSlot(nps_, free_nps_, {DcqcnNp(p_->cnp_interval), &f, kTimeNever});
  }
  NpSlot& s = nps_[f.cc_receiver_slot];
  if (s.np.waiting()) ++counts_.cnp_marks_coalesced;
  if (s.np.OnMarkedPacket(now)) {
    GenerateCnp(f.cc_receiver_slot);
    return;
  }
  Time deadline = s.np.next_deadline();
  if (deadline < s.scheduled_at) {
    s.scheduled_at = deadline;
    sim_->Schedule(deadline, this, kNpTimer, TimerArg(f.cc_receiver_slot, s));
  }
}

void DcqcnCc::GenerateCnp(uint32_t slot) {
  NpSlot& s = nps_[slot];
  const Time now = sim_->Now();
  if (p_->cnp_service_time == 0) {
    s.np.OnCnpSent(now);
    host_->SendCnp(*s.flow);
    return;
  }
  s.cnp_due = now;
  cnp_queue_.push_back(slot);
  const size_t waiting = cnp_queue_.size() - cnp_head_;
  counts_.cnp_queue_max = std::max<uint64_t>(counts_.cnp_queue_max, waiting);
  if (waiting == 1) sim_->Schedule(now + p_->cnp_service_time, this, kCnpGenerated, 0);
}

void DcqcnCc::HandleEvent(uint32_t kind, uint64_t arg) {
  Time now = sim_->Now();
  const auto slot = static_cast<uint32_t>(arg);
  const auto generation = static_cast<uint32_t>(arg >> 32);
  if (kind == kCnpGenerated) {
    NpSlot& s = nps_[cnp_queue_[cnp_head_++]];
    if (cnp_head_ == cnp_queue_.size()) {
      cnp_queue_.clear();
      cnp_head_ = 0;
    } else if (cnp_head_ >= 64 && 2 * cnp_head_ >= cnp_queue_.size()) {
      // Always busy: drop the served front now and then, so the vector stays within twice the
      // queue.
      cnp_queue_.erase(cnp_queue_.begin(), cnp_queue_.begin() + static_cast<ptrdiff_t>(cnp_head_));
      cnp_head_ = 0;
    }
    const Time wait = now - s.cnp_due - p_->cnp_service_time;
    if (wait > 0) {
      ++counts_.cnps_delayed;
      counts_.cnp_wait_total += wait;
      counts_.cnp_wait_max = std::max(counts_.cnp_wait_max, wait);
    }
    s.np.OnCnpSent(now);
    host_->SendCnp(*s.flow);
    if (cnp_head_ < cnp_queue_.size()) {
      sim_->Schedule(now + p_->cnp_service_time, this, kCnpGenerated, 0);
    }
    return;
  }
  if (kind == kRpTimer) {
    RpSlot& s = rps_[slot];
    // Superseded, or its flow retired.
    if (s.generation != generation || s.scheduled_at != now) return;
    s.scheduled_at = kTimeNever;
    s.rp.AdvanceTo(now);
    Apply(slot);
    return;
  }
  NpSlot& s = nps_[slot];
  if (s.generation != generation || s.scheduled_at != now) return;
  s.scheduled_at = kTimeNever;
  if (s.np.OnTimer(now)) GenerateCnp(slot);
}

CongestionControl::RateSample DcqcnCc::Sample(const CcFlow& f) const {
  // No CNP yet, so no RP state: alpha is still its initial value (the first CNP cuts by it).
  if (f.cc_sender_slot == UINT32_MAX) return {f.rate, f.rate, p_->initial_alpha};
  const DcqcnRp& rp = rps_[f.cc_sender_slot].rp;
  return {std::llround(rp.rc()), std::llround(rp.rt()), rp.alpha(sim_->Now())};
}

CcCounters DcqcnCc::counters() const {
  Counts n = counts_;
  for (const RpSlot& s : rps_) {
    if (s.flow == nullptr) continue;
    n.rp += s.rp.counters();
    ++n.flows_with_state;
  }
  CcCounters c(kCounters);
  c[kRateCuts] = static_cast<int64_t>(n.rp.cuts);
  c[kFastRecovery] = static_cast<int64_t>(n.rp.fast_recovery);
  c[kAdditiveIncrease] = static_cast<int64_t>(n.rp.additive);
  c[kHyperIncrease] = static_cast<int64_t>(n.rp.hyper);
  c[kTimerEvents] = static_cast<int64_t>(n.rp.timer_events);
  c[kByteCounterEvents] = static_cast<int64_t>(n.rp.byte_events);
  c[kFlowsWithState] = static_cast<int64_t>(n.flows_with_state);
  c[kCnpsDelayed] = static_cast<int64_t>(n.cnps_delayed);
  c[kCnpWaitTotal] = n.cnp_wait_total;
  c[kCnpWaitMax] = n.cnp_wait_max;
  c[kCnpQueueMax] = static_cast<int64_t>(n.cnp_queue_max);
  c[kCnpMarksCoalesced] = static_cast<int64_t>(n.cnp_marks_coalesced);
  return c;
}

bool DcqcnCc::ReceiverIdle(const CcFlow& f) const {
  if (f.cc_receiver_slot == UINT32_MAX) return true;
  const DcqcnNp& np = nps_[f.cc_receiver_slot].np;
  return !np.waiting() && np.next_deadline() == kTimeNever;
}

void DcqcnCc::ReleaseSender(CcFlow& f) {
  if (f.cc_sender_slot == UINT32_MAX) return;
  counts_.rp += rps_[f.cc_sender_slot].rp.counters();
  ++counts_.flows_with_state;
  FreeSlot(rps_, free_rps_, f.cc_sender_slot);
  f.cc_sender_slot = UINT32_MAX;
}

void DcqcnCc::ReleaseReceiver(CcFlow& f) {
  if (f.cc_receiver_slot == UINT32_MAX) return;
  FreeSlot(nps_, free_nps_, f.cc_receiver_slot);
  f.cc_receiver_slot = UINT32_MAX;
}

}  // namespace dcqcn
