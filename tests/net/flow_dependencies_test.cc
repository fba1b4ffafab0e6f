// FlowDependencies against a real simulator: a waiting flow starts exactly its delay after the
// last of its prerequisites completes as its source host sees it (delivered to it, or
// acknowledged to it), never before its own start; completions another host sees do not count.
#include "net/flow_dependencies.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/simulator.h"
#include "net/flow_spec.h"
#include "net/flow_starter.h"
#include "test_actions.h"

namespace dcqcn {
namespace {

using testing::Actions;

FlowSpec Flow(int src, int dst, Time start = 0) {
  return {.src = src, .dst = dst, .size = 1000, .start = start};
}

// Rows for `specs.size()` flows from (flow, prerequisites, delay).
FlowAfter Rows(size_t flows, const std::vector<std::pair<std::vector<uint32_t>, Time>>& rows) {
  FlowAfter after;
  for (const auto& [prerequisites, delay] : rows) after.Add(prerequisites, delay);
  after.Resize(flows);
  return after;
}

TEST(FlowAfterTest, CompressedRows) {
  const FlowAfter after = Rows(4, {{{}, 0}, {{0}, 5}, {{0, 1}, 0}});
  constexpr uint32_t kNone = FlowAfter::kNoRow;
  EXPECT_EQ(after.row_of, (std::vector<uint32_t>{kNone, 0, 1, kNone}));
  EXPECT_EQ(after.row_offsets, (std::vector<uint32_t>{0, 1, 3}));
  EXPECT_EQ(after.prerequisites, (std::vector<uint32_t>{0, 0, 1}));
  EXPECT_FALSE(after.waits(0));
  EXPECT_TRUE(after.waits(1));
  EXPECT_TRUE(after.waits(2));
  EXPECT_FALSE(after.waits(3));
  EXPECT_EQ(after.delay(1), 5);
  EXPECT_EQ(after.delay(2), 0);
  EXPECT_EQ(after.delay(3), 0);
  EXPECT_EQ(after.of(2).size(), 2u);
  EXPECT_TRUE(FlowAfter().empty());
}

TEST(FlowDependenciesTest, StartsDelayAfterTheLastPrerequisiteToThePicosecond) {
  // Flow 2 (h1 -> h3) waits for flow 0 (h0 -> h1: h1 receives it) and flow 1 (h1 -> h2: h1
  // sends it), then 3 us + 1 ps.
  Simulator sim;
  Actions act(&sim);
  const std::vector<FlowSpec> specs = {Flow(0, 1), Flow(1, 2), Flow(1, 3)};
  const Time delay = 3 * kMicrosecond + 1;
  const FlowAfter after = Rows(3, {{{}, 0}, {{}, 0}, {{0, 1}, delay}});
  std::vector<std::pair<Time, uint32_t>> started;
  FlowDependencies deps(&sim, specs, after,
                        [&](uint32_t id) { started.emplace_back(sim.Now(), id); });
  EXPECT_TRUE(deps.Waits(2));
  EXPECT_FALSE(deps.Waits(0));
  EXPECT_EQ(sim.pending(), 0u);  // nothing until a completion
  const Time delivered = 7 * kMicrosecond + 3;
  const Time acked = 11 * kMicrosecond + 5;
  act.At(delivered, [&] { deps.OnDelivered(0); });
  act.At(acked, [&] { deps.OnAcked(1); });
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(started, (std::vector<std::pair<Time, uint32_t>>{{acked + delay, 2}}));
  EXPECT_EQ(deps.start(2), acked + delay);
}

TEST(FlowDependenciesTest, OnlyTheCompletionTheSourceHostSeesCounts) {
  // Flow 0 is h0 -> h1. Flow 1 (from h1) waits for its delivery, flow 2 (from h0) for its
  // acknowledgement: each starts on its own side's completion only.
  Simulator sim;
  Actions act(&sim);
  const std::vector<FlowSpec> specs = {Flow(0, 1), Flow(1, 2), Flow(0, 2)};
  const FlowAfter after = Rows(3, {{{}, 0}, {{0}, 0}, {{0}, 0}});
  std::vector<std::pair<Time, uint32_t>> started;
  FlowDependencies deps(&sim, specs, after,
                        [&](uint32_t id) { started.emplace_back(sim.Now(), id); });
  act.At(100, [&] { deps.OnDelivered(0); });
  act.At(250, [&] { deps.OnAcked(0); });
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(started, (std::vector<std::pair<Time, uint32_t>>{{100, 1}, {250, 2}}));
}

TEST(FlowDependenciesTest, AReceiverThatSeesTheAckCountsItsFlightFromDelivery) {
  // As above, but flow 0's receiver sees it complete when its sender has the last ACK: h1
  // counts the ACK's flight (here 2 us + 7 ps) from its own delivery; the ACK's real arrival
  // (later, at h0) is h0's. Without the flight times the tracker refuses.
  Simulator sim;
  Actions act(&sim);
  const std::vector<FlowSpec> specs = {Flow(0, 1), Flow(1, 2), Flow(0, 2)};
  FlowAfter after = Rows(3, {{{}, 0}, {{0}, 0}, {{0}, 0}});
  after.receiver_sees_ack = {1};
  EXPECT_THROW(FlowDependencies(&sim, specs, after, [](uint32_t) {}), InvariantError);
  const Time flight = 2 * kMicrosecond + 7;
  std::vector<std::pair<Time, uint32_t>> started;
  FlowDependencies deps(
      &sim, specs, after, [&](uint32_t id) { started.emplace_back(sim.Now(), id); }, {},
      [&](uint32_t id) { return id == 0 ? flight : 0; });
  EXPECT_EQ(deps.ReceiverLag(0), flight);
  EXPECT_EQ(deps.ReceiverLag(1), 0);
  act.At(100, [&] { deps.OnDelivered(0); });
  act.At(100 + 3 * kMicrosecond, [&] { deps.OnAcked(0); });
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(started, (std::vector<std::pair<Time, uint32_t>>{{100 + flight, 1},
                                                             {100 + 3 * kMicrosecond, 2}}));
  EXPECT_EQ(CompletionSeenBy(1, specs[0], 100, 100 + 3 * kMicrosecond, flight), 100 + flight);
  EXPECT_EQ(CompletionSeenBy(0, specs[0], 100, 100 + 3 * kMicrosecond, flight),
            100 + 3 * kMicrosecond);
  EXPECT_EQ(CompletionSeenBy(1, specs[0], -1, -1, flight), -1);
}

TEST(FlowDependenciesTest, AReceiverThatSeesTheAckArrivalIsToldWhenItComes) {
  // As above, with FlowAfter::kAckArrival: h1 sees flow 0 complete the instant h0 has its last
  // ACK, not at its own delivery, and needs no flight times.
  Simulator sim;
  Actions act(&sim);
  const std::vector<FlowSpec> specs = {Flow(0, 1), Flow(1, 2), Flow(0, 2)};
  FlowAfter after = Rows(3, {{{}, 0}, {{0}, 0}, {{0}, 0}});
  after.receiver_sees_ack = {FlowAfter::kAckArrival};
  EXPECT_TRUE(after.any_ack_arrival());
  std::vector<std::pair<Time, uint32_t>> started;
  FlowDependencies deps(&sim, specs, after,
                        [&](uint32_t id) { started.emplace_back(sim.Now(), id); });
  EXPECT_TRUE(deps.SeesAckArrival(0));
  EXPECT_FALSE(deps.SeesAckArrival(1));
  EXPECT_EQ(deps.ReceiverLag(0), 0);
  act.At(100, [&] { deps.OnDelivered(0); });
  act.At(100 + 3 * kMicrosecond, [&] { deps.OnAcked(0); });
  sim.RunUntil(kTimeNever);
  // At one instant: the sender's own waiting flow first, then the receiver's.
  EXPECT_EQ(started, (std::vector<std::pair<Time, uint32_t>>{{100 + 3 * kMicrosecond, 2},
                                                             {100 + 3 * kMicrosecond, 1}}));
  EXPECT_EQ(CompletionSeenBy(1, specs[0], 100, 100 + 3 * kMicrosecond, 0, true),
            100 + 3 * kMicrosecond);
  after.receiver_sees_ack = {FlowAfter::kAckOnIdlePath};
  EXPECT_FALSE(after.any_ack_arrival());
}

TEST(FlowDependenciesTest, NotBeforeItsOwnStart) {
  Simulator sim;
  Actions act(&sim);
  const std::vector<FlowSpec> specs = {Flow(0, 1), Flow(1, 0, 50 * kMicrosecond),
                                       Flow(1, 2, 5 * kMicrosecond)};
  const FlowAfter after = Rows(3, {{{}, 0}, {{0}, 1 * kMicrosecond}, {{0}, 1 * kMicrosecond}});
  FlowDependencies deps(&sim, specs, after, [](uint32_t) {});
  act.At(10 * kMicrosecond, [&] { deps.OnDelivered(0); });
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(deps.start(1), 50 * kMicrosecond);  // its start is later than completion + delay
  EXPECT_EQ(deps.start(2), 11 * kMicrosecond);  // completion + delay is later than its start
}

TEST(FlowDependenciesTest, UnfinishedPrerequisiteNeverStarts) {
  Simulator sim;
  Actions act(&sim);
  const std::vector<FlowSpec> specs = {Flow(0, 1), Flow(2, 1), Flow(1, 0)};
  const FlowAfter after = Rows(3, {{{}, 0}, {{}, 0}, {{0, 1}, 0}});
  FlowDependencies deps(&sim, specs, after, [](uint32_t) { ADD_FAILURE(); });
  act.At(10, [&] { deps.OnDelivered(0); });
  act.At(20, [&] { deps.OnAcked(0); });  // another host's view: changes nothing for flow 2
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(deps.start(2), kTimeNever);
}

TEST(FlowDependenciesTest, EqualTimeStartsRunInTheOrderOfTheCompletions) {
  // Flows 2 and 3 become ready at the same instant through different completions: the start
  // of the one completed first runs first, after events already scheduled for that instant.
  Simulator sim;
  Actions act(&sim);
  const std::vector<FlowSpec> specs = {Flow(0, 1), Flow(2, 3), Flow(1, 0), Flow(3, 2)};
  const Time t = 4 * kMicrosecond;
  const FlowAfter after = Rows(4, {{{}, 0}, {{}, 0}, {{0}, t}, {{1}, t}});
  std::vector<std::string> order;
  FlowDependencies deps(&sim, specs, after,
                        [&](uint32_t id) { order.push_back("flow " + std::to_string(id)); });
  act.At(2 * t, [&] { order.push_back("event"); });
  act.At(t, [&] { deps.OnDelivered(1); });
  act.At(t, [&] { deps.OnDelivered(0); });
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(order, (std::vector<std::string>{"event", "flow 3", "flow 2"}));
}

TEST(FlowDependenciesTest, LongChainHoldsFewEvents) {
  // 200,000 flows bouncing between h0 and h1, each waiting for the one before to be delivered
  // (1 ps after it starts) and 1 ps more: flow i starts at 2 i ps, one event pending at a time.
  constexpr uint32_t kFlows = 200000;
  Simulator sim;
  Actions act(&sim);
  std::vector<FlowSpec> specs;
  FlowAfter after;
  for (uint32_t i = 0; i < kFlows; ++i) {
    specs.push_back(Flow(static_cast<int>(i % 2), static_cast<int>(1 - i % 2)));
    const uint32_t before = i - 1;
    after.Add(i == 0 ? std::span<const uint32_t>() : std::span<const uint32_t>(&before, 1), 1);
  }
  size_t most_pending = 0;
  uint32_t started = 0;
  FlowDependencies* tracker = nullptr;
  FlowDependencies deps(&sim, specs, after, [&](uint32_t id) {
    EXPECT_EQ(sim.Now(), 2 * static_cast<Time>(id));
    ++started;
    most_pending = std::max(most_pending, sim.pending());
    act.At(sim.Now() + 1, [tracker, id] { tracker->OnDelivered(id); });
  });
  tracker = &deps;
  act.At(0, [&] { act.At(1, [&] { deps.OnDelivered(0); }); });
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(started, kFlows - 1);  // flow 0 waits for nothing: the starter's, not started here
  EXPECT_EQ(deps.start(kFlows - 1), 2 * static_cast<Time>(kFlows - 1));
  EXPECT_LE(most_pending, 1u);
}

TEST(FlowDependenciesTest, PrerequisiteTheSourceCannotSeeIsOurBug) {
  Simulator sim;
  const std::vector<FlowSpec> specs = {Flow(0, 1), Flow(2, 3)};
  const FlowAfter after = Rows(2, {{{}, 0}, {{0}, 0}});
  EXPECT_THROW(FlowDependencies(&sim, specs, after, [](uint32_t) {}), InvariantError);
  const FlowAfter long_rows = Rows(3, {{{}, 0}});
  EXPECT_THROW(FlowDependencies(&sim, specs, long_rows, [](uint32_t) {}), InvariantError);
}

TEST(FlowDependenciesTest, FlowsSharingARowStartTogetherAfterItsLastPrerequisite) {
  // Flows 2 and 3 (both from h1) share one row: flow 0 (h0 -> h1, delivered) and flow 1 (h1 ->
  // h0, acknowledged); each keeps its own delay.
  Simulator sim;
  Actions act(&sim);
  const std::vector<FlowSpec> specs = {Flow(0, 1), Flow(1, 0), Flow(1, 2), Flow(1, 3)};
  FlowAfter after;
  const std::vector<uint32_t> prerequisites = {0, 1};
  const uint32_t row = after.AddRow(prerequisites);
  after.Assign(2, row, 0);
  after.Assign(3, row, 7);
  EXPECT_EQ(after.of(2).size(), 2u);
  EXPECT_EQ(after.of(3).data(), after.of(2).data());
  std::vector<std::pair<uint32_t, Time>> started;
  FlowDependencies deps(&sim, specs, after, [&](uint32_t id) {
    started.push_back({id, sim.Now()});
  });
  act.At(10, [&] { deps.OnAcked(1); });
  act.At(20, [&] { deps.OnAcked(0); });  // h0 sees flow 0 complete: not h1's trigger
  act.At(30, [&] { deps.OnDelivered(0); });
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(started, (std::vector<std::pair<uint32_t, Time>>{{2, 30}, {3, 37}}));

  // Flows of two source hosts cannot share a row: no one host sees every completion.
  FlowAfter mixed;
  const uint32_t r = mixed.AddRow(prerequisites);
  mixed.Assign(2, r, 0);
  mixed.Assign(0, r, 0);
  EXPECT_THROW(FlowDependencies(&sim, specs, mixed, [](uint32_t) {}), InvariantError);
}

TEST(FlowDependenciesTest, StarterLeavesWaitingFlowsOutAndTheOthersKeepTheirPlaces) {
  // Flow 1 waits: the starter starts 0 and 2 at their times, in the order (and places among
  // equal-time events) they had with every flow scheduled.
  Simulator sim;
  Actions act(&sim);
  const Time t = 2 * kMicrosecond;
  const std::vector<FlowSpec> specs = {Flow(0, 1, t), Flow(1, 0, 0), Flow(2, 1, t)};
  const FlowAfter after = Rows(3, {{{}, 0}, {{0}, 0}, {{}, 0}});
  std::vector<std::pair<Time, std::string>> order;
  FlowDependencies deps(&sim, specs, after, [&](uint32_t id) {
    order.push_back({sim.Now(), "flow " + std::to_string(id)});
  });
  FlowStarter starter(
      &sim, specs,
      [&](uint32_t id) {
        order.push_back({sim.Now(), "flow " + std::to_string(id)});
        if (id == 0) act.At(sim.Now() + 10, [&] { deps.OnDelivered(0); });
      },
      [&](uint32_t id) { return deps.Waits(id); });
  Actions late(&sim);  // enrolled after the starter: its event at t runs after the starts
  sim.Enroll(late);
  late.At(0, [&] { late.At(t, [&] { order.push_back({sim.Now(), "event"}); }); });
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(order, (std::vector<std::pair<Time, std::string>>{
                       {t, "flow 0"}, {t, "flow 2"}, {t, "event"}, {t + 10, "flow 1"}}));
}

TEST(FlowDependenciesTest, ATransferOnAConnectionStartsOnceTheOneBeforeHasSent) {
  // Flows 1 and 3 follow flows 0 and 2 on their connections (h0 -> h1). Flow 1 also waits for
  // flow 4's delivery to h0; flow 3 waits for nothing else. Flow 1's row is ready (9 us) before
  // flow 0 has sent its last packet (12 us): it starts then. Flow 3 has no row: it starts once
  // flow 2 has sent (20 us), and not before its own start (25 us).
  Simulator sim;
  Actions act(&sim);
  const std::vector<FlowSpec> specs = {Flow(0, 1), Flow(0, 1), Flow(0, 1),
                                       Flow(0, 1, 25 * kMicrosecond), Flow(1, 0)};
  FlowAfter after = Rows(5, {{{}, 0}, {{4}, 0}, {{}, 0}, {{}, 0}, {{}, 0}});
  after.SetPrevious(1, 0);
  after.SetPrevious(3, 2);
  std::vector<std::pair<Time, uint32_t>> started;
  FlowDependencies deps(&sim, specs, after,
                        [&](uint32_t id) { started.emplace_back(sim.Now(), id); });
  EXPECT_TRUE(deps.Waits(1));
  EXPECT_TRUE(deps.Waits(3));
  EXPECT_FALSE(deps.Waits(2));
  EXPECT_EQ(deps.Next(0), 1u);
  EXPECT_EQ(deps.Previous(3), 2u);
  EXPECT_EQ(deps.Next(1), FlowAfter::kNone);
  act.At(9 * kMicrosecond, [&] { deps.OnDelivered(4); });
  act.At(12 * kMicrosecond, [&] { deps.OnSent(0); });
  act.At(20 * kMicrosecond, [&] { deps.OnSent(2); });
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(started, (std::vector<std::pair<Time, uint32_t>>{{12 * kMicrosecond, 1},
                                                             {25 * kMicrosecond, 3}}));
}

TEST(FlowDependenciesTest, ATransferWaitsForItsRowEvenWhenTheOneBeforeHasSent) {
  Simulator sim;
  Actions act(&sim);
  const std::vector<FlowSpec> specs = {Flow(0, 1), Flow(0, 1), Flow(1, 0)};
  FlowAfter after = Rows(3, {{{}, 0}, {{2}, 3}, {{}, 0}});
  after.SetPrevious(1, 0);
  std::vector<std::pair<Time, uint32_t>> started;
  FlowDependencies deps(&sim, specs, after,
                        [&](uint32_t id) { started.emplace_back(sim.Now(), id); });
  act.At(5, [&] { deps.OnSent(0); });
  act.At(7, [&] { deps.OnDelivered(2); });
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(started, (std::vector<std::pair<Time, uint32_t>>{{10, 1}}));
}

TEST(FlowDependenciesTest, AConnectionIsOneSourceAndDestinationInOrder) {
  Simulator sim;
  const std::vector<FlowSpec> specs = {Flow(0, 1), Flow(0, 2), Flow(0, 1)};
  for (const auto& [id, before] : std::vector<std::pair<uint32_t, uint32_t>>{{1, 0}, {0, 2}}) {
    FlowAfter after;
    after.SetPrevious(id, before);
    EXPECT_THROW(FlowDependencies(&sim, specs, after, [](uint32_t) {}), InvariantError);
  }
}

TEST(FlowDependenciesTest, ATaskCompletesItsDelayAfterItsRowAndItsHostsFlowsWaitForIt) {
  // Host 1 computes 5 us once flow 0 (h0 -> h1) is delivered (task A), then sends flow 1 once A
  // and flow 2 (h2 -> h1) are in; task B (host 1, 2 us) waits for A only; task C (host 3) waits
  // for nothing and completes at its not_before + delay.
  Simulator sim;
  Actions act(&sim);
  const std::vector<FlowSpec> specs = {Flow(0, 1), Flow(1, 0), Flow(2, 1)};
  FlowAfter after;
  after.Resize(3);
  const uint32_t a =
      after.AddTask({.host = 1, .row = after.AddRow(std::vector<uint32_t>{0}), .delay = 5000});
  after.Assign(1, after.AddRow(std::vector<uint32_t>{a, 2}), 0);
  const uint32_t b =
      after.AddTask({.host = 1, .row = after.AddRow(std::vector<uint32_t>{a}), .delay = 2000});
  const uint32_t c = after.AddTask({.host = 3, .delay = 700, .not_before = 300});
  EXPECT_TRUE(FlowAfter::IsTask(a));
  EXPECT_FALSE(after.empty());
  std::vector<std::pair<Time, uint32_t>> started;
  FlowDependencies deps(&sim, specs, after,
                        [&](uint32_t id) { started.emplace_back(sim.Now(), id); });
  act.At(1000, [&] { deps.OnDelivered(0); });
  act.At(4000, [&] { deps.OnDelivered(2); });
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(deps.task_done(a), 6000);
  EXPECT_EQ(deps.task_done(b), 8000);
  EXPECT_EQ(deps.task_done(c), 1000);
  // Flow 1 waited for task A (6000) and flow 2 (4000): the later.
  EXPECT_EQ(started, (std::vector<std::pair<Time, uint32_t>>{{6000, 1}}));
}

TEST(FlowDependenciesTest, OnceTheRunIsOverWhatTheResultsAskIsKept) {
  // Flow 1 follows flow 0 on its connection and waits for task A (host 1, after flow 2's
  // delivery); freeing the run's tables leaves the starts, the tasks' ends, who waits and the
  // connection's order as they were.
  Simulator sim;
  Actions act(&sim);
  const std::vector<FlowSpec> specs = {Flow(0, 1), Flow(0, 1), Flow(2, 0)};
  FlowAfter after;
  after.Resize(3);
  const uint32_t a =
      after.AddTask({.host = 0, .row = after.AddRow(std::vector<uint32_t>{2}), .delay = 500});
  after.Assign(1, after.AddRow(std::vector<uint32_t>{a}), 0);
  after.SetPrevious(1, 0);
  FlowDependencies deps(&sim, specs, after, [](uint32_t) {});
  act.At(1000, [&] { deps.OnSent(0); });
  act.At(2000, [&] { deps.OnDelivered(2); });
  sim.RunUntil(kTimeNever);
  ASSERT_EQ(deps.start(1), 2500);
  ASSERT_EQ(deps.task_done(a), 2500);
  deps.ReleaseRunState();
  EXPECT_EQ(deps.start(1), 2500);
  EXPECT_EQ(deps.task_done(a), 2500);
  EXPECT_TRUE(deps.Waits(1));
  EXPECT_FALSE(deps.Waits(0));
  EXPECT_FALSE(deps.Waits(2));
  EXPECT_EQ(deps.Previous(1), 0u);
}

TEST(FlowDependenciesTest, ATaskWaitsOnlyForWhatItsHostSees) {
  Simulator sim;
  const std::vector<FlowSpec> specs = {Flow(0, 1)};
  FlowAfter on_other_host;
  on_other_host.AddTask({.host = 2, .row = on_other_host.AddRow(std::vector<uint32_t>{0})});
  EXPECT_THROW(FlowDependencies(&sim, specs, on_other_host, [](uint32_t) {}), InvariantError);
  // A flow of host 0 cannot wait for a task of host 1.
  FlowAfter other_task;
  const uint32_t t = other_task.AddTask({.host = 1});
  other_task.Add(std::vector<uint32_t>{t}, 0);
  EXPECT_THROW(FlowDependencies(&sim, specs, other_task, [](uint32_t) {}), InvariantError);
}

TEST(FlowDependenciesTest, AQueueRunsOneTaskAtATimeAndTheNewestWaitingNext) {
  // Host 1's queue: task w1 is due at 100 and holds it; w2 (due 200) and w3 (due 300) wait. The
  // task that releases it after flow 0 (delivered at 1000) hands it to w3, the newest; the one
  // after flow 1 (2000) to w2. Nothing releases w2's turn: w4 (due 2500) waits for good.
  Simulator sim;
  Actions act(&sim);
  const std::vector<FlowSpec> specs = {Flow(0, 1), Flow(2, 1)};
  FlowAfter after;
  after.Resize(2);
  const uint32_t q = after.AddQueue(1);
  auto queued = [&](Time due) { return after.AddTask({.host = 1, .delay = due, .queue = q}); };
  const uint32_t w1 = queued(100);
  const uint32_t w2 = queued(200);
  const uint32_t w3 = queued(300);
  const uint32_t w4 = queued(2500);
  auto release_after = [&](uint32_t flow) {
    return after.AddTask(
        {.host = 1, .row = after.AddRow(std::vector<uint32_t>{flow}), .releases = q});
  };
  const uint32_t r1 = release_after(0);
  const uint32_t r3 = release_after(1);
  FlowDependencies deps(&sim, specs, after, [](uint32_t) {});
  act.At(1000, [&] { deps.OnDelivered(0); });
  act.At(2000, [&] { deps.OnDelivered(1); });
  sim.RunUntil(kTimeNever);
  EXPECT_EQ(deps.task_done(w1), 100);
  EXPECT_EQ(deps.task_done(r1), 1000);
  EXPECT_EQ(deps.task_done(w3), 1000);
  EXPECT_EQ(deps.task_done(r3), 2000);
  EXPECT_EQ(deps.task_done(w2), 2000);
  EXPECT_EQ(deps.task_done(w4), kTimeNever);
}

TEST(FlowDependenciesTest, AQueueBelongsToOneHost) {
  Simulator sim;
  const std::vector<FlowSpec> specs = {Flow(0, 1)};
  FlowAfter other_host;
  const uint32_t q = other_host.AddQueue(1);
  other_host.AddTask({.host = 0, .queue = q});
  EXPECT_THROW(FlowDependencies(&sim, specs, other_host, [](uint32_t) {}), InvariantError);
  FlowAfter both;
  const uint32_t b = both.AddQueue(0);
  both.AddTask({.host = 0, .queue = b, .releases = b});
  EXPECT_THROW(FlowDependencies(&sim, specs, both, [](uint32_t) {}), InvariantError);
  FlowAfter unknown;
  unknown.AddTask({.host = 0, .releases = 3});
  EXPECT_THROW(FlowDependencies(&sim, specs, unknown, [](uint32_t) {}), InvariantError);
}

}  // namespace
}  // namespace dcqcn
