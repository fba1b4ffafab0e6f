// Event queue and simulator: ordering, ties by the scheduling handler's key, lazy cancellation.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "core/simulator.h"

namespace dcqcn {
namespace {

struct Recorder : EventHandler {
  std::vector<std::pair<Time, uint64_t>> seen;
  Simulator* sim = nullptr;
  void HandleEvent(uint32_t, uint64_t arg) override { seen.push_back({sim->Now(), arg}); }
};

TEST(EventQueueTest, PopsInTimeOrderAndFifoOnTies) {
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  sim.Schedule(30, &r, 0, 1);
  sim.Schedule(10, &r, 0, 2);
  sim.Schedule(20, &r, 0, 3);
  sim.Schedule(10, &r, 0, 4);
  sim.Schedule(10, &r, 0, 5);
  sim.RunUntil(kTimeNever);
  std::vector<std::pair<Time, uint64_t>> expected = {{10, 2}, {10, 4}, {10, 5}, {20, 3}, {30, 1}};
  EXPECT_EQ(r.seen, expected);
  EXPECT_EQ(sim.events_executed(), 5u);
}

// Two handlers that, from events of their own, schedule labelled events at one instant T.
struct Scheduler : EventHandler {
  Scheduler(Simulator* sim, std::vector<std::string>* log, std::string name)
      : sim(sim), log(log), name(std::move(name)) {}
  Simulator* sim;
  std::vector<std::string>* log;
  std::string name;
  void HandleEvent(uint32_t kind, uint64_t arg) override {
    if (kind == 1) {
      log->push_back(name + std::to_string(arg));
      return;
    }
    // kind 0: schedule `arg` labelled events at T.
    for (uint64_t i = 0; i < arg; ++i) sim->Schedule(1000, this, 1, next++);
  }
  uint64_t next = 0;
};

TEST(SimulatorOrderTest, EqualTimesRunByTheSchedulingHandlerThenItsCountHoweverInterleaved) {
  // a (enrolled first) and b each schedule three events for T, in two sessions at different
  // times; the two runs interleave the sessions differently, yet run the events at T alike:
  // a's in its order, then b's.
  auto run = [](Time a_first, Time a_second, Time b_first, Time b_second) {
    Simulator sim;
    std::vector<std::string> log;
    Scheduler a(&sim, &log, "a"), b(&sim, &log, "b");
    sim.Enroll(a);
    sim.Enroll(b);
    sim.Schedule(a_first, &a, 0, 2);
    sim.Schedule(a_second, &a, 0, 1);
    sim.Schedule(b_first, &b, 0, 1);
    sim.Schedule(b_second, &b, 0, 2);
    sim.RunUntil(kTimeNever);
    return log;
  };
  const std::vector<std::string> expected = {"a0", "a1", "a2", "b0", "b1", "b2"};
  EXPECT_EQ(run(10, 20, 30, 40), expected);
  EXPECT_EQ(run(40, 50, 10, 20), expected);
  EXPECT_EQ(run(10, 40, 20, 30), expected);
}

TEST(SimulatorOrderTest, KeyedEventsActingAsAndObserversKeepTheirPlaces) {
  Simulator sim;
  std::vector<std::string> log;
  Scheduler observer(&sim, &log, "observer"), a(&sim, &log, "a"), b(&sim, &log, "b");
  sim.EnrollObserver(observer);  // enrolled first, yet after every handler at an instant
  sim.Enroll(a);
  sim.Enroll(b);
  // Keyed as a's, in count order, though scheduled from outside in the other order.
  sim.ScheduleKeyed(1000, &a, 1, 7, a, 2);
  sim.ScheduleKeyed(1000, &a, 1, 6, a, 1);
  sim.ScheduleKeyed(1000, &observer, 1, 0, observer, 0);
  {
    // Scheduled from outside but as b's: after a's.
    Simulator::ActingAs acting(sim, b);
    sim.Schedule(1000, &b, 1, 9);
  }
  sim.Schedule(1000, &b, 1, 8);  // from outside (the first id): first
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(log, (std::vector<std::string>{"b8", "a6", "a7", "b9", "observer0"}));
}

TEST(SimulatorOrderTest, AHandlerNotEnrolledIsEnrolledAtItsFirstEvent) {
  Simulator sim;
  std::vector<std::string> log;
  Scheduler late(&sim, &log, "late"), early(&sim, &log, "early");
  sim.Schedule(10, &early, 0, 1);  // early's first event enrolls it, then late's
  sim.Schedule(20, &late, 0, 1);
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(log, (std::vector<std::string>{"early0", "late0"}));
}

TEST(EventQueueTest, KindsRideWithTheOrderWithoutDecidingIt) {
  // The kind shares a word with the scheduling order: a larger kind scheduled first still runs
  // first at an equal time, and each event gets its own kind back.
  struct Kinds : EventHandler {
    std::vector<std::pair<uint32_t, uint64_t>> seen;
    void HandleEvent(uint32_t kind, uint64_t arg) override { seen.push_back({kind, arg}); }
  } k;
  Simulator sim;
  sim.Schedule(10, &k, 15, 1);
  sim.Schedule(10, &k, 0, 2);
  sim.Schedule(10, &k, 7, 3);
  sim.RunUntil(kTimeNever);
  const std::vector<std::pair<uint32_t, uint64_t>> expected = {{15, 1}, {0, 2}, {7, 3}};
  EXPECT_EQ(k.seen, expected);
  EXPECT_THROW(sim.Schedule(20, &k, 16, 0), InvariantError);  // kinds are 0..15
  EXPECT_THROW(sim.Schedule(5, &k, 0, 0), InvariantError);    // the past
}

TEST(EventQueueTest, HotPointerEventsKeepTheirPlaceAndPointer) {
  // ScheduleHot flags its arg as a pointer to prefetch: the flag shares the order's word like
  // the kind, and must neither reorder equal times nor reach the handler's kind or arg.
  struct Kinds : EventHandler {
    std::vector<std::pair<uint32_t, uint64_t>> seen;
    void HandleEvent(uint32_t kind, uint64_t arg) override { seen.push_back({kind, arg}); }
  } k;
  int a = 0, b = 0;
  Simulator sim;
  sim.ScheduleHot(10, &k, 15, &a);
  sim.Schedule(10, &k, 15, 2);
  sim.ScheduleHot(10, &k, 0, &b);
  sim.Schedule(5, &k, 1, 4);
  sim.RunUntil(kTimeNever);
  const std::vector<std::pair<uint32_t, uint64_t>> expected = {
      {1, 4}, {15, reinterpret_cast<uint64_t>(&a)}, {15, 2}, {0, reinterpret_cast<uint64_t>(&b)}};
  EXPECT_EQ(k.seen, expected);
  EXPECT_THROW(sim.ScheduleHot(20, &k, 16, &a), InvariantError);
}

// A unique order key that does not follow the push order (a bijection of the push index), so
// that the queue is seen to order equal times by key, not by arrival.
uint64_t ScrambledKey(uint64_t i) {
  return (i * 0x9E3779B97F4A7C15ull) >> (Event::kOrderShift + 8);
}

TEST(EventQueueTest, MatchesASortByTimeAndKeyOnRandomInput) {
  EventQueue q;
  Rng rng(42);
  std::vector<std::pair<Time, uint64_t>> ref;  // (time, key)
  for (uint64_t i = 0; i < 20000; ++i) {
    Time t = static_cast<Time>(rng.Below(500));
    q.Push(t, ScrambledKey(i) << Event::kOrderShift, nullptr, ScrambledKey(i));
    ref.push_back({t, ScrambledKey(i)});
  }
  std::sort(ref.begin(), ref.end());
  for (const auto& [t, index] : ref) {
    Event e = q.Pop();
    ASSERT_EQ(e.time, t);
    ASSERT_EQ(e.arg, index);
  }
  EXPECT_TRUE(q.empty());
}

TEST(EventQueueTest, HoldModelMatchesAReferenceQueue) {
  // Pop one, push one or two later: the simulator's access pattern, against a stable reference.
  EventQueue q;
  std::vector<std::pair<Time, uint64_t>> ref;  // kept sorted by (time, index)
  Rng rng(9);
  uint64_t index = 0;
  auto push = [&](Time t) {
    q.Push(t, index << Event::kOrderShift, nullptr, index);
    ref.insert(std::upper_bound(ref.begin(), ref.end(), std::make_pair(t, index)),
               std::make_pair(t, index));
    ++index;
  };
  for (int i = 0; i < 100; ++i) push(static_cast<Time>(rng.Below(1000)));
  for (int i = 0; i < 20000; ++i) {
    Event e = q.Pop();
    ASSERT_EQ(e.time, ref.front().first) << i;
    ASSERT_EQ(e.arg, ref.front().second) << i;
    ref.erase(ref.begin());
    int n = static_cast<int>(rng.Below(3));
    for (int k = 0; k < n || q.empty(); ++k) {
      push(e.time + static_cast<Time>(rng.Below(4) == 0 ? 0 : rng.Below(1 << 20)));
      if (q.size() > 200) break;
    }
  }
}

TEST(EventQueueTest, EveryPushPathMatchesAReferenceQueue) {
  // Each push goes one of the queue's ways, chosen at random: at the time just popped (into the
  // slot being run, which then grows), within the same nanosecond, a later slot of the wheel
  // (its first event takes a spare buffer; a busy one grows) or beyond the wheel's horizon (the
  // heap), with keys in no particular order. Every pop and the count must match a reference
  // kept sorted by (time, key).
  EventQueue q;
  std::vector<std::pair<Time, uint64_t>> ref;  // (time, key), sorted
  Rng rng(11);
  uint64_t pushed = 0;
  auto push = [&](Time t) {
    const uint64_t key = ScrambledKey(pushed++);
    q.Push(t, key << Event::kOrderShift, nullptr, key);
    ref.insert(std::upper_bound(ref.begin(), ref.end(), std::make_pair(t, key)),
               std::make_pair(t, key));
  };
  for (int i = 0; i < 50; ++i) push(static_cast<Time>(rng.Below(100000)));
  for (int i = 0; i < 50000; ++i) {
    Event e = q.Pop();
    ASSERT_EQ(e.time, ref.front().first) << i;
    ASSERT_EQ(e.arg, ref.front().second) << i;
    ref.erase(ref.begin());
    const int n = static_cast<int>(rng.Below(3));
    for (int k = 0; k < n || q.empty(); ++k) {
      // The last choice is a time shared by many pushes (the next multiple of 100 ns), so that
      // a later slot outgrows its buffer.
      const Time shared = (e.time / 100000 + 1) * 100000;
      const Time at = std::array<Time, 6>{e.time,
                                          e.time + static_cast<Time>(rng.Below(1000)),
                                          e.time + static_cast<Time>(rng.Below(1 << 22)),
                                          e.time + static_cast<Time>(rng.Below(uint64_t{1} << 26)),
                                          e.time,
                                          shared}[rng.Below(6)];
      push(at);
      if (q.size() > 300) break;
    }
    ASSERT_EQ(q.size(), ref.size()) << i;
  }
  while (!q.empty()) {
    Event e = q.Pop();
    ASSERT_EQ(e.arg, ref.front().second);
    ref.erase(ref.begin());
  }
  EXPECT_TRUE(ref.empty());
}

TEST(EventQueueTest, BuffersStayBoundedWhenSlotsOutgrowTheSparesTheyTake) {
  // Each event pops and pushes one into a random slot of the wheel, and one in eight a burst
  // of up to 64 into one slot, with at most about 3,000 pending: a slot that took a small spare
  // outgrows it. A busy slot takes a bigger spare before a new buffer, so the buffers stop
  // growing with the events run. (A new buffer at every growth took 1.6x as many from the
  // 100,000th pop to the 400,000th here, and held 85 bytes for each flow of a flow-level run;
  // spares given to new slots largest first, 1.26x.)
  EventQueue q;
  Rng rng(5);
  uint64_t key = 0;
  q.Push(0, 0, nullptr, 0);
  size_t early = 0;
  for (int i = 0; i < 400000; ++i) {
    if (i == 100000) early = q.buffers();
    const Event e = q.Pop();
    int n = rng.Below(8) == 0 ? 1 + static_cast<int>(rng.Below(64)) : 1;
    if (q.size() > 3000) n = 0;
    const Time at = e.time + 1024 + static_cast<Time>(rng.Below(4000)) * 1024;
    for (int k = 0; k < n || q.empty(); ++k) q.Push(at, (++key) << Event::kOrderShift, nullptr, 0);
  }
  EXPECT_LE(static_cast<double>(q.buffers()), 1.1 * static_cast<double>(early))
      << early << " buffers after 100,000 events";
}

TEST(EventQueueTest, SchedulingBeforeAPeekedEventKeepsOrder) {
  // RunUntil peeks at the next event; a Schedule from outside the loop may then go before it.
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  sim.Schedule(1000, &r, 0, 1);
  sim.Schedule(1000, &r, 0, 2);
  sim.RunUntil(10);  // peeks at t = 1000, runs nothing
  sim.Schedule(500, &r, 0, 3);
  sim.Schedule(1000, &r, 0, 4);
  sim.RunUntil(kTimeNever);
  std::vector<std::pair<Time, uint64_t>> expected = {{500, 3}, {1000, 1}, {1000, 2}, {1000, 4}};
  EXPECT_EQ(r.seen, expected);
}

TEST(EventQueueTest, InterleavedPushPopStaysOrdered) {
  Simulator sim;
  struct Chain : EventHandler {
    Simulator* sim;
    Rng rng{7};
    Time last = 0;
    int left = 10000;
    bool ordered = true;
    void HandleEvent(uint32_t, uint64_t) override {
      ordered = ordered && sim->Now() >= last;
      last = sim->Now();
      if (--left > 0) {
        sim->ScheduleIn(static_cast<Time>(rng.Below(100)), this, 0, 0);
        if (rng.Below(2)) sim->ScheduleIn(static_cast<Time>(rng.Below(1000)), this, 0, 0);
      }
    }
  } chain;
  chain.sim = &sim;
  sim.Schedule(0, &chain, 0, 0);
  sim.RunUntil(kTimeNever);
  EXPECT_TRUE(chain.ordered);
}

// Lazy cancellation: a timer carries a generation; re-arming bumps it and stale firings are
// ignored, so nothing is ever searched for in the queue.
TEST(EventQueueTest, LazyCancellationByGeneration) {
  Simulator sim;
  struct Timer : EventHandler {
    Simulator* sim;
    uint64_t gen = 0;
    std::vector<Time> fired;
    void Arm(Time at) { sim->Schedule(at, this, 0, ++gen); }
    void HandleEvent(uint32_t, uint64_t g) override {
      if (g == gen) fired.push_back(sim->Now());
    }
  } timer;
  timer.sim = &sim;
  timer.Arm(100);
  timer.Arm(50);   // supersedes 100
  timer.Arm(200);  // supersedes 50
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(timer.fired, std::vector<Time>{200});
}

TEST(EventQueueTest, RunUntilStopsAtTimeAndBudget) {
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  for (int i = 0; i < 10; ++i) sim.Schedule(i * 10, &r, 0, i);
  sim.RunUntil(45);
  EXPECT_EQ(r.seen.size(), 5u);
  sim.RunUntil(kTimeNever, 2);
  EXPECT_EQ(r.seen.size(), 7u);
  EXPECT_EQ(sim.next_time(), 70);
}

}  // namespace
}  // namespace dcqcn
