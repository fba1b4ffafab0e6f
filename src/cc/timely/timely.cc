// TIMELY NIC glue.
#include "cc/timely/timely.h"

namespace dcqcn {

void TimelyCc::OnFlowStart(CcFlow& f) { Start(f, p_, f.line_rate); }

void TimelyCc::OnAck(CcFlow& f, const AckEvent& ack) {
  TimelyRp& rp = sender(f);
  if (rp.OnAck(ack.acked, ack.sent, ack.rtt)) host_->SetRateAfterNextPacket(f, rp.rate());
}

void TimelyCc::AddCounters(const TimelyRp& rp, CcCounters& c) const {
  c[kRateCuts] += static_cast<int64_t>(rp.counters().decreases);
  c[kAdditiveIncrease] += static_cast<int64_t>(rp.counters().increases);
  c[kHyperIncrease] += static_cast<int64_t>(rp.counters().hyper_increases);
}

}  // namespace dcqcn
