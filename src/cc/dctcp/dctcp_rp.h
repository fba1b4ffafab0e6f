// DCTCP's sender for RDMA, as HPCC's ns-3 simulator implements it (CC_MODE 8; rdma-hw.cc,
// HandleAckDctcp; docs/research/hpcc-cc-semantics.md section 3): a rate, not a window, driven by
// the ECN echo on every ACK. A pure state machine of one flow: no clock, no timers; a unit test
// drives it with scripted ACKs.
//
// - alpha (from 1) is updated once per batch, when an ACK passes the sequence the batch ended
//   at: alpha = (1 - g) alpha + g F, with F the batch's marked ACKs over its packets (at most 1).
// - At most one cut per window: an echo outside CWR sets rate = max(min_rate, rate (1 - alpha/2))
//   and enters CWR until an ACK passes what had been sent at the cut.
// - Outside CWR, each new batch adds rate_ai, up to the line rate. There is no slow start: flows
//   start at line rate.
// Sequences are bytes, as that simulator counts them (a PSN times the MTU, capped at the size).
#pragma once

#include <cstdint>

#include "cc/dctcp/dctcp_params.h"
#include "core/units.h"

namespace dcqcn {

struct DctcpRpCounters {
  uint64_t echoes = 0;     // ACKs that carried an ECN echo
  uint64_t cuts = 0;       // rate decreases
  uint64_t increases = 0;  // additive increases below line rate
  uint64_t batches = 0;    // alpha updates
};

class DctcpRp {
 public:
  DctcpRp(const DctcpParams* params, Rate line_rate, Bytes mtu)
      : p_(params), line_(line_rate), mtu_(mtu), rate_(line_rate) {}

  // An ACK (or NAK) acknowledging everything before byte `acked`, while the sender has sent up
  // to byte `sent`; `echo`: the data packet it answers was ECN-marked.
  // Returns true when the rate changed.
  bool OnAck(Bytes acked, Bytes sent, bool echo);

  Rate rate() const { return rate_; }
  double alpha() const { return alpha_; }
  bool in_cwr() const { return cwr_; }
  const DctcpRpCounters& counters() const { return counters_; }

 private:
  const DctcpParams* p_;
  Rate line_;
  Bytes mtu_;
  Rate rate_;
  double alpha_ = 1.0;
  uint64_t marked_ = 0;  // echoes in the current batch
  uint64_t batch_ = 0;   // packets the current batch expects
  Bytes batch_end_ = 0;  // the batch ends when an ACK passes this; 0 before the first ACK
  bool cwr_ = false;
  Bytes cwr_end_ = 0;  // CWR ends when an ACK passes this
  DctcpRpCounters counters_;
};

}  // namespace dcqcn
