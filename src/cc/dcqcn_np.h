// DCQCN notification point of one flow (receiver NIC), as the paper describes it: the first
// CE-marked packet triggers a CNP at once; after that at most one CNP per interval N, sent at
// the end of the interval if any packet in it was marked.
#pragma once

#include "core/units.h"

namespace dcqcn {

class DcqcnNp {
 public:
  explicit DcqcnNp(Time interval) : interval_(interval) {}

  // A CE-marked packet arrived. Returns true if a CNP must be sent now; otherwise the CNP is
  // pending and next_deadline() says when to call OnTimer.
  bool OnMarkedPacket(Time now) {
    if (last_cnp_ == kNever || now - last_cnp_ >= interval_) {
      last_cnp_ = now;
      pending_ = false;
      return true;
    }
    pending_ = true;
    return false;
  }
  // Returns true if a pending CNP must be sent now.
  bool OnTimer(Time now) {
    if (!pending_ || now < last_cnp_ + interval_) return false;
    last_cnp_ = now;
    pending_ = false;
    return true;
  }
  Time next_deadline() const { return pending_ ? last_cnp_ + interval_ : kTimeNever; }

 private:
  static constexpr Time kNever = INT64_MIN;
  Time interval_;
  Time last_cnp_ = kNever;
  bool pending_ = false;
};

}  // namespace dcqcn
