// DCTCP on a NIC (HPCC ns-3's CC_MODE 8): one DctcpRp per flow it sends, driven by the ECN echo
// on every ACK. The receiver's part is the echo itself, which the NIC puts on the ACK
// (CcNeeds::cnp_on_ack). A new rate applies from the next packet on, as in that simulator.
#pragma once

#include "cc/cc_algorithm.h"
#include "cc/congestion_control.h"
#include "cc/dctcp/dctcp_rp.h"
#include "cc/per_flow_senders.h"

namespace dcqcn {

class DctcpCc : public PerFlowSenders<DctcpRp> {
 public:
  DctcpCc(const CcEnv& env, const DctcpParams* params)
      : PerFlowSenders(env.host, kCounters), p_(params), mtu_(env.mtu) {}
  static CcNeeds Needs(const DctcpParams&) { return {.acks = true, .cnp_on_ack = true}; }
  enum Counter : size_t { kRateCuts, kAdditiveIncrease, kFlowsWithEchoes };
  static constexpr CcCounterSpec kCounters[] = {
      {"rate_cuts", CcCounterKind::kCount, "rate cuts (at most one per window)"},
      {"additive_increase_events", CcCounterKind::kCount, "additive increases below line rate"},
      {"flows_that_saw_cnps", CcCounterKind::kCount, "flows that got an ACK echoing a mark"},
  };

  void OnFlowStart(CcFlow& f) override;
  void OnAck(CcFlow& f, const AckEvent& ack) override;
  RateSample Sample(const CcFlow& f) const override;

 private:
  void AddCounters(const DctcpRp& rp, CcCounters& c) const override;
  const DctcpParams* p_;
  Bytes mtu_;
};

}  // namespace dcqcn
