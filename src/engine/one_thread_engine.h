// A network on one loop, run on this thread event by event: the engine of most runs, whose
// speed the reference case measures (it adds nothing to the loop).
#pragma once

#include "engine/engine.h"

namespace dcqcn {

class OneThreadEngine final : public Engine {
 public:
  // `net` has one part.
  explicit OneThreadEngine(Network& net);
  void RunUntil(Time until, uint64_t max_events = UINT64_MAX) override {
    sim_.RunUntil(until, max_events);
  }
  Time Now() const override { return sim_.Now(); }
  uint64_t events_executed() const override { return sim_.events_executed(); }
  size_t pending() const override { return sim_.pending(); }
  Time next_time() override { return sim_.next_time(); }

 private:
  Simulator& sim_;
};

}  // namespace dcqcn
