// TIMELY's sender as HPCC's ns-3 simulator implements it (CC_MODE 7; rdma-hw.cc, HandleAckTimely
// and UpdateRateTimely; docs/research/hpcc-cc-semantics.md section 2): a rate driven by the RTT
// of the data packet each ACK answers. A pure state machine of one flow: no clock, no timers; a
// unit test drives it with scripted ACKs.
//
// - Once per RTT: only an ACK that passes the sequence recorded at the previous update (what had
//   been sent then) runs the rule; the ACKs between do nothing (ns-3's FastReactTimely is empty).
//   The first such ACK of a flow only records its RTT and what had been sent.
// - rtt_diff = (1 - alpha) rtt_diff + alpha (rtt - the RTT recorded at the previous update), and
//   gradient = rtt_diff / min_rtt (a fixed parameter, not measured).
// - rtt < t_low: increase. rtt > t_high: cut to rate (1 - beta (1 - t_high / rtt)). Otherwise a
//   gradient <= 0 increases and a positive one cuts to rate max(0, 1 - beta gradient).
// - An increase adds rate_ai, or rate_hai once hai_after increases came in a row, up to the line
//   rate; a cut keeps at least min_rate. Flows start at line rate.
// ns-3 counts time in whole nanoseconds: the RTT and the thresholds are truncated to ns here and
// the arithmetic keeps its types (integer ns, a double rtt_diff, rates in whole bit/s).
#pragma once

#include <cstdint>

#include "core/units.h"

namespace dcqcn {

struct TimelyParams {
  double alpha = 0.875;              // TimelyAlpha: EWMA weight of the NEW rtt difference
  double beta = 0.8;                 // TimelyBeta
  Time t_low = 50 * kMicrosecond;    // TimelyTLow
  Time t_high = 500 * kMicrosecond;  // TimelyTHigh
  Time min_rtt = 20 * kMicrosecond;  // TimelyMinRtt (fixed, not measured); at least 1 ns
  Rate rate_ai = 100 * kMbps;        // RATE_AI (run.py at 100 Gb/s; the attribute says 5Mb/s)
  Rate rate_hai = 500 * kMbps;       // RATE_HAI (run.py)
  Rate min_rate = 1000 * kMbps;      // MIN_RATE (run.py)
  int hai_after = 5;                 // increases before hyper-active increase (hard-coded 5 there)
};

struct TimelyRpCounters {
  uint64_t updates = 0;          // per-RTT rule runs (the flow's first ACK only records)
  uint64_t increases = 0;        // rate_ai steps (counted also when capped at line rate)
  uint64_t hyper_increases = 0;  // rate_hai steps (likewise)
  uint64_t decreases = 0;        // cuts
};

class TimelyRp {
 public:
  TimelyRp(const TimelyParams* params, Rate line_rate);

  // An ACK (or NAK) acknowledging every byte before `acked`, while the sender has sent up to byte
  // `sent`; `rtt` = now minus the send time stamped on the data packet it answers. Returns true
  // when the rate changed. ns-3 subtracts two whole-ns stamps; truncating the difference instead
  // agrees with it whenever both times are whole ns.
  bool OnAck(Bytes acked, Bytes sent, Time rtt);

  Rate rate() const { return rate_; }
  int inc_stage() const { return inc_stage_; }
  double rtt_diff() const { return rtt_diff_; }  // ns, as ns-3's tmly.rttDiff
  const TimelyRpCounters& counters() const { return counters_; }

 private:
  const TimelyParams* p_;
  Rate line_;
  Rate rate_;                  // ns-3 keeps m_rate and tmly.m_curRate equal in this mode
  int inc_stage_ = 0;          // increases in a row
  double rtt_diff_ = 0;        // ns
  int64_t last_rtt_ns_ = 0;    // RTT at the previous update
  Bytes last_update_seq_ = 0;  // the next update waits for an ACK past this; 0 before the first
  TimelyRpCounters counters_;
};

}  // namespace dcqcn
