// Flow starts, one pending at a time.
#include "net/flow_starter.h"

#include <algorithm>

namespace dcqcn {

FlowStarter::FlowStarter(Simulator* sim, std::span<const FlowSpec> specs,
                         std::function<void(uint32_t)> start,
                         const std::function<bool(uint32_t)>& waits, const EventHandler* order_as)
    : sim_(sim),
      order_as_(order_as != nullptr ? order_as : this),
      specs_(specs),
      start_(std::move(start)) {
  order_.reserve(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    if (!waits || !waits(static_cast<uint32_t>(i))) order_.push_back(static_cast<uint32_t>(i));
  }
  std::stable_sort(order_.begin(), order_.end(),
                   [&](uint32_t a, uint32_t b) { return specs[a].start < specs[b].start; });
  sim->Enroll(*this);
  ScheduleNext();
}

void FlowStarter::ScheduleNext() {
  if (next_ >= order_.size()) {
    std::vector<uint32_t>().swap(order_);  // every flow started: the order is not needed
    return;
  }
  const uint32_t id = order_[next_++];
  sim_->ScheduleKeyed(specs_[id].start, this, 0, id, *order_as_, id);
}

void FlowStarter::HandleEvent(uint32_t, uint64_t arg) {
  // The next start first: at an equal time it still runs before anything this one schedules.
  ScheduleNext();
  start_(static_cast<uint32_t>(arg));
}

}  // namespace dcqcn
