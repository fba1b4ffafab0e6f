// Starts the flows at their start times while holding one pending event, not one per flow: a run
// with millions of flows does not keep millions of events. Each start keeps the place among
// equal-time events that scheduling every start when the network was built gave it (flow-id
// order, before any event scheduled later), so the results are the same.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/simulator.h"
#include "net/flow.h"

namespace dcqcn {

class FlowStarter final : public EventHandler {
 public:
  // Schedules the first start; `start(flow)` runs at each flow's start time.
  FlowStarter(Simulator* sim, std::vector<Flow>* flows, std::function<void(Flow&)> start);
  void HandleEvent(uint32_t kind, uint64_t arg) override;

 private:
  void ScheduleNext();
  Simulator* sim_;
  std::vector<Flow>* flows_;
  std::function<void(Flow&)> start_;
  std::vector<uint32_t> order_;  // flow ids by (start, id)
  size_t next_ = 0;              // the next flow of order_ to schedule
  uint64_t first_place_ = 0;     // flow i's place in the event order is first_place_ + i
};

}  // namespace dcqcn
