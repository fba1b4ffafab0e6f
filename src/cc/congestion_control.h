// The small interface between a host NIC and its congestion control: the reaction point
// (sender) and the notification point (receiver) hooks. One object serves every flow of a NIC.
#pragma once

#include <memory>
#include <string>

#include "cc/cc_counters.h"
#include "cc/cc_flow.h"
#include "cc/int_telemetry.h"
#include "core/units.h"

namespace dcqcn {

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
  // `to` continues `from` on one queue pair (a connection's next transfer): it takes over the
  // sender state and rate of `from`, and what later arrives for `from` comes to `to`. Without
  // sender state, a fresh start.
  virtual void OnFlowContinue(CcFlow& from, CcFlow& to) { OnFlowStart(to); }
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
  // Event counts over every flow it served, its released ones included (the algorithm's own
  // named counters; none by default).
  virtual CcCounters counters() const { return {}; }

  // A finished flow retires once no packet of it is left and its receiver's side is idle (has
  // no CNP still to send); then the sender's NIC releases the flow's sender state and the
  // receiver's NIC its receiver state, and the slots serve later flows.
  virtual bool ReceiverIdle(const CcFlow& f) const { return true; }
  virtual void ReleaseSender(CcFlow& f) {}
  virtual void ReleaseReceiver(CcFlow& f) {}
};

}  // namespace dcqcn
