// Starts the flows at their start times while holding one pending event, not one per flow: a run
// with millions of flows does not keep millions of events. A start's place among equal-time
// events is the starter's, then the flow id's, whenever it was scheduled: the same as if every
// start had been scheduled when the network was built.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/simulator.h"
#include "net/flow_spec.h"

namespace dcqcn {

class FlowStarter final : public EventHandler {
 public:
  // Schedules the first start; `start(id)` runs at flow `id`'s start time. Flows for which
  // `waits(id)` is true are left out: they start when their prerequisites complete
  // (FlowDependencies), yet every flow keeps its place, so leaving some out moves no other.
  // A run split over threads has a starter per thread, each for its hosts' flows (the others
  // count as waiting); they order their starts as one, `order_as` (enrolled first), would.
  FlowStarter(Simulator* sim, std::span<const FlowSpec> specs, std::function<void(uint32_t)> start,
              const std::function<bool(uint32_t)>& waits = {},
              const EventHandler* order_as = nullptr);
  void HandleEvent(uint32_t kind, uint64_t arg) override;

 private:
  void ScheduleNext();
  Simulator* sim_;
  const EventHandler* order_as_;  // whose place the starts take: this starter's, or one shared
  std::span<const FlowSpec> specs_;
  std::function<void(uint32_t)> start_;
  std::vector<uint32_t> order_;  // flow ids by (start, id)
  size_t next_ = 0;              // the next flow of order_ to schedule
};

}  // namespace dcqcn
