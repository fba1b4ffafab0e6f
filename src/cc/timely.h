// TIMELY on a NIC (HPCC ns-3's CC_MODE 7): one TimelyRp per flow it sends, driven by the RTT
// each ACK measures from the send time its data packet carried. A new rate applies from the
// next packet on, as in that simulator.
#pragma once

#include "cc/congestion_control.h"
#include "cc/per_flow_senders.h"
#include "cc/timely_rp.h"

namespace dcqcn {

class TimelyCc : public PerFlowSenders<TimelyRp> {
 public:
  TimelyCc(CcHost* host, const TimelyParams* params) : PerFlowSenders(host), p_(params) {}
  // HPCC ns-3's time-stamp header: 8 bytes on every data packet and ACK.
  static constexpr CcNeeds kNeeds = {.acks = true, .timestamps = true, .header_bytes = 8};

  void OnFlowStart(CcFlow& f) override;
  void OnAck(CcFlow& f, const AckEvent& ack) override;

 private:
  void AddCounters(const TimelyRp& rp, CcCounters& c) const override;
  const TimelyParams* p_;
};

}  // namespace dcqcn
