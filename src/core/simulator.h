// The discrete-event loop: events run in time order, and events at equal times in the order they
// were scheduled (first-in-first-out), so every run is deterministic for a seed.
#pragma once

#include <cstdint>
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

// The three-method view of the engine that components depend on, so state machines can be
// unit-tested against a fake clock.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual Time Now() const = 0;
  virtual void Schedule(Time at, EventHandler* target, uint32_t kind, uint64_t arg) = 0;
};

struct Event {
  Time time;
  EventHandler* target;
  uint64_t arg;
  uint32_t kind;
};

// The pending-event set: a radix heap on the event time. Simulated time never goes backwards,
// so every new event is at or after the last one popped; an event goes to the bucket of the
// highest bit in which its time differs from that last time. Buckets are FIFO and are split in
// order, so events with equal times come out in the order they were scheduled: no sequence
// number is needed for determinism. Push is O(1); each event is moved down a few buckets at
// most before it is popped.
class EventQueue {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  // The earliest event (the first scheduled among equal times). Requires !empty().
  const Event& top() {
    if (head_ == buckets_[0].size()) Refill();
    return buckets_[0][head_];
  }
  // `e.time` must not be before the time of the last event popped.
  void Push(const Event& e) {
    if (e.time < last_) Rebase(e.time);  // only after a peek beyond an outside Schedule
    int b = Bucket(e.time);
    buckets_[b].push_back(e);
    occupied_ |= Bit(b);
    ++size_;
  }
  Event Pop() {
    if (head_ == buckets_[0].size()) Refill();
    --size_;
    return buckets_[0][head_++];
  }

 private:
  static constexpr int kBuckets = 65;
  int Bucket(Time t) const {
    uint64_t diff = static_cast<uint64_t>(t) ^ static_cast<uint64_t>(last_);
    return diff == 0 ? 0 : 64 - __builtin_clzll(diff);
  }
  // Occupancy bit of buckets 1..64 (bucket 0 is tracked by head_).
  static uint64_t Bit(int b) { return b == 0 ? 0 : uint64_t{1} << (b - 1); }
  // Bucket 0 is used up: move the next non-empty bucket's events down, around its minimum.
  void Refill();
  // Makes `t` (earlier than last_, but not than any popped event) the reference time.
  void Rebase(Time t);
  std::vector<Event> buckets_[kBuckets];
  size_t head_ = 0;  // next event of bucket 0
  uint64_t occupied_ = 0;  // bit b-1 set: bucket b is not empty
  size_t size_ = 0;
  Time last_ = 0;    // the time all bucket indices are relative to
};

class Simulator final : public Clock {
 public:
  Time Now() const override { return now_; }
  // Schedules at absolute time `at` (>= Now()).
  void Schedule(Time at, EventHandler* target, uint32_t kind, uint64_t arg) override;
  void ScheduleIn(Time delay, EventHandler* target, uint32_t kind, uint64_t arg) {
    Schedule(now_ + delay, target, kind, arg);
  }
  // Runs events with time <= until, at most `max_events` of them, or until Stop(). Returns
  // false if stopped by Stop().
  bool RunUntil(Time until, uint64_t max_events = UINT64_MAX);
  // Runs one event; returns false when none is pending.
  bool Step();
  void Stop() { stopped_ = true; }
  uint64_t events_executed() const { return executed_; }
  size_t pending() const { return queue_.size(); }
  Time next_time() { return queue_.empty() ? kTimeNever : queue_.top().time; }

 private:
  EventQueue queue_;
  Time now_ = 0;
  uint64_t executed_ = 0;
  bool stopped_ = false;
};

}  // namespace dcqcn
