// Flow starts, one pending at a time.
#include "net/flow_starter.h"

#include <algorithm>

namespace dcqcn {

FlowStarter::FlowStarter(Simulator* sim, std::vector<Flow>* flows, std::function<void(Flow&)> start)
    : sim_(sim), flows_(flows), start_(std::move(start)) {
  order_.resize(flows->size());
  for (size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<uint32_t>(i);
  std::stable_sort(order_.begin(), order_.end(),
                   [&](uint32_t a, uint32_t b) { return (*flows)[a].start < (*flows)[b].start; });
  first_place_ = sim->ReserveOrder(order_.size());
  ScheduleNext();
}

void FlowStarter::ScheduleNext() {
  if (next_ == order_.size()) return;
  const uint32_t id = order_[next_++];
  sim_->ScheduleReserved((*flows_)[id].start, this, 0, id, first_place_ + id);
}

void FlowStarter::HandleEvent(uint32_t, uint64_t arg) {
  // The next start first: at an equal time it still runs before anything this one schedules.
  ScheduleNext();
  start_((*flows_)[arg]);
}

}  // namespace dcqcn
