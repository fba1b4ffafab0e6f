// TIMELY NIC glue.
#include "cc/timely.h"

namespace dcqcn {

void TimelyCc::OnFlowStart(CcFlow& f) { Start(f, p_, f.line_rate); }

void TimelyCc::OnAck(CcFlow& f, const AckEvent& ack) {
  TimelyRp& rp = sender(f);
  if (rp.OnAck(ack.acked, ack.sent, ack.rtt)) host_->SetRateAfterNextPacket(f, rp.rate());
}

void TimelyCc::AddCounters(const TimelyRp& rp, CcCounters& c) const {
  c.rate_cuts += rp.counters().decreases;
  c.additive_increase += rp.counters().increases;
  c.hyper_increase += rp.counters().hyper_increases;
}

}  // namespace dcqcn
