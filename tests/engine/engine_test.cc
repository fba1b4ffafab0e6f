// The engines against each other on one small fabric: MakeEngine picks by the network's parts and
// the processes, and a run split over threads in windows gives one loop's results exactly (the
// flows' finishes and deliveries, every counter, the PFC log), with taps shown what they saw in
// one loop's order.
#include "engine/engine.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/one_thread_engine.h"
#include "engine/window_engine.h"
#include "net/network.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

// A k = 4 fat tree (8 edge racks) under a 12-to-1 incast across pods, which fills queues and
// pauses.
Scenario FatTree() {
  return LoadScenarioText(R"(
duration = "2ms"
[topology]
type = "fat_tree"
k = 4
[workload]
type = "incast"
senders = 12
receiver = 0
size = "256KB"
[switch]
buffer = "400KB"
[output]
timeseries = ["pfc"]
)",
                          "fat_tree.toml");
}

// Every packet a tap sees, as (time, flow, psn, type).
class Recorder final : public PacketTap {
 public:
  void OnPacket(const Packet& p, Time now) override {
    seen.push_back(std::to_string(now) + " " + std::to_string(p.flow) + " " +
                   std::to_string(p.psn) + " " + std::to_string(static_cast<int>(p.type)));
  }
  std::vector<std::string> seen;
};

struct Outcome {
  std::vector<Time> finish;
  std::vector<Bytes> delivered;
  NetStats stats;
  std::vector<std::string> sent;
  std::vector<std::string> received;
};

// `engine_kind`: "one" (one loop), "windows" (on threads), "mixed" (windows on the threads and
// on the calling thread alone, switching every few windows).
Outcome RunOn(const Scenario& s, int parts, const std::string& engine_kind) {
  NetworkConfig config = ToNetworkConfig(s);
  config.parts = parts;
  Network net(std::move(config));
  std::unique_ptr<Engine> engine = MakeEngine(net);
  EXPECT_EQ(engine->threads(), static_cast<int>(net.parts().size()));
  auto* windows = dynamic_cast<WindowEngine*>(engine.get());
  if (engine_kind == "one") {
    EXPECT_NE(dynamic_cast<OneThreadEngine*>(engine.get()), nullptr);
  } else {
    EXPECT_NE(windows, nullptr);
  }
  if (engine_kind == "mixed") windows->set_thread_choice(ThreadChoice(true, 0));
  Recorder sent;
  Recorder received;
  engine->Tap(0, 0, &sent, &received);  // h0's NIC port
  while (!engine->all_done() && engine->pending() > 0 && engine->next_time() <= s.duration) {
    engine->RunUntil(s.duration, 1000);
  }
  EXPECT_TRUE(engine->all_done());
  engine->RunUntil(engine->last_finish() + s.duration);
  net.CheckInvariants(engine->pending() == 0);
  Outcome o;
  for (uint32_t id = 0; id < net.num_flows(); ++id) {
    o.finish.push_back(net.flow_finish(id));
    o.delivered.push_back(net.flow_delivered(id));
  }
  if (engine_kind == "mixed") {
    EXPECT_GT(windows->thread_choice().windows_alone(), 50u);
    EXPECT_GT(windows->thread_choice().windows_on_threads(), 50u);
  }
  o.stats = net.stats();
  o.sent = sent.seen;
  o.received = received.seen;
  net.Tap(0, 0, nullptr, nullptr);
  return o;
}

class EngineSplit : public ::testing::TestWithParam<std::string> {};

TEST_P(EngineSplit, GivesOneLoopsResults) {
  const Scenario s = FatTree();
  const Outcome one = RunOn(s, 1, "one");
  const Outcome split = RunOn(s, 4, GetParam());
  ASSERT_GT(one.stats.pfc_pause_frames, 0u) << "the case must pause";
  EXPECT_FALSE(one.sent.empty());
  EXPECT_EQ(split.finish, one.finish);
  EXPECT_EQ(split.delivered, one.delivered);
  EXPECT_EQ(split.stats.packet_hops, one.stats.packet_hops);
  EXPECT_EQ(split.stats.pfc_pause_frames, one.stats.pfc_pause_frames);
  EXPECT_EQ(split.stats.ecn_marked_packets, one.stats.ecn_marked_packets);
  ASSERT_EQ(split.stats.pfc_log.size(), one.stats.pfc_log.size());
  for (size_t i = 0; i < one.stats.pfc_log.size(); ++i) {
    EXPECT_EQ(split.stats.pfc_log[i].time, one.stats.pfc_log[i].time) << i;
    EXPECT_EQ(split.stats.pfc_log[i].node, one.stats.pfc_log[i].node) << i;
  }
  EXPECT_EQ(split.sent, one.sent);
  EXPECT_EQ(split.received, one.received);
}

// GPUs in servers on a rail fabric (4 servers of 4, 2 per leaf): a hierarchical AllReduce, whose
// reduce-scatter and all-gather cross NVLink, beside a job whose TP groups are a server's GPUs
// over NVLink and whose DP AllReduces cross the fabric, waiting on compute.
Scenario RailWithNvlink() {
  return LoadScenarioText(R"(
duration = "50ms"
[topology]
type = "rail"
servers = 4
gpus_per_server = 4
servers_per_leaf = 2
spines = 2
[[collective]]
op = "allreduce"
algorithm = "hierarchical"
size = "4MB"
[[job]]
tp = 4
micro_batches = 2
[[job.layer]]
repeat = 2
forward_compute = "10us"
forward_comm = "allreduce"
forward_size = "256KB"
input_grad_compute = "20us"
input_grad_comm = "allreduce"
input_grad_size = "256KB"
weight_grad_compute = "30us"
weight_grad_comm = "allreduce"
weight_grad_size = "1MB"
)",
                          "rail.toml");
}

TEST_P(EngineSplit, NvlinkSplitsWithItsServersAndGivesOneLoopsResults) {
  const Scenario s = RailWithNvlink();
  NetworkConfig config = ToNetworkConfig(s);
  ASSERT_TRUE(config.nvlink.enabled());
  ASSERT_TRUE(CanSplit(config.flow_level, config.after));
  config.parts = 2;
  const Network probe(std::move(config));
  ASSERT_EQ(probe.parts().size(), 2u);
  // Each server's GPUs on one loop, whose thread runs its NVLink crossbar.
  for (int h = 0; h < 16; ++h) {
    EXPECT_EQ(&probe.part_of(h), &probe.part_of(h - h % 4)) << h;
  }
  const Outcome one = RunOn(s, 1, "one");
  const Outcome split = RunOn(s, 2, GetParam());
  ASSERT_GT(one.stats.nvlink_transfers, 0u);
  ASSERT_GT(one.stats.packet_hops, 0u);
  EXPECT_EQ(split.finish, one.finish);
  EXPECT_EQ(split.delivered, one.delivered);
  EXPECT_EQ(split.stats.nvlink_transfers, one.stats.nvlink_transfers);
  EXPECT_EQ(split.stats.nvlink_bytes, one.stats.nvlink_bytes);
  EXPECT_EQ(split.stats.packet_hops, one.stats.packet_hops);
  EXPECT_EQ(split.stats.ecn_marked_packets, one.stats.ecn_marked_packets);
  EXPECT_EQ(split.sent, one.sent);
  EXPECT_EQ(split.received, one.received);
}

// On the threads, and switching between the threads and the calling thread alone as
// ThreadChoice does when other work shares the cores.
INSTANTIATE_TEST_SUITE_P(Engine, EngineSplit, ::testing::Values("windows", "mixed"));

// Each way is measured over a trial of wall time; the other is tried after the first trial and
// every kTrialsBetweenProbes trials after that, and the faster kept.
TEST(ThreadChoice, KeepsTheFasterWayAndProbesTheOther) {
  constexpr double kTrial = ThreadChoice::kTrialSeconds;
  ThreadChoice idle(true);
  EXPECT_TRUE(idle.on_threads());
  idle.Record(2000, kTrial / 2);
  EXPECT_TRUE(idle.on_threads());   // the trial is not over
  idle.Record(2000, kTrial / 2);    // threads: 4000 events a trial
  EXPECT_FALSE(idle.on_threads());  // the first probe
  idle.Record(3000, kTrial);        // alone: slower
  EXPECT_TRUE(idle.on_threads());
  for (int i = 0; i < ThreadChoice::kTrialsBetweenProbes - 1; ++i) {
    idle.Record(4000, kTrial);
    EXPECT_TRUE(idle.on_threads()) << i;
  }
  idle.Record(4000, kTrial);
  EXPECT_FALSE(idle.on_threads());  // the next probe
  // Loaded: the threads wait at the barriers; alone is faster, and stays so.
  ThreadChoice loaded(true);
  loaded.Record(1000, kTrial);
  loaded.Record(3000, kTrial);
  EXPECT_FALSE(loaded.on_threads());
  for (int i = 0; i < ThreadChoice::kTrialsBetweenProbes - 1; ++i) loaded.Record(3000, kTrial);
  EXPECT_FALSE(loaded.on_threads());
  loaded.Record(3000, kTrial);
  EXPECT_TRUE(loaded.on_threads());  // probed again: the load may have gone
  EXPECT_EQ(loaded.windows_alone(), 11u);
  EXPECT_EQ(loaded.windows_on_threads(), 1u);
  // One thread: always alone.
  ThreadChoice single(false);
  single.Record(1000, 1);
  EXPECT_FALSE(single.on_threads());
}

TEST(Engine, ANetworkThatCannotSplitRunsOnOneLoop) {
  // At flow level the shares are the whole fabric's: asked for 4 parts, the network takes one
  // and MakeEngine runs it on this thread.
  Scenario s = LoadScenarioText(R"(
duration = "1ms"
model = "flow"
[topology]
type = "rail"
servers = 4
gpus_per_server = 2
[[collective]]
op = "allreduce"
size = "64KB"
)",
                                "rail.toml");
  NetworkConfig config = ToNetworkConfig(s);
  ASSERT_FALSE(CanSplit(config.flow_level, config.after));
  config.parts = 4;
  Network net(std::move(config));
  EXPECT_EQ(net.parts().size(), 1u);
  EXPECT_NE(dynamic_cast<OneThreadEngine*>(MakeEngine(net).get()), nullptr);
}

}  // namespace
}  // namespace dcqcn
