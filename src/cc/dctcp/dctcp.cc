// DCTCP NIC glue.
#include "cc/dctcp/dctcp.h"

namespace dcqcn {

void DctcpCc::OnFlowStart(CcFlow& f) { Start(f, p_, f.line_rate, mtu_); }

void DctcpCc::OnAck(CcFlow& f, const AckEvent& ack) {
  DctcpRp& rp = sender(f);
  if (rp.OnAck(ack.acked, ack.sent, ack.echo)) host_->SetRateAfterNextPacket(f, rp.rate());
}

CongestionControl::RateSample DctcpCc::Sample(const CcFlow& f) const {
  const DctcpRp* rp = find(f);
  return {f.rate, f.rate, rp != nullptr ? rp->alpha() : 0.0};
}

void DctcpCc::AddCounters(const DctcpRp& rp, CcCounters& c) const {
  c[kRateCuts] += static_cast<int64_t>(rp.counters().cuts);
  c[kAdditiveIncrease] += static_cast<int64_t>(rp.counters().increases);
  c[kFlowsWithEchoes] += rp.counters().echoes > 0;
}

}  // namespace dcqcn
