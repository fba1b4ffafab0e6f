// DCQCN NIC glue: lazily created per-flow state, timers with lazy cancellation, pacer updates.
#include "cc/dcqcn.h"

#include <cmath>

namespace dcqcn {

void DcqcnCc::Apply(uint32_t slot) {
  RpSlot& s = rps_[slot];
  Rate rate = std::llround(s.rp.rc());
  if (rate != s.flow->rate) host_->SetRate(*s.flow, rate);
  Time deadline = s.rp.next_deadline();
  if (deadline < s.scheduled_at) {
    s.scheduled_at = deadline;
    sim_->Schedule(deadline, this, kRpTimer, slot);
  }
}

void DcqcnCc::OnPacketSent(Flow& f, Bytes bytes) {
  if (f.cc_sender_slot == UINT32_MAX) return;  // never saw a CNP: no state, no work
  rps_[f.cc_sender_slot].rp.OnBytesSent(sim_->Now(), bytes);
  Apply(f.cc_sender_slot);
}

void DcqcnCc::OnCnp(Flow& f) {
  if (f.sender_done) return;
  if (f.cc_sender_slot == UINT32_MAX) {
    f.cc_sender_slot = static_cast<uint32_t>(rps_.size());
    rps_.push_back(
        {DcqcnRp(p_, f.line_rate, static_cast<double>(f.rate), sim_->Now()), &f, kTimeNever});
  }
  rps_[f.cc_sender_slot].rp.OnCnp(sim_->Now());
  Apply(f.cc_sender_slot);
}

void DcqcnCc::OnFlowDone(Flow& f) {
  if (f.cc_sender_slot != UINT32_MAX) rps_[f.cc_sender_slot].rp.Stop();
}

void DcqcnCc::OnDataArrival(Flow& f, bool ce) {
  if (!ce || p_->cnp_on_ack) return;
  Time now = sim_->Now();
  if (f.cc_receiver_slot == UINT32_MAX) {
    f.cc_receiver_slot = static_cast<uint32_t>(nps_.size());
    nps_.push_back({DcqcnNp(p_->cnp_interval), &f, kTimeNever});
  }
  NpSlot& s = nps_[f.cc_receiver_slot];
  if (s.np.OnMarkedPacket(now)) {
    host_->SendCnp(f);
    return;
  }
  Time deadline = s.np.next_deadline();
  if (deadline < s.scheduled_at) {
    s.scheduled_at = deadline;
    sim_->Schedule(deadline, this, kNpTimer, f.cc_receiver_slot);
  }
}

void DcqcnCc::HandleEvent(uint32_t kind, uint64_t slot) {
  Time now = sim_->Now();
  if (kind == kRpTimer) {
    RpSlot& s = rps_[slot];
    if (s.scheduled_at != now) return;  // superseded
    s.scheduled_at = kTimeNever;
    s.rp.AdvanceTo(now);
    Apply(static_cast<uint32_t>(slot));
    return;
  }
  NpSlot& s = nps_[slot];
  if (s.scheduled_at != now) return;
  s.scheduled_at = kTimeNever;
  if (s.np.OnTimer(now)) host_->SendCnp(*s.flow);
}

CongestionControl::RateSample DcqcnCc::Sample(const Flow& f) const {
  if (f.cc_sender_slot == UINT32_MAX) return {f.rate, f.rate, 0.0};
  const DcqcnRp& rp = rps_[f.cc_sender_slot].rp;
  return {std::llround(rp.rc()), std::llround(rp.rt()), rp.alpha(sim_->Now())};
}

CcCounters DcqcnCc::counters() const {
  CcCounters c;
  for (const RpSlot& s : rps_) {
    const DcqcnRpCounters& r = s.rp.counters();
    c.rate_cuts += r.cuts;
    c.fast_recovery += r.fast_recovery;
    c.additive_increase += r.additive;
    c.hyper_increase += r.hyper;
    c.timer_events += r.timer_events;
    c.byte_counter_events += r.byte_events;
  }
  c.flows_with_state = rps_.size();
  return c;
}

}  // namespace dcqcn
