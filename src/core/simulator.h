// The discrete-event loop: events run in time order, and events at equal times in the order they
// were scheduled (first-in-first-out), so every run is deterministic for a seed.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/units.h"

namespace dcqcn {

// Anything that receives events. `kind` and `arg` are the target's own encoding (e.g. a timer
// id and a generation number for lazy cancellation).
class EventHandler {
 public:
  virtual ~EventHandler() = default;
  virtual void HandleEvent(uint32_t kind, uint64_t arg) = 0;
};

// 32 bytes: the kind and a flag share a word with the scheduling order.
struct Event {
  static constexpr int kKindBits = 4;  // event kinds 0..15
  static constexpr uint64_t kKindMask = (uint64_t{1} << kKindBits) - 1;
  // Flag: `arg` is a pointer to what the handler reads first (a link's arriving packet), which
  // the run loop prefetches while the two events before this one run.
  static constexpr uint64_t kHotArg = uint64_t{1} << kKindBits;
  static constexpr int kOrderShift = kKindBits + 1;
  Time time;
  // (scheduling order << kOrderShift) | flag | kind. The order breaks ties between equal times
  // (first in, first out); it is unique, so the flag and kind bits never decide.
  uint64_t order_kind;
  EventHandler* target;
  uint64_t arg;
  uint32_t kind() const { return static_cast<uint32_t>(order_kind & kKindMask); }
};
static_assert(sizeof(Event) == 32);

// The pending-event set, ordered by (time, order). Most events fall within a few microseconds of
// now (a packet's transmission, its arrival one link delay later), so they go into a timing
// wheel of fine time slots, each sorted only when the clock reaches it; the rest (timeouts,
// far-off flow starts) wait in a binary heap until the wheel comes within reach of them.
class EventQueue {
 public:
  EventQueue();
  bool empty() const { return head_ == end_ && size_ == 0; }
  size_t size() const { return size_ + static_cast<size_t>(end_ - head_); }
  // The earliest event, or nullptr when none is pending.
  const Event* Peek() {
    if (head_ == end_) [[unlikely]] {
      if (size_ == 0) return nullptr;
      Advance();
    }
    return head_;
  }
  // The earliest event. Requires !empty().
  const Event& top() { return *Peek(); }
  // Removes and returns the event Peek() or top() just returned (nothing pushed in between).
  Event PopTop() {
    const Event e = *head_++;
    // Memory, not instructions, bounds a large fabric: the handler of the event after the next
    // one, and its hot pointer, are fetched while this event and the next run. (One event ahead
    // measured the same; the first two events of a slot go unfetched.)
    if (head_ + 1 < end_) {
      const Event& next = head_[1];
      // The handler's first 64 bytes (two lines unless it is aligned): handlers keep what
      // they read first there.
      __builtin_prefetch(next.target);
      __builtin_prefetch(reinterpret_cast<const char*>(next.target) + 63);
      if (next.order_kind & Event::kHotArg) __builtin_prefetch(reinterpret_cast<void*>(next.arg));
    }
    return e;
  }
  // Pushes an event whose `kind` holds only the kind and flag; Push adds the next place in the
  // scheduling order. `time` must not be before the last event popped. (Fields, not an Event:
  // they stay in registers, so the slow paths are tail calls.)
  void Push(Time time, uint64_t kind, EventHandler* target, uint64_t arg) {
    PushOrdered(time, seq_++ << Event::kOrderShift | kind, target, arg);
  }
  // `n` consecutive places in the scheduling order, for events pushed later with PushOrdered;
  // returns the first.
  uint64_t Reserve(uint64_t n) {
    const uint64_t first = seq_;
    seq_ += n;
    return first;
  }
  // Pushes with `order_kind`'s order as given (from Reserve), as if it had been pushed then.
  void PushOrdered(Time time, uint64_t order_kind, EventHandler* target, uint64_t arg) {
    // The common case inline: a later slot of the wheel with room, appended unsorted. (With the
    // room checked here, the inline path makes no call, so it saves and restores no registers.)
    // One unsigned comparison: window_ + kSlotWidth <= time < window_ + kHorizon.
    if (static_cast<uint64_t>(time - window_ - kSlotWidth) < kHorizon - kSlotWidth) {
      const size_t slot = SlotOf(time);
      Slot& s = slots_[slot];
      if (s.size != s.capacity) [[likely]] {
        s.data[s.size++] = Event{time, order_kind, target, arg};
        MarkOccupied(slot);
        ++size_;
        return;
      }
      // Tail calls with the fields still in registers: the inline path saves none.
      return PushFull(slot, time, order_kind, target, arg);
    }
    PushSlow(time, order_kind, target, arg);
  }
  Event Pop() {
    top();
    return PopTop();
  }

 private:
  static constexpr int kShift = 10;  // slot width 2^10 ps (about 1 ns)
  static constexpr Time kSlotWidth = Time{1} << kShift;
  static constexpr int kSlots = 4096;  // horizon about 4.2 us
  static constexpr Time kHorizon = Time{kSlots} << kShift;
  static bool Before(const Event& a, const Event& b) {
    return a.time < b.time || (a.time == b.time && a.order_kind < b.order_kind);
  }
  static size_t SlotOf(Time t) { return static_cast<size_t>(t >> kShift) & (kSlots - 1); }
  // A slot's events, in a buffer it holds only while it has events (and, the current slot,
  // until it is used up): the buffers circulate, so the events in flight stay in a few warm
  // buffers instead of spread over every slot's own. 16 bytes.
  struct Slot {
    Event* data = nullptr;
    uint32_t size = 0;
    uint32_t capacity = 0;
  };
  static_assert(sizeof(Slot) == 16);
  // A slot without a buffer takes the spare freed last; false when it has one or none is spare.
  bool TakeSpare(Slot& s) {
    if (s.capacity != 0 || spare_.empty()) return false;
    s = spare_.back();
    spare_.pop_back();
    return true;
  }
  // An empty slot's buffer, if it has one, becomes the spare taken next.
  void GiveSpare(const Slot& s) {
    if (s.capacity != 0) spare_.push_back(Slot{s.data, 0, s.capacity});
  }
  void MarkOccupied(size_t slot) { occupied_[slot / 64] |= uint64_t{1} << (slot % 64); }
  // Room for one more event: a spare buffer, or a bigger one (the old one becomes a spare).
  void Grow(Slot& s);
  // Makes the slot of time `t` the current one, all its events still to run.
  void SetWindow(Time t);
  // Into the heap beyond the horizon, or the wheel (the current slot: in order).
  void Place(const Event& e);
  // Appends to a slot other than the current one.
  void Append(size_t slot, const Event& e);
  // A later slot of the wheel without room: its first event takes a spare buffer (a slot that
  // must grow goes on to PushSlow).
  [[gnu::noinline]] void PushFull(size_t slot, Time time, uint64_t order_kind, EventHandler* target,
                                  uint64_t arg);
  // The current slot, a slot that must grow, beyond the horizon, or before the wheel.
  [[gnu::noinline]] void PushSlow(Time time, uint64_t order_kind, EventHandler* target,
                                  uint64_t arg);
  // Moves the heap's events that the wheel reaches, from window `w` on, into the wheel.
  void PullFar(Time w);
  // The current slot is used up: move to the next slot holding events (pulling in heap events
  // that the wheel now reaches) and sort it.
  void Advance();
  // Moves the wheel back so that it starts at `t` (only after a peek beyond a Schedule made
  // from outside the event loop).
  void Rewind(Time t);

  // The current slot's events still to run, in order; what the run loop reads per event.
  Event* head_ = nullptr;
  Event* end_ = nullptr;
  size_t size_ = 0;  // events pending elsewhere: in the wheel's other slots, and in far_
  Time window_ = 0;  // start of the current slot's time window
  uint64_t seq_ = 0;
  Slot* cur_;  // the current slot: &slots_[SlotOf(window_)]
  std::vector<Slot> slots_;
  std::vector<uint64_t> occupied_;                 // bit per slot (except the current one)
  std::vector<Slot> spare_;                        // empty buffers, the last freed last
  std::vector<std::unique_ptr<Event[]>> buffers_;  // owns every slot's and spare buffer
  std::vector<Event> far_;     // min-heap on (time, order) of events beyond the horizon
  Time far_min_ = kTimeNever;  // far_.front().time, or never
};

class Simulator final {
 public:
  Time Now() const { return now_; }
  // Schedules at absolute time `at` (>= Now()); `kind` < 16. Inline: it runs about once per
  // packet hop.
  [[gnu::always_inline]] void Schedule(Time at, EventHandler* target, uint32_t kind, uint64_t arg) {
    if (at < now_ || kind > Event::kKindMask) [[unlikely]]
      BadSchedule(at, kind);
    queue_.Push(at, kind, target, arg);
  }
  // Schedule with `arg` = `hot`, a pointer the handler reads first: the run loop prefetches it
  // two events ahead.
  [[gnu::always_inline]] void ScheduleHot(Time at, EventHandler* target, uint32_t kind,
                                          const void* hot) {
    if (at < now_ || kind > Event::kKindMask) [[unlikely]]
      BadSchedule(at, kind);
    queue_.Push(at, kind | Event::kHotArg, target, reinterpret_cast<uint64_t>(hot));
  }
  void ScheduleIn(Time delay, EventHandler* target, uint32_t kind, uint64_t arg) {
    Schedule(now_ + delay, target, kind, arg);
  }
  // Places in the order of events at equal times, reserved now for events scheduled later
  // (ScheduleReserved): such an event runs as if it had been scheduled at the reservation. So a
  // long list of future events (flow starts) can be scheduled one at a time, in the order and
  // with the results of scheduling them all at once, without holding them all.
  uint64_t ReserveOrder(uint64_t n) { return queue_.Reserve(n); }
  void ScheduleReserved(Time at, EventHandler* target, uint32_t kind, uint64_t arg, uint64_t order);
  // Runs events with time <= until, at most `max_events` of them.
  void RunUntil(Time until, uint64_t max_events = UINT64_MAX);
  // Runs one event; returns false when none is pending.
  bool Step();
  uint64_t events_executed() const { return executed_; }
  size_t pending() const { return queue_.size(); }
  Time next_time() {
    const Event* e = queue_.Peek();
    return e == nullptr ? kTimeNever : e->time;
  }
  // The event Step() runs next (an event trace, bench/parallel_bound.cc). Requires pending() > 0.
  const Event& next_event() { return queue_.top(); }

 private:
  [[noreturn]] void BadSchedule(Time at, uint32_t kind) const;
  void Execute(const Event& e) {
    now_ = e.time;
    ++executed_;
    e.target->HandleEvent(e.kind(), e.arg);
  }
  EventQueue queue_;
  Time now_ = 0;
  uint64_t executed_ = 0;
};

}  // namespace dcqcn
