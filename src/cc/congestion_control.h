// The small interface between a host NIC and its congestion control: the reaction point
// (sender) and the notification point (receiver) hooks. One object serves every flow of a NIC.
#pragma once

#include <algorithm>
#include <memory>
#include <string>

#include "cc/cc_flow.h"
#include "core/units.h"

namespace dcqcn {

// Event counts of a congestion control, summed over its flows for summary.json.
struct CcCounters {
  uint64_t rate_cuts = 0;
  uint64_t fast_recovery = 0;
  uint64_t additive_increase = 0;
  uint64_t hyper_increase = 0;
  uint64_t timer_events = 0;
  uint64_t byte_counter_events = 0;
  uint64_t flows_with_state = 0;  // flows that ever saw a CNP
  // A NIC's CNP generator when it takes time per CNP (DCQCN cnp_service_time > 0): the CNPs that
  // waited behind other flows' CNPs, the sum and the largest of those waits (not counting a
  // CNP's own service time), the longest queue of due CNPs (the one in service included; the
  // largest over NICs), and the marks folded into a CNP that was still waiting.
  uint64_t cnps_delayed = 0;
  Time cnp_wait_total = 0;
  Time cnp_wait_max = 0;
  uint64_t cnp_queue_max = 0;
  uint64_t cnp_marks_coalesced = 0;

  CcCounters& operator+=(const CcCounters& o) {
    rate_cuts += o.rate_cuts;
    fast_recovery += o.fast_recovery;
    additive_increase += o.additive_increase;
    hyper_increase += o.hyper_increase;
    timer_events += o.timer_events;
    byte_counter_events += o.byte_counter_events;
    flows_with_state += o.flows_with_state;
    cnps_delayed += o.cnps_delayed;
    cnp_wait_total += o.cnp_wait_total;
    cnp_wait_max = std::max(cnp_wait_max, o.cnp_wait_max);
    cnp_queue_max = std::max(cnp_queue_max, o.cnp_queue_max);
    cnp_marks_coalesced += o.cnp_marks_coalesced;
    return *this;
  }
};

// What congestion control may ask of its NIC.
class CcHost {
 public:
  virtual ~CcHost() = default;
  // New pacer rate for a flow; the NIC re-times its next departure.
  virtual void SetRate(CcFlow& f, Rate rate) = 0;
  // Receiver side: send a CNP for flow `f` back to its sender (high priority, exempt from PFC).
  virtual void SendCnp(CcFlow& f) = 0;
};

class CongestionControl {
 public:
  virtual ~CongestionControl() = default;
  // Reaction point (sender).
  virtual void OnFlowStart(CcFlow& f) = 0;  // must set the initial rate
  virtual void OnPacketSent(CcFlow& f, Bytes bytes) {}
  virtual void OnCnp(CcFlow& f) {}  // a CNP (or an ACK carrying one) arrived
  virtual void OnFlowDone(CcFlow& f) {}
  // Notification point (receiver): a data packet of `f` arrived, `ce` = ECN-marked.
  virtual void OnDataArrival(CcFlow& f, bool ce) {}
  // The RP state of a flow for time series: current rate, target rate, alpha.
  struct RateSample {
    Rate rc;
    Rate rt;
    double alpha;
  };
  virtual RateSample Sample(const CcFlow& f) const { return {f.rate, f.rate, 0.0}; }
  virtual CcCounters counters() const { return {}; }
  // Whether the NP reports congestion on the per-packet ACK (HPCC) instead of separate CNPs.
  virtual bool cnp_on_ack() const { return false; }
};

// `algorithm = "none"`: every flow at line rate, PFC alone keeps the network lossless.
class LineRateCc : public CongestionControl {
 public:
  explicit LineRateCc(CcHost* host) : host_(host) {}
  void OnFlowStart(CcFlow& f) override { host_->SetRate(f, f.line_rate); }

 private:
  CcHost* host_;
};

}  // namespace dcqcn
