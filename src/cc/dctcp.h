// DCTCP on a NIC (HPCC ns-3's CC_MODE 8): one DctcpRp per flow it sends, driven by the ECN echo
// on every ACK. The receiver's part is the echo itself, which the NIC puts on the ACK
// (CcNeeds::cnp_on_ack). A new rate applies from the next packet on, as in that simulator.
#pragma once

#include "cc/congestion_control.h"
#include "cc/dctcp_rp.h"
#include "cc/per_flow_senders.h"

namespace dcqcn {

class DctcpCc : public PerFlowSenders<DctcpRp> {
 public:
  DctcpCc(CcHost* host, const DctcpParams* params, Bytes mtu)
      : PerFlowSenders(host), p_(params), mtu_(mtu) {}
  static constexpr CcNeeds kNeeds = {.acks = true, .cnp_on_ack = true};

  void OnFlowStart(CcFlow& f) override;
  void OnAck(CcFlow& f, const AckEvent& ack) override;
  RateSample Sample(const CcFlow& f) const override;

 private:
  void AddCounters(const DctcpRp& rp, CcCounters& c) const override;
  const DctcpParams* p_;
  Bytes mtu_;
};

}  // namespace dcqcn
