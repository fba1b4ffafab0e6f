// HPCC on a NIC (HPCC ns-3's CC_MODE 3): one HpccRp per flow it sends, driven by the in-band
// telemetry each ACK echoes. A new rate re-times the pending departure, as that simulator's
// ChangeRate does.
#pragma once

#include "cc/congestion_control.h"
#include "cc/hpcc_rp.h"
#include "cc/per_flow_senders.h"

namespace dcqcn {

class HpccCc : public PerFlowSenders<HpccRp> {
 public:
  HpccCc(CcHost* host, const HpccParams* params) : PerFlowSenders(host), p_(params) {}
  // HPCC ns-3's INT header: 5 hops of 8 bytes and a 2-byte hop count on every data packet and
  // ACK. The update needs each flow's base RTT (T) and BDP window.
  static constexpr CcNeeds kNeeds = {
      .acks = true, .telemetry = true, .base_rtt = true, .header_bytes = 42};

  void OnFlowStart(CcFlow& f) override;
  void OnAck(CcFlow& f, const AckEvent& ack) override;
  RateSample Sample(const CcFlow& f) const override;

 private:
  void AddCounters(const HpccRp& rp, CcCounters& c) const override;
  const HpccParams* p_;
};

}  // namespace dcqcn
