// The flows in flight. A Flow exists from its start until it retires (finished, and no packet of
// it left in the network), in slots recycled from a pool, so that memory follows the flows in
// flight rather than all the flows of the workload. Ids are workload indices and never reused:
// a stale reference to a retired flow (a timer, a pacer entry) finds nothing. A run split over
// threads creates each flow in the thread of its sender and retires flows between windows: each
// thread has a shard of slots of its own, and only the table of flows by id is shared (each
// entry is written by one thread at a time).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "net/flow.h"

namespace dcqcn {

class FlowTable {
 public:
  FlowTable() : shards_(1) {}
  explicit FlowTable(size_t num_flows, size_t shards = 1)
      : live_(num_flows, nullptr), shards_(shards) {}
  FlowTable(const FlowTable&) = delete;
  FlowTable& operator=(const FlowTable&) = delete;

  size_t size() const { return live_.size(); }
  // Flow `id` while it is in flight; nullptr before its start and after it retired, and in a
  // table made for no flows (the flow level makes none: 8 bytes a flow saved).
  Flow* find(uint32_t id) const { return id < live_.size() ? live_[id] : nullptr; }
  // Flow `id`, which must be in flight.
  Flow& operator[](uint32_t id) const { return *live_[id]; }
  // How many switches of a flow's path its route cache is read for (Flow::route_cache): none
  // once the routes have changed during the run (a link failed), since packets in flight count
  // their hops along the old paths. Beside the table that every lookup reads.
  int route_cache_hops() const { return route_cache_hops_; }
  void StopRouteCaches() { route_cache_hops_ = 0; }

  // A fresh Flow for `id` (which is not in flight), at a stable address until it retires,
  // from shard `shard`'s slots.
  Flow& Create(uint32_t id, size_t shard = 0) {
    Shard& s = shards_[shard];
    if (s.free.empty()) s.Grow();
    Flow* f = s.free.back();
    s.free.pop_back();
    *f = Flow{};
    f->id = id;
    live_[id] = f;
    if (++s.in_flight > s.peak) s.peak = s.in_flight;
    return *f;
  }
  // Returns flow `id`'s slot to shard `shard`, the one it came from.
  void Retire(uint32_t id, size_t shard = 0) {
    Shard& s = shards_[shard];
    s.free.push_back(live_[id]);
    live_[id] = nullptr;
    --s.in_flight;
  }
  size_t in_flight() const {
    int64_t n = 0;
    for (const Shard& s : shards_) n += s.in_flight;
    return static_cast<size_t>(n);
  }
  // The most flows in flight at once (with several shards, the sum of theirs: a bound).
  size_t peak() const {
    size_t n = 0;
    for (const Shard& s : shards_) n += static_cast<size_t>(s.peak);
    return n;
  }

 private:
  struct Shard {
    void Grow() {
      constexpr size_t kChunk = 1024;
      chunks.push_back(std::make_unique<Flow[]>(kChunk));
      Flow* c = chunks.back().get();
      for (size_t i = kChunk; i-- > 0;) free.push_back(&c[i]);
    }
    std::vector<std::unique_ptr<Flow[]>> chunks;
    std::vector<Flow*> free;
    int64_t in_flight = 0;
    int64_t peak = 0;
  };
  std::vector<Flow*> live_;
  int route_cache_hops_ = Flow::kRouteCacheHops;
  std::vector<Shard> shards_;
};

}  // namespace dcqcn
