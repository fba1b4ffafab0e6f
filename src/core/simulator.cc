// Event queue and simulation loop.
#include "core/simulator.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/error.h"

namespace dcqcn {

namespace {
auto HeapAfter = [](const Event& a, const Event& b) {
  return a.time > b.time || (a.time == b.time && a.order_kind > b.order_kind);
};
}  // namespace

EventQueue::EventQueue() : slots_(kSlots), occupied_(kSlots / 64, 0), cur_(&slots_[0]) {}

void EventQueue::PutInWheel(const Event& e) {
  size_t slot = SlotOf(e.time);
  std::vector<Event>& v = slots_[slot];
  if (e.time < window_ + (Time{1} << kShift)) {
    // The slot being consumed: keep its unconsumed part sorted.
    auto pos = std::upper_bound(v.begin() + static_cast<std::ptrdiff_t>(head_), v.end(), e, Before);
    v.insert(pos, e);
  } else {
    v.push_back(e);
    occupied_[slot / 64] |= uint64_t{1} << (slot % 64);
  }
}

void EventQueue::PushSlow(const Event& e) {
  if (e.time < window_) Rewind(e.time);
  if (e.time < window_ + kHorizon) {
    PutInWheel(e);
  } else {
    far_.push_back(e);
    std::push_heap(far_.begin(), far_.end(), HeapAfter);
  }
}

void EventQueue::Advance() {
  cur_->clear();
  head_ = 0;
  // The next slot holding events, in time order from the current one (wrapping around).
  Time next = kTimeNever;
  if (size_ > far_.size()) {  // events in the wheel
    size_t from = SlotOf(window_);
    for (size_t step = 1; step <= kSlots; step += 64) {
      size_t i = (from + step) % kSlots;
      // 64 slots starting at i, as one word (two words when i is not word-aligned).
      uint64_t word = occupied_[i / 64] >> (i % 64);
      if (i % 64 != 0) word |= occupied_[(i / 64 + 1) % (kSlots / 64)] << (64 - i % 64);
      if (word != 0) {
        size_t delta = step + static_cast<size_t>(__builtin_ctzll(word));
        next = window_ + (static_cast<Time>(delta) << kShift);
        break;
      }
    }
  }
  if (!far_.empty() && far_.front().time < next) {
    next = far_.front().time & ~((Time{1} << kShift) - 1);
  }
  SetWindow(next);
  size_t slot = SlotOf(window_);
  occupied_[slot / 64] &= ~(uint64_t{1} << (slot % 64));
  // Heap events that the wheel now reaches join it.
  while (!far_.empty() && far_.front().time < window_ + kHorizon) {
    std::pop_heap(far_.begin(), far_.end(), HeapAfter);
    Event e = far_.back();
    far_.pop_back();
    std::vector<Event>& v = slots_[SlotOf(e.time)];
    v.push_back(e);
    if (SlotOf(e.time) != slot)
      occupied_[SlotOf(e.time) / 64] |= uint64_t{1} << (SlotOf(e.time) % 64);
  }
  std::vector<Event>& v = *cur_;
  if (v.size() > 1) std::sort(v.begin(), v.end(), Before);
}

void EventQueue::Rewind(Time t) {
  std::vector<Event> all(far_.begin(), far_.end());
  far_.clear();
  std::vector<Event>& cur = *cur_;
  all.insert(all.end(), cur.begin() + static_cast<std::ptrdiff_t>(head_), cur.end());
  for (auto& v : slots_) {
    if (&v != &cur) all.insert(all.end(), v.begin(), v.end());
    v.clear();
  }
  std::fill(occupied_.begin(), occupied_.end(), 0);
  head_ = 0;
  SetWindow(t & ~((Time{1} << kShift) - 1));
  for (const Event& e : all) {
    if (e.time < window_ + kHorizon) {
      PutInWheel(e);
    } else {
      far_.push_back(e);
      std::push_heap(far_.begin(), far_.end(), HeapAfter);
    }
  }
  std::vector<Event>& v = *cur_;
  std::sort(v.begin() + static_cast<std::ptrdiff_t>(head_), v.end(), Before);
}

void Simulator::BadSchedule(Time at, uint32_t kind) const {
  if (at < now_) throw InvariantError("event scheduled in the past");
  throw InvariantError(fmt::format("event kind {} beyond {}", kind, Event::kKindMask));
}

void Simulator::ScheduleReserved(Time at, EventHandler* target, uint32_t kind, uint64_t arg,
                                 uint64_t order) {
  if (at < now_ || kind > Event::kKindMask) BadSchedule(at, kind);
  queue_.PushOrdered(Event{at, order << Event::kOrderShift | kind, target, arg});
}

bool Simulator::Step() {
  if (queue_.empty()) return false;
  Execute(queue_.Pop());
  return true;
}

bool Simulator::RunUntil(Time until, uint64_t max_events) {
  stopped_ = false;
  for (uint64_t n = 0; n < max_events && !stopped_ && !queue_.empty(); ++n) {
    if (queue_.top().time > until) break;
    Execute(queue_.PopTop());
  }
  return !stopped_;
}

}  // namespace dcqcn
