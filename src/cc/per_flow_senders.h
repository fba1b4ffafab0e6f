// The NIC side of an ACK-driven algorithm (DCTCP, TIMELY, HPCC): one pure sender state machine
// per flow the NIC sends, created when the flow starts at line rate, found by the flow's
// cc_sender_slot and released when the flow retires (its counts kept).
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "cc/congestion_control.h"

namespace dcqcn {

template <class Sender>
class PerFlowSenders : public CongestionControl {
 public:
  CcCounters counters() const final {
    CcCounters c = released_;
    for (size_t i = 0; i < senders_.size(); ++i) {
      if (in_use_[i]) AddCounters(senders_[i], c);
    }
    return c;
  }
  void OnFlowContinue(CcFlow& from, CcFlow& to) final {
    if (from.cc_sender_slot == UINT32_MAX) return OnFlowStart(to);
    to.cc_sender_slot = from.cc_sender_slot;
    from.cc_sender_slot = UINT32_MAX;
    host_->SetRate(to, from.rate);
  }
  void ReleaseSender(CcFlow& f) final {
    const uint32_t slot = f.cc_sender_slot;
    if (slot == UINT32_MAX) return;
    AddCounters(senders_[slot], released_);
    in_use_[slot] = 0;
    free_.push_back(slot);
    f.cc_sender_slot = UINT32_MAX;
  }

 protected:
  PerFlowSenders(CcHost* host, std::span<const CcCounterSpec> counters)
      : host_(host), released_(counters) {}
  // Gives `f` its sender, built from `args`, and starts it at line rate.
  template <class... Args>
  void Start(CcFlow& f, Args&&... args) {
    if (free_.empty()) {
      f.cc_sender_slot = static_cast<uint32_t>(senders_.size());
      senders_.emplace_back(std::forward<Args>(args)...);
      in_use_.push_back(1);
    } else {
      f.cc_sender_slot = free_.back();
      free_.pop_back();
      senders_[f.cc_sender_slot] = Sender(std::forward<Args>(args)...);
      in_use_[f.cc_sender_slot] = 1;
    }
    host_->SetRate(f, f.line_rate);
  }
  Sender& sender(const CcFlow& f) { return senders_[f.cc_sender_slot]; }
  // nullptr before the flow started.
  const Sender* find(const CcFlow& f) const {
    return f.cc_sender_slot == UINT32_MAX ? nullptr : &senders_[f.cc_sender_slot];
  }
  // Adds one sender's event counts to `c` (the algorithm's own counters).
  virtual void AddCounters(const Sender& s, CcCounters& c) const = 0;

  CcHost* host_;

 private:
  std::vector<Sender> senders_;
  std::vector<uint8_t> in_use_;  // per slot: 1 while a flow holds it
  std::vector<uint32_t> free_;   // released slots
  CcCounters released_;          // the counts of released senders
};

}  // namespace dcqcn
