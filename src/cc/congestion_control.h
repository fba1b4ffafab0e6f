// The small interface between a host NIC and its congestion control: the reaction point
// (sender) and the notification point (receiver) hooks. One object serves every flow of a NIC.
#pragma once

#include <algorithm>
#include <memory>
#include <string>

#include "cc/cc_flow.h"
#include "cc/int_telemetry.h"
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
  // New pacer rate that takes effect from the next departure on: the one already timed keeps
  // its time (HPCC ns-3's DCTCP and TIMELY write the QP's rate without re-timing).
  virtual void SetRateAfterNextPacket(CcFlow& f, Rate rate) = 0;
  // Receiver side: send a CNP for flow `f` back to its sender (high priority, exempt from PFC).
  virtual void SendCnp(CcFlow& f) = 0;
};

// An ACK or NAK as the sender's congestion control sees it (ACK-driven algorithms). Sequences
// are bytes, as HPCC ns-3 counts them: a PSN times the MTU, capped at the flow's size.
struct AckEvent {
  Bytes acked = 0;    // every byte before this is acknowledged
  Bytes sent = 0;     // the sender has sent up to this byte (its snd_nxt)
  bool echo = false;  // the data packet it answers was ECN-marked (the ACK's CNP bit)
  bool nack = false;
  Time rtt = 0;  // now minus the send time stamped on that data packet (if time stamps are on)
  const IntStack* telemetry = nullptr;  // the telemetry echoed from that data packet, if any
};

// What a congestion control needs of the NIC and the network beyond rates and CNPs; whatever
// it does not ask for costs nothing per packet.
struct CcNeeds {
  bool acks = false;        // OnAck on every ACK and NAK
  bool cnp_on_ack = false;  // the receiver reports ECN marks as a bit on the ACK, not as CNPs
  bool timestamps = false;  // data packets carry their send time, echoed on the ACK (TIMELY)
  bool telemetry = false;   // switches push INT on data packets, echoed on the ACK (HPCC)
  bool base_rtt = false;    // flows' base RTT and BDP (CcFlow), which HPCC's update uses
  // Bytes the algorithm adds to every data packet and ACK (HPCC ns-3's IntHeader: 42 with
  // telemetry, 8 with time stamps).
  Bytes header_bytes = 0;
};

class CongestionControl {
 public:
  virtual ~CongestionControl() = default;
  // Reaction point (sender).
  virtual void OnFlowStart(CcFlow& f) = 0;  // must set the initial rate
  virtual void OnPacketSent(CcFlow& f, Bytes bytes) {}
  virtual void OnCnp(CcFlow& f) {}  // a CNP (or an ACK carrying one) arrived
  virtual void OnFlowDone(CcFlow& f) {}
  // An ACK or NAK arrived for `f` (only when CcNeeds::acks), after the transport processed it.
  virtual void OnAck(CcFlow& f, const AckEvent& ack) {}
  // Notification point (receiver): a data packet of `f` arrived, `ce` = ECN-marked.
  virtual void OnDataArrival(CcFlow& f, bool ce) {}
  // The RP state of a flow for time series: current rate, target rate, alpha.
  struct RateSample {
    Rate rc;
    Rate rt;
    double alpha;
  };
  virtual RateSample Sample(const CcFlow& f) const { return {f.rate, f.rate, 0.0}; }
  // Event counts over every flow it served, its released ones included.
  virtual CcCounters counters() const { return {}; }

  // A finished flow retires once no packet of it is left and its receiver's side is idle (has
  // no CNP still to send); then the sender's NIC releases the flow's sender state and the
  // receiver's NIC its receiver state, and the slots serve later flows.
  virtual bool ReceiverIdle(const CcFlow& f) const { return true; }
  virtual void ReleaseSender(CcFlow& f) {}
  virtual void ReleaseReceiver(CcFlow& f) {}
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
