// DCQCN notification point of one flow (receiver NIC), as the paper describes it: the first
// CE-marked packet triggers a CNP at once; after that at most one CNP per interval N, sent at
// the end of the interval if any packet in it was marked. The NIC's CNP generator may take time
// to produce a CNP (DcqcnCc's queue); the interval counts from when the CNP actually leaves, and
// marks that arrive while the flow's CNP waits for the generator are folded into that CNP.
#pragma once

#include "core/units.h"

namespace dcqcn {

class DcqcnNp {
 public:
  explicit DcqcnNp(Time interval) : interval_(interval) {}

  // A CE-marked packet arrived. Returns true if a CNP is due now: the caller has it generated
  // and calls OnCnpSent when it leaves. Otherwise the mark is either folded into the CNP still
  // waiting for the generator (waiting() was true) or pending: next_deadline() says when to
  // call OnTimer.
  bool OnMarkedPacket(Time now) {
    if (waiting_) return false;
    if (last_cnp_ == kNever || now - last_cnp_ >= interval_) {
      waiting_ = true;
      pending_ = false;
      return true;
    }
    pending_ = true;
    return false;
  }
  // Returns true if a pending CNP is due now (then as for OnMarkedPacket).
  bool OnTimer(Time now) {
    if (waiting_ || !pending_ || now < last_cnp_ + interval_) return false;
    waiting_ = true;
    pending_ = false;
    return true;
  }
  // The due CNP left the NIC at `now`; the next interval starts here. An unlimited generator
  // calls this at the time the CNP became due.
  void OnCnpSent(Time now) {
    waiting_ = false;
    last_cnp_ = now;
  }
  // A due CNP has not left yet.
  bool waiting() const { return waiting_; }
  Time next_deadline() const { return pending_ ? last_cnp_ + interval_ : kTimeNever; }

 private:
  static constexpr Time kNever = INT64_MIN;
  Time interval_;
  Time last_cnp_ = kNever;
  bool pending_ = false;  // a mark arrived since the last CNP left; never while waiting_
  bool waiting_ = false;
};

}  // namespace dcqcn
