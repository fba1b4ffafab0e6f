// HPCC NIC glue.
#include "cc/hpcc/hpcc.h"

namespace dcqcn {

void HpccCc::OnFlowStart(CcFlow& f) { Start(f, p_, f.line_rate, f.bdp, f.base_rtt); }

void HpccCc::OnAck(CcFlow& f, const AckEvent& ack) {
  if (ack.telemetry == nullptr) return;
  HpccRp& rp = sender(f);
  if (rp.OnAck(ack.acked, ack.sent, *ack.telemetry)) host_->SetRate(f, rp.rate());
}

CongestionControl::RateSample HpccCc::Sample(const CcFlow& f) const {
  const HpccRp* rp = find(f);
  if (rp == nullptr) return {f.rate, f.rate, 0.0};
  // The reference rate plays the target's part; U, the measured utilisation, alpha's.
  return {f.rate, rp->reference_rate(), rp->u()};
}

void HpccCc::AddCounters(const HpccRp& rp, CcCounters& c) const {
  c[kRateCuts] += static_cast<int64_t>(rp.counters().multiplicative);
  c[kAdditiveIncrease] += static_cast<int64_t>(rp.counters().additive);
}

}  // namespace dcqcn
