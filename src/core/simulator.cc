// Event queue and simulation loop.
#include "core/simulator.h"

#include <algorithm>

#include "core/error.h"

namespace dcqcn {

void EventQueue::Refill() {
  buckets_[0].clear();
  head_ = 0;
  int b = __builtin_ctzll(occupied_) + 1;  // callers guarantee the queue is not empty
  occupied_ &= ~Bit(b);
  std::vector<Event>& from = buckets_[b];
  if (from.size() == 1) {  // the common case: nothing to split
    last_ = from.front().time;
    buckets_[0].push_back(from.front());
    from.clear();
    return;
  }
  Time min = from.front().time;
  for (const Event& e : from) min = std::min(min, e.time);
  last_ = min;
  // Every event of bucket b lands in a lower bucket relative to the new minimum; iterating in
  // order keeps equal times in scheduling order.
  for (const Event& e : from) {
    int to = Bucket(e.time);
    buckets_[to].push_back(e);
    occupied_ |= Bit(to);
  }
  from.clear();
}

void EventQueue::Rebase(Time t) {
  // Buckets hold increasing, disjoint time ranges and equal times share a bucket, so
  // re-inserting bucket by bucket, each in order, keeps the scheduling order of equal times.
  std::vector<Event> all;
  all.reserve(size_);
  all.insert(all.end(), buckets_[0].begin() + static_cast<std::ptrdiff_t>(head_),
             buckets_[0].end());
  buckets_[0].clear();
  head_ = 0;
  for (int b = 1; b < kBuckets; ++b) {
    all.insert(all.end(), buckets_[b].begin(), buckets_[b].end());
    buckets_[b].clear();
  }
  last_ = t;
  occupied_ = 0;
  for (const Event& e : all) {
    int b = Bucket(e.time);
    buckets_[b].push_back(e);
    occupied_ |= Bit(b);
  }
}

void Simulator::Schedule(Time at, EventHandler* target, uint32_t kind, uint64_t arg) {
  if (at < now_) throw InvariantError("event scheduled in the past");
  queue_.Push(Event{at, target, arg, kind});
}

bool Simulator::Step() {
  if (queue_.empty()) return false;
  Event e = queue_.Pop();
  now_ = e.time;
  ++executed_;
  e.target->HandleEvent(e.kind, e.arg);
  return true;
}

bool Simulator::RunUntil(Time until, uint64_t max_events) {
  stopped_ = false;
  for (uint64_t n = 0; n < max_events && !stopped_ && !queue_.empty() && queue_.top().time <= until;
       ++n) {
    Step();
  }
  return !stopped_;
}

}  // namespace dcqcn
