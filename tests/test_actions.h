// For unit tests that act as the clock: runs an action at a given simulated time, in the
// simulator's order (equal times in the order the actions were scheduled).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <utility>

#include "core/simulator.h"

namespace dcqcn::testing {

class Actions : public EventHandler {
 public:
  explicit Actions(Simulator* sim) : sim_(sim) {}
  void At(Time t, std::function<void()> action) {
    actions_.push_back(std::move(action));
    sim_->Schedule(t, this, 0, actions_.size() - 1);
  }
  void HandleEvent(uint32_t, uint64_t i) override { actions_[i](); }

 private:
  Simulator* sim_;
  std::deque<std::function<void()>> actions_;  // stable: an action may schedule another
};

}  // namespace dcqcn::testing
