// FlowStarter against a real simulator: flows start at their start times in (start, id) order,
// with one pending event however many flows wait, and each start keeps the place among
// equal-time events that scheduling every start up front would have given it.
#include "net/flow_starter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/simulator.h"
#include "net/flow_spec.h"
#include "test_actions.h"

namespace dcqcn {
namespace {

using testing::Actions;

std::vector<FlowSpec> Starts(const std::vector<Time>& starts) {
  std::vector<FlowSpec> specs;
  for (const Time t : starts) specs.push_back({.src = 0, .dst = 1, .size = 1000, .start = t});
  return specs;
}

TEST(FlowStarterTest, StartsEachFlowAtItsTimeInStartThenIdOrderOnePendingAtATime) {
  Simulator sim;
  const std::vector<FlowSpec> specs = Starts({5000, 1000, 3000, 1000, 0});
  std::vector<std::pair<Time, uint32_t>> started;
  std::vector<size_t> pending;  // events pending as each start runs
  FlowStarter starter(&sim, specs, [&](uint32_t id) {
    started.emplace_back(sim.Now(), id);
    pending.push_back(sim.pending());
  });
  EXPECT_EQ(sim.pending(), 1u);
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(started, (std::vector<std::pair<Time, uint32_t>>{
                         {0, 4}, {1000, 1}, {1000, 3}, {3000, 2}, {5000, 0}}));
  // The next start is scheduled before this one runs; none after the last.
  EXPECT_EQ(pending, (std::vector<size_t>{1, 1, 1, 1, 0}));
  EXPECT_EQ(sim.events_executed(), 5u);
}

TEST(FlowStarterTest, ManyFlowsWaitAsOneEvent) {
  Simulator sim;
  constexpr uint32_t kFlows = 100000;
  std::vector<Time> starts;
  for (uint32_t id = 0; id < kFlows; ++id) starts.push_back((id * 7919 % 1000) * kNanosecond);
  const std::vector<FlowSpec> specs = Starts(starts);
  std::vector<uint32_t> started;
  size_t most_pending = 0;
  FlowStarter starter(&sim, specs, [&](uint32_t id) {
    EXPECT_EQ(sim.Now(), specs[id].start);
    started.push_back(id);
    most_pending = std::max(most_pending, sim.pending());
  });
  EXPECT_EQ(sim.pending(), 1u);
  sim.RunUntil(kTimeNever);
  std::vector<uint32_t> expected(kFlows);
  for (uint32_t id = 0; id < kFlows; ++id) expected[id] = id;
  std::stable_sort(expected.begin(), expected.end(),
                   [&](uint32_t a, uint32_t b) { return starts[a] < starts[b]; });
  EXPECT_EQ(started, expected);
  EXPECT_EQ(most_pending, 1u);
}

TEST(FlowStarterTest, NoFlowsScheduleNothing) {
  Simulator sim;
  const std::vector<FlowSpec> specs;
  FlowStarter starter(&sim, specs, [](uint32_t) { ADD_FAILURE(); });
  EXPECT_EQ(sim.pending(), 0u);
}

TEST(FlowStarterTest, EqualTimeStartsRunInIdOrderAtTheStartersPlace) {
  // At one instant the starts run in flow-id order with the starter's place: after what a
  // handler enrolled before the starter scheduled, before what one enrolled after it did,
  // whenever each was scheduled (`early` and `late` schedule from their own events at 0).
  Simulator sim;
  Actions early(&sim);
  sim.Enroll(early);
  const Time t = 7 * kMicrosecond;
  std::vector<std::string> order;
  const std::vector<FlowSpec> specs = Starts({t, t, t});
  FlowStarter starter(&sim, specs,
                      [&](uint32_t id) { order.push_back("flow " + std::to_string(id)); });
  Actions late(&sim);
  sim.Enroll(late);
  late.At(0, [&] { late.At(t, [&] { order.push_back("late"); }); });
  early.At(0, [&] { early.At(t, [&] { order.push_back("early"); }); });
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(order, (std::vector<std::string>{"early", "flow 0", "flow 1", "flow 2", "late"}));
}

TEST(FlowStarterTest, ALaterStartKeepsItsPlaceThoughScheduledLate) {
  // Flow 0 starts at 2 t, flow 1 at t: flow 0's start is scheduled only when flow 1's runs,
  // after a handler enrolled after the starter scheduled an event at 2 t, yet runs before it.
  // For t = 1 us (within the event queue's wheel) and 1 s (beyond it, in its heap).
  for (const Time t : {1 * kMicrosecond, 1 * kSecond}) {
    SCOPED_TRACE(t);
    Simulator sim;
    std::vector<std::pair<Time, std::string>> order;
    const std::vector<FlowSpec> specs = Starts({2 * t, t});
    FlowStarter starter(&sim, specs, [&](uint32_t id) {
      order.push_back({sim.Now(), "flow " + std::to_string(id)});
    });
    Actions late(&sim);
    sim.Enroll(late);
    late.At(0, [&] { late.At(2 * t, [&] { order.push_back({sim.Now(), "event"}); }); });
    sim.RunUntil(kTimeNever);
    EXPECT_EQ(order, (std::vector<std::pair<Time, std::string>>{
                         {t, "flow 1"}, {2 * t, "flow 0"}, {2 * t, "event"}}));
  }
}

}  // namespace
}  // namespace dcqcn
