// DCTCP NIC glue: one sender state per flow, created when the flow starts.
#include "cc/dctcp.h"

namespace dcqcn {

void DctcpCc::OnFlowStart(CcFlow& f) {
  f.cc_sender_slot = static_cast<uint32_t>(rps_.size());
  rps_.emplace_back(p_, f.line_rate, mtu_);
  host_->SetRate(f, f.line_rate);
}

void DctcpCc::OnAck(CcFlow& f, const AckEvent& ack) {
  DctcpRp& rp = rps_[f.cc_sender_slot];
  rp.OnAck(ack.acked, ack.sent, ack.echo);
  if (rp.rate() != f.rate) host_->SetRateAfterNextPacket(f, rp.rate());
}

CongestionControl::RateSample DctcpCc::Sample(const CcFlow& f) const {
  if (f.cc_sender_slot == UINT32_MAX) return {f.rate, f.rate, 0.0};
  return {f.rate, f.rate, rps_[f.cc_sender_slot].alpha()};
}

CcCounters DctcpCc::counters() const {
  CcCounters c;
  for (const DctcpRp& rp : rps_) {
    c.rate_cuts += rp.counters().cuts;
    c.additive_increase += rp.counters().increases;
    c.flows_with_state += rp.counters().echoes > 0;
  }
  return c;
}

}  // namespace dcqcn
