// HPCC's sender as HPCC's ns-3 simulator implements it (CC_MODE 3; rdma-hw.cc, HandleAckHp,
// UpdateRateHp and FastReactHp; docs/research/hpcc-cc-semantics.md section 1): a rate driven by
// the in-band telemetry each ACK echoes. A pure state machine of one flow: no clock, no timers; a
// unit test drives it with scripted ACKs.
//
// - The flow's first ACK only stores the hops' telemetry as the reference snapshot.
// - Per hop, from the snapshot to this ACK's sample over tau ns: u = txRate / B + min(qlen now,
//   qlen before) * line_rate / B / window, where B is the hop's line rate and window the flow's
//   BDP in bytes (so the queue term is qlen / (B T) with T implicit in the window).
// - Single rate: the hop with the largest u sets U and tau; u_ewma = (u_ewma (T - tau) + U tau) / T
//   with tau clamped to T = base_rtt, u_ewma starting at 1. c = u_ewma / target_util; when
//   c >= 1 or inc_stage >= mi_thresh the step is Wc / c + rate_ai (stage back to 0), otherwise
//   Wc + rate_ai (stage + 1); the result is clamped to [min_rate, line_rate].
// - Multi rate: the same EWMA and step per hop from each hop's own reference; the flow takes the
//   smallest.
// - Once per RTT (an ACK passing what had been sent at the last update) the step commits its rate
//   and stage as the new reference Wc. With fast_react every other ACK applies a step from the
//   same reference without committing it; without fast_react those ACKs are ignored altogether.
// - An ACK that crossed more than 5 switches carries overwritten hops and is skipped.
// Telemetry is read through IntFields, the field widths of ns-3's IntHop (24-bit ns time, 20-bit
// bytes and 17-bit queue length in units). The hop's line rate is IntHop::rate as is: ns-3's
// 3-bit rate index (25/50/100/200/400G only) is not emulated.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "cc/int_telemetry.h"
#include "core/units.h"

namespace dcqcn {

struct HpccParams {
  double target_util = 0.95;     // U_TARGET (eta)
  int mi_thresh = 0;             // MI_THRESH (maxStage; run.py writes 0)
  bool fast_react = true;        // FAST_REACT: react on every ACK, update the reference per RTT
  Rate rate_ai = 50 * kMbps;     // RATE_AI (the additive step W_AI as a rate)
  Rate min_rate = 1000 * kMbps;  // MIN_RATE
  bool multi_rate = false;       // MULTI_RATE (per-hop reference rates)
  bool sample_feedback = false;  // SAMPLE_FEEDBACK: fast react only on hops with a queue
  IntFields fields{.exact = false, .multi = 4};  // INT field widths (multi = INT_MULTI, run.py 4)
};

struct HpccRpCounters {
  uint64_t updates = 0;         // per-RTT reference updates that computed a rate
  uint64_t fast_reacts = 0;     // ACKs between updates that applied a rate
  uint64_t multiplicative = 0;  // Wc / c + W_AI steps (per hop in multi rate)
  uint64_t additive = 0;        // Wc + W_AI steps (per hop in multi rate)
  uint64_t skipped = 0;         // ACKs with nhop > 5
};

class HpccRp {
 public:
  // `window`: the flow's BDP in bytes (ns-3 m_win, in the queue term; > 0); `base_rtt`: T (ns-3
  // m_baseRtt), truncated to whole ns (at least 1 ns). Starts at line rate.
  HpccRp(const HpccParams* params, Rate line_rate, Bytes window, Time base_rtt);

  // An ACK/NAK acknowledging the bytes before `acked`, while the sender has sent up to byte
  // `sent` (ns-3's snd_nxt at ACK time), echoing telemetry `ints`. Returns true when the applied
  // rate changed (the caller re-times its pacer, as ns-3's ChangeRate does).
  bool OnAck(Bytes acked, Bytes sent, const IntStack& ints);

  Rate rate() const { return rate_; }                // applied rate (ns-3 qp->m_rate)
  Rate reference_rate() const { return ref_rate_; }  // Wc (ns-3 hp.m_curRate)
  double u() const { return u_; }                    // single rate's EWMA (ns-3 hp.u)
  int inc_stage() const { return inc_stage_; }       // single rate's additive steps in a row
  // Multi rate's per-hop state (ns-3 hp.hopState[hop]); 0 <= hop < IntStack::kMaxHops.
  double hop_u(size_t hop) const { return hops_[hop].u; }
  Rate hop_reference_rate(size_t hop) const { return hops_[hop].rc; }
  int hop_inc_stage(size_t hop) const { return hops_[hop].inc_stage; }
  const HpccRpCounters& counters() const { return counters_; }

 private:
  struct HopState {
    double u = 1;
    Rate rc = 0;
    int inc_stage = 0;
  };

  // The rate rule on a sample (fast: between per-RTT updates); true when the applied rate changed.
  bool React(const IntStack& ints, bool fast);
  // One step from reference `ref` at utilization `u` and stage `stage`, clamped.
  Rate Step(Rate ref, double u, int stage, int* next_stage);

  const HpccParams* p_;
  Rate line_;
  Bytes window_;
  int64_t base_rtt_ns_;
  Rate rate_;
  Rate ref_rate_;
  double u_ = 1;
  int inc_stage_ = 0;
  Bytes last_update_seq_ = 0;  // the next update waits for an ACK past this; 0 before the first
  std::array<IntHop, IntStack::kMaxHops> snapshot_{};  // each hop's previous sample
  std::array<HopState, IntStack::kMaxHops> hops_;
  HpccRpCounters counters_;
};

}  // namespace dcqcn
