// DCQCN reaction point. docs/dcqcn-rp-semantics.md states every rule this file implements.
#include "cc/dcqcn/dcqcn_rp.h"

#include <algorithm>

namespace dcqcn {

DcqcnRp::DcqcnRp(const DcqcnParams* params, Rate line_rate, double rate, Time now)
    : p_(params),
      line_(static_cast<double>(line_rate)),
      rc_(rate),
      rt_(rate),
      alpha_(params->initial_alpha),
      byte_left_(params->byte_counter),
      alpha_anchor_(now) {}

Time DcqcnRp::next_deadline() const { return std::min(rate_timer_at_, decrease_at_); }

double DcqcnRp::AlphaAfterTicks(double alpha, bool flag, int64_t ticks) const {
  // Applied one tick at a time, exactly as a periodic timer would, so results are bit-identical.
  for (int64_t i = 0; i < ticks; ++i) {
    alpha = (1 - p_->g) * alpha + (flag ? p_->g : 0.0);
    flag = false;
  }
  return alpha;
}

double DcqcnRp::alpha(Time now) const {
  if (now < alpha_anchor_) return alpha_;
  return AlphaAfterTicks(alpha_, alpha_flag_, (now - alpha_anchor_) / p_->alpha_period);
}

void DcqcnRp::SyncAlpha(Time now) {
  if (now < alpha_anchor_) return;
  int64_t ticks = (now - alpha_anchor_) / p_->alpha_period;
  if (ticks == 0) return;
  alpha_ = AlphaAfterTicks(alpha_, alpha_flag_, ticks);
  alpha_flag_ = false;
  alpha_anchor_ += ticks * p_->alpha_period;
}

void DcqcnRp::RunTimersUntil(Time now) {
  while (!stopped_) {
    Time t = next_deadline();
    if (t > now) break;
    if (decrease_at_ <= rate_timer_at_) {
      // Sampled-mode decrease check.
      decrease_at_ = kTimeNever;
      if (decrease_flag_) {
        decrease_flag_ = false;
        SyncAlpha(t);
        Cut(t);
      }
    } else {
      rate_timer_at_ = t + p_->timer;
      IncreaseEvent(/*from_timer=*/true);
    }
  }
}

void DcqcnRp::AdvanceTo(Time now) { RunTimersUntil(now); }

void DcqcnRp::OnCnp(Time now) {
  if (stopped_) return;
  RunTimersUntil(now);
  ++counters_.cnps;
  bool first = counters_.cnps == 1;
  if (first && p_->rate_on_first_cnp > 0) {
    rc_ = rt_ = std::min(static_cast<double>(p_->rate_on_first_cnp), line_);
  }
  if (p_->mode == DcqcnParams::Mode::kPaper) {
    SyncAlpha(now);
    Cut(now);
    return;
  }
  // Sampled: the CNP only raises flags; the periodic checks act on them.
  SyncAlpha(now);
  decrease_flag_ = true;
  if (first) {
    alpha_ = p_->initial_alpha;
    alpha_flag_ = false;
    alpha_anchor_ = now;
    // HPCC adds 1 ns so that the alpha update at the same period boundary comes first.
    decrease_anchor_ = now + kNanosecond;
    decrease_at_ = decrease_anchor_ + p_->rate_reduce_period;
    return;
  }
  alpha_flag_ = true;
  if (decrease_at_ == kTimeNever) {
    int64_t k = (now - decrease_anchor_) / p_->rate_reduce_period + 1;
    decrease_at_ = decrease_anchor_ + k * p_->rate_reduce_period;
  }
}

void DcqcnRp::Cut(Time now) {
  bool paper = p_->mode == DcqcnParams::Mode::kPaper;
  if (p_->clamp_target_rate || ib_ > 0 || (p_->clamp_after_time_inc && it_ > 0)) rt_ = rc_;
  bool new_alpha_first = paper && p_->cut_uses_new_alpha;
  if (new_alpha_first) alpha_ = (1 - p_->g) * alpha_ + p_->g;
  double factor = 1 - alpha_ / 2;
  if (factor < p_->min_dec_factor) factor = p_->min_dec_factor;
  rc_ = std::max(static_cast<double>(p_->min_rate), rc_ * factor);
  if (paper) {
    if (!new_alpha_first) alpha_ = (1 - p_->g) * alpha_ + p_->g;
    alpha_anchor_ = now;  // the alpha timer restarts at every CNP
  }
  it_ = ib_ = 0;
  byte_left_ = p_->byte_counter;
  rate_timer_at_ = now + p_->timer;
  increasing_ = true;
  ++counters_.cuts;
}

void DcqcnRp::OnBytesSent(Time now, Bytes bytes) {
  if (stopped_) return;
  RunTimersUntil(now);
  if (!increasing_ || p_->byte_counter <= 0) return;
  byte_left_ -= bytes;
  while (increasing_ && byte_left_ <= 0) {
    byte_left_ += p_->byte_counter;
    IncreaseEvent(/*from_timer=*/false);
  }
}

void DcqcnRp::IncreaseEvent(bool from_timer) {
  const int f = p_->f;
  enum { kFr, kAi, kHi } phase;
  double hai_step = static_cast<double>(p_->rhai);
  if (from_timer) {
    ++counters_.timer_events;
  } else {
    ++counters_.byte_events;
  }
  if (p_->stage_rule == DcqcnParams::StageRule::kPaper) {
    (from_timer ? it_ : ib_)++;
    // Hyper increase needs both counts past F; with the byte counter off ib stays 0, so a
    // timer-only flow does additive increase forever (as ns3-rdma with its 300 MB counter).
    int lo = std::max(it_, ib_);
    int hi = std::min(it_, ib_);
    phase = lo < f ? kFr : (hi < f ? kAi : kHi);
    if (p_->hai_scaled) hai_step *= hi - f + 1;
  } else {
    int s = it_ + ib_;
    phase = s < f ? kFr : (s == f ? kAi : kHi);
    if (p_->hai_scaled && phase == kHi) hai_step *= s - f;
    (from_timer ? it_ : ib_)++;
  }
  if (phase != kFr) {
    rt_ += phase == kAi ? static_cast<double>(p_->rai) : hai_step;
    if (p_->cap_target_at_line) rt_ = std::min(rt_, line_);
  }
  rc_ = (rt_ + rc_) / 2;
  if (rt_ - rc_ < 1.0) rc_ = rt_;
  rc_ = std::min(rc_, line_);
  ++(phase == kFr ? counters_.fast_recovery
                  : (phase == kAi ? counters_.additive : counters_.hyper));
  if (rc_ >= line_) {
    // Back at line rate: further increases change nothing until the next cut.
    increasing_ = false;
    rate_timer_at_ = kTimeNever;
  }
}

void DcqcnRp::Stop() {
  stopped_ = true;
  increasing_ = false;
  rate_timer_at_ = kTimeNever;
  decrease_at_ = kTimeNever;
}

}  // namespace dcqcn
