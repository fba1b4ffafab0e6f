#include "cc/hpcc/hpcc_rp.h"

#include <algorithm>
#include <cassert>

namespace dcqcn {

HpccRp::HpccRp(const HpccParams* params, Rate line_rate, Bytes window, Time base_rtt)
    : p_(params),
      line_(line_rate),
      window_(window),
      base_rtt_ns_(base_rtt / kNanosecond),
      rate_(line_rate),
      ref_rate_(line_rate) {
  // Network::SetBaseRtts rejects less: the queue term divides by the window and the EWMA by T
  // (ns-3 needs HAS_WIN 1 for the same reason).
  assert(window > 0);
  assert(base_rtt_ns_ > 0);
  for (HopState& h : hops_) h.rc = line_rate;
}

bool HpccRp::OnAck(Bytes acked, Bytes sent, const IntStack& ints) {
  const bool fast = acked <= last_update_seq_;
  if (fast && !p_->fast_react) return false;
  if (last_update_seq_ == 0) {
    // ns-3 asserts nhop <= 5 here (and would copy past its array without the assert); we keep
    // the hops the stack holds.
    if (ints.nhop > IntStack::kMaxHops) ++counters_.skipped;
    last_update_seq_ = sent;
    const uint32_t stored = std::min<uint32_t>(ints.nhop, IntStack::kMaxHops);
    std::copy_n(ints.hop.begin(), stored, snapshot_.begin());
    return false;
  }
  bool changed = false;
  if (ints.nhop > IntStack::kMaxHops) {
    ++counters_.skipped;
  } else {
    changed = React(ints, fast);
  }
  if (!fast && sent > last_update_seq_) last_update_seq_ = sent;
  return changed;
}

bool HpccRp::React(const IntStack& ints, bool fast) {
  const IntFields& f = p_->fields;
  const auto t = static_cast<double>(base_rtt_ns_);
  double max_u = 0;  // single rate: the largest hop u and its tau
  int64_t max_tau = 0;
  std::array<bool, IntStack::kMaxHops> used{};
  bool any = false;
  for (uint32_t i = 0; i < ints.nhop; ++i) {
    const IntHop& now = ints.hop[i];
    IntHop& before = snapshot_[i];
    const Bytes qlen_now = f.Qlen(now.qlen);
    if (p_->sample_feedback && fast && qlen_now == 0) continue;
    const int64_t tau = f.TimeDeltaNs(before.time, now.time);
    // ns-3 divides by tau and B unguarded (infinity or NaN); our choice: such a sample carries no
    // rate, so the hop is skipped and its snapshot kept.
    if (tau == 0 || now.rate <= 0) continue;
    used[i] = any = true;
    const double duration = static_cast<double>(tau) * 1e-9;
    const double tx_rate =
        static_cast<double>(f.BytesDelta(before.tx_bytes, now.tx_bytes) * 8) / duration;
    const auto b = static_cast<double>(now.rate);
    const Bytes qlen = std::min(qlen_now, f.Qlen(before.qlen));
    const double u = tx_rate / b + static_cast<double>(qlen) * static_cast<double>(line_) / b /
                                       static_cast<double>(window_);
    if (!p_->multi_rate) {
      if (u > max_u) {
        max_u = u;
        max_tau = tau;
      }
    } else {
      const int64_t dt = std::min(tau, base_rtt_ns_);
      HopState& h = hops_[i];
      h.u = (h.u * static_cast<double>(base_rtt_ns_ - dt) + u * static_cast<double>(dt)) / t;
    }
    before = now;
  }
  if (!any) return false;

  Rate next = 0;
  int next_stage = 0;
  std::array<Rate, IntStack::kMaxHops> hop_next{};
  std::array<int, IntStack::kMaxHops> hop_next_stage{};
  if (!p_->multi_rate) {
    const int64_t dt = std::min(max_tau, base_rtt_ns_);
    u_ = (u_ * static_cast<double>(base_rtt_ns_ - dt) + max_u * static_cast<double>(dt)) / t;
    next = Step(ref_rate_, u_, inc_stage_, &next_stage);
  } else {
    next = line_;
    for (uint32_t i = 0; i < ints.nhop; ++i) {
      const HopState& h = hops_[i];
      if (used[i]) {
        hop_next[i] = Step(h.rc, h.u, h.inc_stage, &hop_next_stage[i]);
        next = std::min(next, hop_next[i]);
      } else {
        next = std::min(next, h.rc);  // a hop without a sample keeps its reference
      }
    }
  }

  const Rate previous = rate_;
  rate_ = next;
  if (fast) {
    ++counters_.fast_reacts;
  } else {
    ++counters_.updates;
    ref_rate_ = next;
    if (!p_->multi_rate) {
      inc_stage_ = next_stage;
    } else {
      // ns-3 also stores an uninitialised single-rate stage here; multi rate never reads it, so
      // ours stays as it was.
      for (uint32_t i = 0; i < ints.nhop; ++i) {
        if (!used[i]) continue;
        hops_[i].rc = hop_next[i];
        hops_[i].inc_stage = hop_next_stage[i];
      }
    }
  }
  return rate_ != previous;
}

Rate HpccRp::Step(Rate ref, double u, int stage, int* next_stage) {
  const double c = u / p_->target_util;
  Rate next = 0;
  if (c >= 1 || stage >= p_->mi_thresh) {
    // ns-3's DataRate divided by a double keeps whole bits per second (truncated; data-rate.cc).
    // A quotient at or above the line rate ends clamped to it; so does c == 0, where ns-3
    // would convert infinity (undefined) - our choice, stated as such.
    const double quotient = c > 0 ? static_cast<double>(ref) / c : 0;
    const Rate base =
        c > 0 && quotient < static_cast<double>(line_) ? static_cast<Rate>(quotient) : line_;
    next = base + p_->rate_ai;
    *next_stage = 0;
    ++counters_.multiplicative;
  } else {
    next = ref + p_->rate_ai;
    *next_stage = stage + 1;
    ++counters_.additive;
  }
  if (next < p_->min_rate) next = p_->min_rate;
  if (next > line_) next = line_;
  return next;
}

}  // namespace dcqcn
