// The NIC side of an ACK-driven algorithm (DCTCP, TIMELY, HPCC): one pure sender state machine
// per flow the NIC sends, created when the flow starts at line rate and found by the flow's
// cc_sender_slot.
#pragma once

#include <utility>
#include <vector>

#include "cc/congestion_control.h"

namespace dcqcn {

template <class Sender>
class PerFlowSenders : public CongestionControl {
 protected:
  explicit PerFlowSenders(CcHost* host) : host_(host) {}
  // Gives `f` its sender, built from `args`, and starts it at line rate.
  template <class... Args>
  void Start(CcFlow& f, Args&&... args) {
    f.cc_sender_slot = static_cast<uint32_t>(senders_.size());
    senders_.emplace_back(std::forward<Args>(args)...);
    host_->SetRate(f, f.line_rate);
  }
  Sender& sender(const CcFlow& f) { return senders_[f.cc_sender_slot]; }
  // nullptr before the flow started.
  const Sender* find(const CcFlow& f) const {
    return f.cc_sender_slot == UINT32_MAX ? nullptr : &senders_[f.cc_sender_slot];
  }

  CcHost* host_;
  std::vector<Sender> senders_;
};

}  // namespace dcqcn
