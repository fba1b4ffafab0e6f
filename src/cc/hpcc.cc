// HPCC NIC glue: one sender state per flow, created when the flow starts.
#include "cc/hpcc.h"

namespace dcqcn {

void HpccCc::OnFlowStart(CcFlow& f) {
  f.cc_sender_slot = static_cast<uint32_t>(rps_.size());
  rps_.emplace_back(p_, f.line_rate, f.bdp, f.base_rtt);
  host_->SetRate(f, f.line_rate);
}

void HpccCc::OnAck(CcFlow& f, const AckEvent& ack) {
  if (ack.telemetry == nullptr) return;
  HpccRp& rp = rps_[f.cc_sender_slot];
  if (rp.OnAck(ack.acked, ack.sent, *ack.telemetry)) host_->SetRate(f, rp.rate());
}

CongestionControl::RateSample HpccCc::Sample(const CcFlow& f) const {
  if (f.cc_sender_slot == UINT32_MAX) return {f.rate, f.rate, 0.0};
  const HpccRp& rp = rps_[f.cc_sender_slot];
  // The reference rate plays the target's part; U, the measured utilisation, alpha's.
  return {f.rate, rp.reference_rate(), rp.u()};
}

CcCounters HpccCc::counters() const {
  CcCounters c;
  for (const HpccRp& rp : rps_) {
    c.rate_cuts += rp.counters().multiplicative;
    c.additive_increase += rp.counters().additive;
  }
  return c;
}

}  // namespace dcqcn
