// TIMELY on a NIC (HPCC ns-3's CC_MODE 7): one TimelyRp per flow it sends, driven by the RTT
// each ACK measures from the send time its data packet carried. A new rate applies from the
// next packet on, as in that simulator.
#pragma once

#include "cc/cc_algorithm.h"
#include "cc/congestion_control.h"
#include "cc/per_flow_senders.h"
#include "cc/timely/timely_rp.h"

namespace dcqcn {

class TimelyCc : public PerFlowSenders<TimelyRp> {
 public:
  TimelyCc(const CcEnv& env, const TimelyParams* params)
      : PerFlowSenders(env.host, kCounters), p_(params) {}
  // HPCC ns-3's time-stamp header: 8 bytes on every data packet and ACK.
  static CcNeeds Needs(const TimelyParams&) {
    return {.acks = true, .timestamps = true, .header_bytes = 8};
  }
  enum Counter : size_t { kRateCuts, kAdditiveIncrease, kHyperIncrease };
  static constexpr CcCounterSpec kCounters[] = {
      {"rate_cuts", CcCounterKind::kCount, "rate decreases"},
      {"additive_increase_events", CcCounterKind::kCount, "rate_ai steps"},
      {"hyper_increase_events", CcCounterKind::kCount, "rate_hai steps"},
  };

  void OnFlowStart(CcFlow& f) override;
  void OnAck(CcFlow& f, const AckEvent& ack) override;

 private:
  void AddCounters(const TimelyRp& rp, CcCounters& c) const override;
  const TimelyParams* p_;
};

}  // namespace dcqcn
