// The discrete-event loop: events run in time order, and events at equal times in an order that
// depends only on who scheduled them: (time, the handler whose event was running when it was
// scheduled, that handler's own count). A handler's count advances only with its own events, so
// the order does not depend on how the handlers' events interleave: a run split over several
// event loops (partitions) orders each handler's events exactly as one loop does.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/units.h"

namespace dcqcn {

class Simulator;

// Anything that receives events. `kind` and `arg` are the target's own encoding (e.g. a timer
// id and a generation number for lazy cancellation).
class EventHandler {
 public:
  EventHandler() = default;
  // A copy would share the original's place in the event order.
  EventHandler(const EventHandler&) = delete;
  EventHandler& operator=(const EventHandler&) = delete;
  virtual ~EventHandler() = default;
  virtual void HandleEvent(uint32_t kind, uint64_t arg) = 0;

 private:
  friend class Simulator;
  // The order key of the next event scheduled while this handler's event runs: its id (from
  // Simulator::Enroll) above its count (from 1). 0: not enrolled yet.
  uint64_t next_order_ = 0;
};

// 32 bytes: the kind and a flag share a word with the scheduling order.
struct Event {
  static constexpr int kKindBits = 4;  // event kinds 0..15
  static constexpr uint64_t kKindMask = (uint64_t{1} << kKindBits) - 1;
  // Flag: `arg` is a pointer to what the handler reads first (a link's arriving packet), which
  // the run loop prefetches while the two events before this one run.
  static constexpr uint64_t kHotArg = uint64_t{1} << kKindBits;
  static constexpr int kOrderShift = kKindBits + 1;
  // The order key: the scheduling handler's id above its count (Simulator).
  static constexpr int kIdBits = 24;  // handlers per run
  static constexpr int kCountBits = 64 - kOrderShift - kIdBits;
  static constexpr uint64_t kCountMask = (uint64_t{1} << kCountBits) - 1;
  Time time;
  // (order key << kOrderShift) | flag | kind. The key breaks ties between equal times; it is
  // unique, so the flag and kind bits never decide.
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
  // Pushes an event; `order_kind` as Event's, its key unique among pending events. `time` must
  // not be before the last event popped. (Fields, not an Event: they stay in registers, so the
  // slow paths are tail calls.)
  void Push(Time time, uint64_t order_kind, EventHandler* target, uint64_t arg) {
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
  // The event buffers allocated so far (slots' and spare), for tests of what memory it holds.
  size_t buffers() const { return buffers_.size(); }

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
  // Spare buffers by size class: capacity 8 << class.
  static constexpr int kSpareClasses = 29;  // capacities up to 2^31
  static int SpareClass(uint32_t capacity) { return __builtin_ctz(capacity) - 3; }
  // A slot without a buffer takes a spare of the class freed last (the spare freed last, warm
  // in the cache), else of the smallest class there is (the larger ones are left for the slots
  // that grow); false when it has one or none is spare.
  bool TakeSpare(Slot& s) {
    if (s.capacity != 0 || spare_classes_ == 0) return false;
    int c = last_spare_class_;
    if ((spare_classes_ >> c & 1) == 0) c = __builtin_ctz(spare_classes_);
    s = TakeSpareOf(c);
    return true;
  }
  Slot TakeSpareOf(int c) {
    std::vector<Slot>& v = spare_[c];
    const Slot s = v.back();
    v.pop_back();
    if (v.empty()) spare_classes_ &= ~(1u << c);
    return s;
  }
  // An empty slot's buffer, if it has one, becomes a spare (of its class, taken next).
  void GiveSpare(const Slot& s) {
    if (s.capacity == 0) return;
    const int c = SpareClass(s.capacity);
    spare_[c].push_back(Slot{s.data, 0, s.capacity});
    spare_classes_ |= 1u << c;
    last_spare_class_ = c;
  }
  void MarkOccupied(size_t slot) { occupied_[slot / 64] |= uint64_t{1} << (slot % 64); }
  // Room for one more event: a spare buffer, or a bigger one, spare if one is (the old one
  // becomes a spare). A new buffer only when no spare is bigger: the buffers a run allocates
  // are bounded by what its slots hold at once, not by how often a slot outgrows the spare it
  // took.
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
  // Sorts a short slot (Advance).
  static constexpr uint32_t kInsertionSortMax = 32;
  static void InsertionSort(Event* first, Event* last);
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
  Slot* cur_;        // the current slot: &slots_[SlotOf(window_)]
  std::vector<Slot> slots_;
  std::vector<uint64_t> occupied_;                      // bit per slot (except the current one)
  std::array<std::vector<Slot>, kSpareClasses> spare_;  // empty buffers, the last freed last
  uint32_t spare_classes_ = 0;                          // bit per class with a spare
  int last_spare_class_ = 0;                            // the class of the spare freed last
  std::vector<std::unique_ptr<Event[]>> buffers_;       // owns every slot's and spare buffer
  std::vector<Event> far_;     // min-heap on (time, order) of events beyond the horizon
  Time far_min_ = kTimeNever;  // far_.front().time, or never
};

class Simulator final {
 public:
  Simulator();
  Time Now() const { return now_; }
  // Gives `h` the next handler id. The network enrolls each of its handlers as it builds them,
  // so that however its nodes are later spread over event loops, they are numbered alike; a
  // handler not enrolled is enrolled when its first event runs.
  void Enroll(EventHandler& h) { EnrollFrom(*next_id_, kObserverIds, h); }
  // An observer of the whole network (a sampler): its events at an instant run after every
  // enrolled handler's, in the order observers were enrolled.
  void EnrollObserver(EventHandler& h) { EnrollFrom(*next_observer_id_, 2 * kObserverIds, h); }
  // This loop is one of several running one network (one per thread): it takes its handler ids
  // from `first`'s, so that the handlers are numbered in build order whichever loop runs them.
  // Only while building: enrollment is not thread-safe.
  void ShareIdsWith(Simulator& first) {
    next_id_ = first.next_id_;
    next_observer_id_ = first.next_observer_id_;
  }
  // `twin` takes `original`'s place in the event order: a handler split into two halves in two
  // loops (a link between threads), of which only `twin` runs events.
  static void TakePlaceOf(EventHandler& twin, const EventHandler& original) {
    twin.next_order_ = original.next_order_;
  }
  // The order key of the event running now (0 outside events): what records made during
  // events in several loops are merged by, to the order one loop would have made them in.
  uint64_t running_order() const { return running_; }
  // Moves the clock on to `t` with nothing run: a loop of a split run that has run every event
  // up to `t`, so that what reads Now() there (an observer's reading of a port) sees `t`.
  void AdvanceTo(Time t) {
    if (t > now_) now_ = t;
  }
  // Schedules at absolute time `at` (>= Now()); `kind` < 16. Inline: it runs about once per
  // packet hop.
  [[gnu::always_inline]] void Schedule(Time at, EventHandler* target, uint32_t kind, uint64_t arg) {
    Push(at, acting_->next_order_++, kind, 0, target, arg);
  }
  // Schedule with `arg` = `hot`, a pointer the handler reads first: the run loop prefetches it
  // two events ahead.
  [[gnu::always_inline]] void ScheduleHot(Time at, EventHandler* target, uint32_t kind,
                                          const void* hot) {
    Push(at, acting_->next_order_++, kind, Event::kHotArg, target, reinterpret_cast<uint64_t>(hot));
  }
  void ScheduleIn(Time delay, EventHandler* target, uint32_t kind, uint64_t arg) {
    Schedule(now_ + delay, target, kind, arg);
  }
  // Schedule with the order key (`as`'s id, `count` in the upper half of its counts, which its
  // own count never reaches) instead of the acting handler's next: for events whose place must
  // not depend on when they were scheduled (a link's arrivals, at most one per instant: count
  // 0; flow starts: count = flow id). `as` must be enrolled; `count` < 2^(kCountBits - 1).
  [[gnu::always_inline]] void ScheduleKeyed(Time at, EventHandler* target, uint32_t kind,
                                            uint64_t arg, const EventHandler& as, uint64_t count,
                                            bool hot = false) {
    Push(at, (as.next_order_ & ~Event::kCountMask) | kKeyedCounts | count, kind,
         hot ? Event::kHotArg : 0, target, arg);
  }
  // While it lives, what is scheduled counts as `h`'s (a flow start runs as its sender's NIC,
  // whoever started it). Restores the previous acting handler.
  class ActingAs {
   public:
    ActingAs(Simulator& sim, EventHandler& h) : sim_(sim), previous_(sim.acting_) {
      sim.EnsureEnrolled(h);
      sim.acting_ = &h;
    }
    ~ActingAs() { sim_.acting_ = previous_; }
    ActingAs(const ActingAs&) = delete;
    ActingAs& operator=(const ActingAs&) = delete;

   private:
    Simulator& sim_;
    EventHandler* previous_;
  };
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
  // What outside the event loop schedules (setup, tests) counts as this handler's (the first id).
  class Outside final : public EventHandler {
    void HandleEvent(uint32_t, uint64_t) override {}
  };
  static constexpr uint64_t kKeyedCounts = (Event::kCountMask >> 1) + 1;  // ScheduleKeyed's half
  // Observers' ids lie above every other handler's.
  static constexpr uint64_t kObserverIds = uint64_t{1} << (Event::kIdBits - 1);
  void EnrollFrom(uint64_t& next, uint64_t end, EventHandler& h);
  [[noreturn]] void BadSchedule(Time at, uint32_t kind) const;
  // Every event's way into the queue: `key` its order key, `flag` 0 or Event::kHotArg.
  [[gnu::always_inline]] void Push(Time at, uint64_t key, uint32_t kind, uint64_t flag,
                                   EventHandler* target, uint64_t arg) {
    if (at < now_ || kind > Event::kKindMask) [[unlikely]]
      BadSchedule(at, kind);
    queue_.Push(at, key << Event::kOrderShift | kind | flag, target, arg);
  }
  // Enrolls `h` unless it is; throws when its own half of the counts is nearly used up (a
  // handler schedules far fewer than 2^33 events per event). One test for both in the common
  // case: not enrolled (0 - 1 sets every bit), or the half's top bit reached.
  void EnsureEnrolled(EventHandler& h) {
    if (((h.next_order_ - 1) & kKeyedCounts >> 1) != 0) [[unlikely]]
      Unusual(h);
  }
  void Unusual(EventHandler& h);
  void Execute(const Event& e) {
    now_ = e.time;
    running_ = e.order_kind;
    ++executed_;
    EventHandler& h = *e.target;
    EnsureEnrolled(h);
    acting_ = &h;
    h.HandleEvent(e.kind(), e.arg);
  }
  EventQueue queue_;
  Time now_ = 0;
  uint64_t executed_ = 0;
  Outside outside_;
  EventHandler* acting_ = &outside_;  // the handler whose event runs (or outside_)
  uint64_t running_ = 0;
  // The next ids, here or in the loop this one shares them with (ShareIdsWith).
  std::shared_ptr<uint64_t> next_id_ = std::make_shared<uint64_t>(1);
  std::shared_ptr<uint64_t> next_observer_id_ = std::make_shared<uint64_t>(kObserverIds);
};

}  // namespace dcqcn
