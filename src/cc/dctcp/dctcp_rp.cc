#include "cc/dctcp/dctcp_rp.h"

#include <algorithm>

namespace dcqcn {

bool DctcpRp::OnAck(Bytes acked, Bytes sent, bool echo) {
  const Rate before = rate_;
  marked_ += echo;
  counters_.echoes += echo;
  bool new_batch = false;
  if (acked > batch_end_) {
    new_batch = true;
    if (batch_end_ == 0) {
      // The first ACK only opens a batch; its echo stays counted in the next one.
      batch_ = static_cast<uint64_t>(sent / mtu_) + 1;
    } else {
      const double f = std::min(1.0, static_cast<double>(marked_) / static_cast<double>(batch_));
      alpha_ = (1 - p_->g) * alpha_ + p_->g * f;
      marked_ = 0;
      batch_ = static_cast<uint64_t>((sent - acked) / mtu_) + 1;
      ++counters_.batches;
    }
    batch_end_ = sent;
  }
  if (cwr_ && acked > cwr_end_) cwr_ = false;
  if (echo && !cwr_) {
    // ns-3's DataRate times a double keeps whole bits per second (truncated).
    const auto cut = static_cast<Rate>(static_cast<double>(rate_) * (1 - alpha_ / 2));
    rate_ = std::max(p_->min_rate, cut);
    cwr_ = true;
    cwr_end_ = sent;
    ++counters_.cuts;
  }
  if (!cwr_ && new_batch && rate_ < line_) {
    rate_ = std::min(line_, rate_ + p_->rate_ai);
    ++counters_.increases;
  }
  return rate_ != before;
}

}  // namespace dcqcn
