// TIMELY NIC glue: one sender state per flow, created when the flow starts.
#include "cc/timely.h"

namespace dcqcn {

void TimelyCc::OnFlowStart(CcFlow& f) {
  f.cc_sender_slot = static_cast<uint32_t>(rps_.size());
  rps_.emplace_back(p_, f.line_rate);
  host_->SetRate(f, f.line_rate);
}

void TimelyCc::OnAck(CcFlow& f, const AckEvent& ack) {
  TimelyRp& rp = rps_[f.cc_sender_slot];
  if (rp.OnAck(ack.acked, ack.sent, ack.rtt)) host_->SetRateAfterNextPacket(f, rp.rate());
}

CcCounters TimelyCc::counters() const {
  CcCounters c;
  for (const TimelyRp& rp : rps_) {
    c.rate_cuts += rp.counters().decreases;
    c.additive_increase += rp.counters().increases;
    c.hyper_increase += rp.counters().hyper_increases;
  }
  return c;
}

}  // namespace dcqcn
