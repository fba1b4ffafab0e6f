// The flows in flight. A Flow exists from its start until it retires (finished, and no packet of
// it left in the network), in slots recycled from a pool, so that memory follows the flows in
// flight rather than all the flows of the workload. Ids are workload indices and never reused:
// a stale reference to a retired flow (a timer, a pacer entry) finds nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "net/flow.h"

namespace dcqcn {

class FlowTable {
 public:
  FlowTable() = default;
  explicit FlowTable(size_t num_flows) : live_(num_flows, nullptr) {}
  FlowTable(const FlowTable&) = delete;
  FlowTable& operator=(const FlowTable&) = delete;

  size_t size() const { return live_.size(); }
  // Flow `id` while it is in flight; nullptr before its start and after it retired.
  Flow* find(uint32_t id) const { return live_[id]; }
  // Flow `id`, which must be in flight.
  Flow& operator[](uint32_t id) const { return *live_[id]; }

  // A fresh Flow for `id` (which is not in flight), at a stable address until it retires.
  Flow& Create(uint32_t id) {
    if (free_.empty()) Grow();
    Flow* f = free_.back();
    free_.pop_back();
    *f = Flow{};
    f->id = id;
    live_[id] = f;
    if (++in_flight_ > peak_) peak_ = in_flight_;
    return *f;
  }
  void Retire(uint32_t id) {
    free_.push_back(live_[id]);
    live_[id] = nullptr;
    --in_flight_;
  }
  size_t in_flight() const { return in_flight_; }
  // The most flows in flight at once.
  size_t peak() const { return peak_; }

 private:
  void Grow() {
    constexpr size_t kChunk = 1024;
    chunks_.push_back(std::make_unique<Flow[]>(kChunk));
    Flow* c = chunks_.back().get();
    for (size_t i = kChunk; i-- > 0;) free_.push_back(&c[i]);
  }
  std::vector<Flow*> live_;
  std::vector<std::unique_ptr<Flow[]>> chunks_;
  std::vector<Flow*> free_;
  size_t in_flight_ = 0;
  size_t peak_ = 0;
};

}  // namespace dcqcn
