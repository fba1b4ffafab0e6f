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

EventQueue::EventQueue() : slots_(kSlots), occupied_(kSlots / 64, 0) { SetWindow(0); }

void EventQueue::SetWindow(Time t) {
  window_ = t;
  cur_ = &slots_[SlotOf(t)];
  head_ = cur_->data;
  end_ = cur_->data + cur_->size;
}

void EventQueue::Grow(Slot& s) {
  if (TakeSpare(s)) return;
  const uint32_t bigger =
      s.capacity == 0 ? 0 : spare_classes_ & ~((2u << SpareClass(s.capacity)) - 1);
  Slot to;
  if (bigger != 0) {
    to = TakeSpareOf(__builtin_ctz(bigger));  // the smallest that is bigger
  } else {
    to.capacity = s.capacity == 0 ? 8 : 2 * s.capacity;
    buffers_.emplace_back(new Event[to.capacity]);
    to.data = buffers_.back().get();
  }
  std::copy(s.data, s.data + s.size, to.data);
  GiveSpare(s);
  s.data = to.data;
  s.capacity = to.capacity;
}

void EventQueue::Place(const Event& e) {
  if (e.time >= window_ + kHorizon) {
    far_.push_back(e);
    std::push_heap(far_.begin(), far_.end(), HeapAfter);
    far_min_ = far_.front().time;
    ++size_;
  } else if (e.time < window_ + kSlotWidth) {
    // The slot being consumed: keep its unconsumed part sorted.
    Slot& s = *cur_;
    const auto head = head_ - s.data;
    if (s.size == s.capacity) Grow(s);
    Event* end = s.data + s.size;
    Event* at = std::upper_bound(s.data + head, end, e, Before);
    std::move_backward(at, end, end + 1);
    *at = e;
    ++s.size;
    head_ = s.data + head;
    end_ = s.data + s.size;
  } else {
    Append(SlotOf(e.time), e);
    ++size_;
  }
}

void EventQueue::Append(size_t slot, const Event& e) {
  Slot& s = slots_[slot];
  if (s.size == s.capacity) Grow(s);
  s.data[s.size++] = e;
  MarkOccupied(slot);
}

void EventQueue::PushFull(size_t slot, Time time, uint64_t order_kind, EventHandler* target,
                          uint64_t arg) {
  Slot& s = slots_[slot];
  if (!TakeSpare(s)) [[unlikely]]
    return PushSlow(time, order_kind, target, arg);  // it must grow: Place
  // As Append, without its room check and call (this runs once per slot).
  s.data[s.size++] = Event{time, order_kind, target, arg};
  MarkOccupied(slot);
  ++size_;
}

void EventQueue::PushSlow(Time time, uint64_t order_kind, EventHandler* target, uint64_t arg) {
  if (time < window_) Rewind(time);
  Place(Event{time, order_kind, target, arg});
}

void EventQueue::PullFar(Time w) {
  while (!far_.empty() && far_.front().time < w + kHorizon) {
    std::pop_heap(far_.begin(), far_.end(), HeapAfter);
    const Event e = far_.back();
    far_.pop_back();
    Append(SlotOf(e.time), e);
  }
  far_min_ = far_.empty() ? kTimeNever : far_.front().time;
}

void EventQueue::Advance() {
  // The used-up slot's buffer, warm in the cache, serves the next slot that gets its first
  // event.
  GiveSpare(*cur_);
  *cur_ = Slot{};
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
  if (far_min_ < next) next = far_min_ & ~(kSlotWidth - 1);
  // Heap events that the wheel now reaches join it.
  if (far_min_ < next + kHorizon) PullFar(next);
  const size_t slot = SlotOf(next);
  occupied_[slot / 64] &= ~(uint64_t{1} << (slot % 64));
  // A slot is short and its events nearly in order (they join it mostly in time order; equal
  // times, as in HPCC's whole-nanosecond mode, in key order only per handler): one insertion
  // pass costs a comparison per event when it is sorted already, and moves only what is not.
  // (Marking a slot unsorted as events join it costs more: a comparison per push.)
  Slot& s = slots_[slot];
  if (s.size <= kInsertionSortMax) {
    InsertionSort(s.data, s.data + s.size);
  } else if (!std::is_sorted(s.data, s.data + s.size, Before)) {
    std::sort(s.data, s.data + s.size, Before);
  }
  size_ -= s.size;
  SetWindow(next);
}

void EventQueue::InsertionSort(Event* first, Event* last) {
  for (Event* i = first + 1; i < last; ++i) {
    if (!Before(*i, i[-1])) continue;
    const Event e = *i;
    Event* j = i;
    do {
      *j = j[-1];
      --j;
    } while (j != first && Before(e, j[-1]));
    *j = e;
  }
}

void EventQueue::Rewind(Time t) {
  std::vector<Event> all(far_.begin(), far_.end());
  far_.clear();
  all.insert(all.end(), head_, end_);
  for (Slot& s : slots_) {
    if (&s != cur_) all.insert(all.end(), s.data, s.data + s.size);
    s.size = 0;
  }
  std::fill(occupied_.begin(), occupied_.end(), 0);
  size_ = 0;
  far_min_ = kTimeNever;
  SetWindow(t & ~(kSlotWidth - 1));
  for (const Event& e : all) Place(e);  // keeps the current slot sorted
}

void Simulator::BadSchedule(Time at, uint32_t kind) const {
  if (at < now_) throw InvariantError("event scheduled in the past");
  throw InvariantError(fmt::format("event kind {} beyond {}", kind, Event::kKindMask));
}

Simulator::Simulator() { Enroll(outside_); }

void Simulator::EnrollFrom(uint64_t& next, uint64_t end, EventHandler& h) {
  if (next == end) {
    throw InputError(fmt::format(
        "more than {} event handlers (nodes, ports, links, timers) in one run", kObserverIds - 2));
  }
  h.next_order_ = (next++ << Event::kCountBits) | 1;
}

void Simulator::Unusual(EventHandler& h) {
  if (h.next_order_ == 0) return Enroll(h);
  throw InvariantError(
      fmt::format("an event handler scheduled more than {} events", kKeyedCounts >> 1));
}

bool Simulator::Step() {
  if (queue_.empty()) return false;
  Execute(queue_.Pop());
  acting_ = &outside_;
  return true;
}

void Simulator::RunUntil(Time until, uint64_t max_events) {
  for (uint64_t left = max_events; left != 0; --left) {
    const Event* e = queue_.Peek();
    if (e == nullptr || e->time > until) break;
    Execute(queue_.PopTop());
  }
  acting_ = &outside_;
}

}  // namespace dcqcn
