// The discrete-event loop: a pending-event set ordered by (time, insertion sequence), so events
// at equal times run first-in-first-out and every run is deterministic for a seed.
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
  uint64_t seq;
  EventHandler* target;
  uint64_t arg;
  uint32_t kind;
};

// 4-ary min-heap on (time, seq): shallower than a binary heap and cache friendlier.
class EventQueue {
 public:
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.front(); }
  void Push(const Event& e);
  Event Pop();

 private:
  static bool Before(const Event& a, const Event& b) {
    return a.time < b.time || (a.time == b.time && a.seq < b.seq);
  }
  std::vector<Event> heap_;
};

class Simulator : public Clock {
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
  Time next_time() const { return queue_.empty() ? kTimeNever : queue_.top().time; }

 private:
  EventQueue queue_;
  Time now_ = 0;
  uint64_t seq_ = 0;
  uint64_t executed_ = 0;
  bool stopped_ = false;
};

}  // namespace dcqcn
