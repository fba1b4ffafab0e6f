// Event queue and simulation loop.
#include "core/simulator.h"

#include "core/error.h"

namespace dcqcn {

void EventQueue::Push(const Event& e) {
  size_t i = heap_.size();
  heap_.push_back(e);
  while (i > 0) {
    size_t parent = (i - 1) / 4;
    if (!Before(e, heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

Event EventQueue::Pop() {
  Event result = heap_.front();
  Event last = heap_.back();
  heap_.pop_back();
  size_t n = heap_.size();
  if (n == 0) return result;
  size_t i = 0;
  while (true) {
    size_t first = 4 * i + 1;
    if (first >= n) break;
    size_t best = first;
    size_t end = first + 4 < n ? first + 4 : n;
    for (size_t c = first + 1; c < end; ++c) {
      if (Before(heap_[c], heap_[best])) best = c;
    }
    if (!Before(heap_[best], last)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = last;
  return result;
}

void Simulator::Schedule(Time at, EventHandler* target, uint32_t kind, uint64_t arg) {
  if (at < now_) throw InvariantError("event scheduled in the past");
  queue_.Push(Event{at, seq_++, target, arg, kind});
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
