#include "cc/timely/timely_rp.h"

#include <algorithm>
#include <cassert>
#include <climits>

namespace dcqcn {

TimelyRp::TimelyRp(const TimelyParams* params, Rate line_rate)
    : p_(params), line_(line_rate), rate_(line_rate) {
  // The [cc] table rejects less (cc/timely/timely_params.cc): the gradient divides by it in ns.
  assert(params->min_rtt >= kNanosecond);
}

bool TimelyRp::OnAck(Bytes acked, Bytes sent, Time rtt) {
  if (acked <= last_update_seq_) return false;  // within the RTT of the last update
  const int64_t rtt_ns = rtt / kNanosecond;
  const Rate before = rate_;
  if (last_update_seq_ != 0) {
    ++counters_.updates;
    const int64_t t_low_ns = p_->t_low / kNanosecond;
    const int64_t t_high_ns = p_->t_high / kNanosecond;
    const int64_t min_rtt_ns = p_->min_rtt / kNanosecond;
    const int64_t new_diff = rtt_ns - last_rtt_ns_;
    const double diff = (1 - p_->alpha) * rtt_diff_ + p_->alpha * static_cast<double>(new_diff);
    const double gradient = diff / static_cast<double>(min_rtt_ns);
    bool increase = false;
    double c = 0;
    if (rtt_ns < t_low_ns) {
      increase = true;
    } else if (rtt_ns > t_high_ns) {
      c = 1 - p_->beta * (1 - static_cast<double>(t_high_ns) / static_cast<double>(rtt_ns));
    } else if (gradient <= 0) {
      increase = true;
    } else {
      c = std::max(0.0, 1 - p_->beta * gradient);
    }
    if (increase) {
      const bool hyper = inc_stage_ >= p_->hai_after;
      rate_ = std::min(line_, rate_ + (hyper ? p_->rate_hai : p_->rate_ai));
      // ns-3's counter is a uint32 that never resets at line rate; saturate rather than overflow.
      if (inc_stage_ < INT_MAX) ++inc_stage_;
      ++(hyper ? counters_.hyper_increases : counters_.increases);
    } else {
      // ns-3's DataRate times a double keeps whole bits per second (truncated; data-rate.cc).
      const auto cut = static_cast<Rate>(static_cast<double>(rate_) * c);
      rate_ = std::max(p_->min_rate, cut);
      inc_stage_ = 0;
      ++counters_.decreases;
    }
    rtt_diff_ = diff;
  }
  if (sent > last_update_seq_) {
    last_update_seq_ = sent;
    last_rtt_ns_ = rtt_ns;
  }
  return rate_ != before;
}

}  // namespace dcqcn
