// HPCC on a NIC (HPCC ns-3's CC_MODE 3): one HpccRp per flow it sends, driven by the in-band
// telemetry each ACK echoes. A new rate re-times the pending departure, as that simulator's
// ChangeRate does.
#pragma once

#include "cc/cc_algorithm.h"
#include "cc/congestion_control.h"
#include "cc/hpcc/hpcc_rp.h"
#include "cc/per_flow_senders.h"

namespace dcqcn {

class HpccCc : public PerFlowSenders<HpccRp> {
 public:
  HpccCc(const CcEnv& env, const HpccParams* params)
      : PerFlowSenders(env.host, kCounters), p_(params) {}
  // HPCC ns-3's INT header: 5 hops of 8 bytes and a 2-byte hop count on every data packet and
  // ACK. The update needs each flow's base RTT (T) and BDP window.
  static CcNeeds Needs(const HpccParams&) {
    return {.acks = true, .telemetry = true, .base_rtt = true, .header_bytes = 42};
  }
  enum Counter : size_t { kRateCuts, kAdditiveIncrease };
  static constexpr CcCounterSpec kCounters[] = {
      {"rate_cuts", CcCounterKind::kCount, "multiplicative (utilisation-driven) updates"},
      {"additive_increase_events", CcCounterKind::kCount, "additive increases"},
  };

  void OnFlowStart(CcFlow& f) override;
  void OnAck(CcFlow& f, const AckEvent& ack) override;
  RateSample Sample(const CcFlow& f) const override;

 private:
  void AddCounters(const HpccRp& rp, CcCounters& c) const override;
  const HpccParams* p_;
};

}  // namespace dcqcn
