// DCTCP NIC glue.
#include "cc/dctcp.h"

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
  c.rate_cuts += rp.counters().cuts;
  c.additive_increase += rp.counters().increases;
  c.flows_with_state += rp.counters().echoes > 0;
}

}  // namespace dcqcn
