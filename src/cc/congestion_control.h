// The small interface between a host NIC and its congestion control: the reaction point
// (sender) and the notification point (receiver) hooks. One object serves every flow of a NIC.
#pragma once

#include <memory>
#include <string>

#include "core/units.h"
#include "net/flow.h"

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

  CcCounters& operator+=(const CcCounters& o) {
    rate_cuts += o.rate_cuts;
    fast_recovery += o.fast_recovery;
    additive_increase += o.additive_increase;
    hyper_increase += o.hyper_increase;
    timer_events += o.timer_events;
    byte_counter_events += o.byte_counter_events;
    flows_with_state += o.flows_with_state;
    return *this;
  }
};

// What congestion control may ask of its NIC.
class CcHost {
 public:
  virtual ~CcHost() = default;
  // New pacer rate for a flow; the NIC re-times its next departure.
  virtual void SetRate(Flow& f, Rate rate) = 0;
  // Receiver side: send a CNP for flow `f` back to its sender (high priority, exempt from PFC).
  virtual void SendCnp(Flow& f) = 0;
};

class CongestionControl {
 public:
  virtual ~CongestionControl() = default;
  // Reaction point (sender).
  virtual void OnFlowStart(Flow& f) = 0;  // must set the initial rate
  virtual void OnPacketSent(Flow& f, Bytes bytes) {}
  virtual void OnCnp(Flow& f) {}  // a CNP (or an ACK carrying one) arrived
  virtual void OnFlowDone(Flow& f) {}
  // Notification point (receiver): a data packet of `f` arrived, `ce` = ECN-marked.
  virtual void OnDataArrival(Flow& f, bool ce) {}
  // The RP state of a flow for time series: current rate, target rate, alpha.
  struct RateSample {
    Rate rc;
    Rate rt;
    double alpha;
  };
  virtual RateSample Sample(const Flow& f) const { return {f.rate, f.rate, 0.0}; }
  virtual CcCounters counters() const { return {}; }
  // Whether the NP reports congestion on the per-packet ACK (HPCC) instead of separate CNPs.
  virtual bool cnp_on_ack() const { return false; }
};

// `algorithm = "none"`: every flow at line rate, PFC alone keeps the network lossless.
class LineRateCc : public CongestionControl {
 public:
  explicit LineRateCc(CcHost* host) : host_(host) {}
  void OnFlowStart(Flow& f) override { host_->SetRate(f, f.line_rate); }

 private:
  CcHost* host_;
};

}  // namespace dcqcn
