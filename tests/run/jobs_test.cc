// [[job]] through the loader and whole runs: on an idle fabric an iteration is its compute plus
// the weight-gradient AllReduce it waits for, which takes what the same AllReduce takes alone;
// every rank's iteration is exactly its compute, exposed communication and bubble; a pipeline
// has a bubble that more micro-batches shrink; TP communication blocks and is exposed; several
// jobs share a fabric; input errors name the key, file and line; --set and resolved.toml keep
// the tables; summary.json, jobs.csv and job_collectives.csv report it.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_util.h"
#include "engine/one_thread_engine.h"
#include "net/network.h"
#include "run/collective_metrics.h"
#include "run/job_metrics.h"
#include "run/run_scenario.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

Scenario Load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return LoadScenarioText(text, "job.toml", overrides);
}

// A non-blocking leaf-spine fabric of `hosts` hosts at 100 Gb/s, 4 per leaf ("servers" of 4 for
// the TP groups: NVLink is not involved, so every byte crosses the fabric).
std::string Fabric(int hosts) {
  return fmt::format(
      "duration = \"1s\"\n[topology]\ntype = \"leaf_spine\"\nleaves = {}\nspines = 4\n"
      "hosts_per_leaf = 4\nlink_rate = \"100Gbps\"\nlink_delay = \"1us\"\n",
      hosts / 4);
}

// One [[job]] of `layers` identical layers: forward 10 us, input gradient 20 us, weight gradient
// 30 us; `comm` adds the layers' collectives.
std::string Job(const std::string& keys, int layers, bool tp_comm, const std::string& wg_size) {
  std::string text = "\n[[job]]\n" + keys +
                     fmt::format(
                         "[[job.layer]]\nname = \"block\"\nrepeat = {}\n"
                         "forward_compute = \"10us\"\n"
                         "input_grad_compute = \"20us\"\n"
                         "weight_grad_compute = \"30us\"\n",
                         layers);
  if (tp_comm) {
    text +=
        "forward_comm = \"allreduce\"\nforward_size = \"1MB\"\n"
        "input_grad_comm = \"allreduce\"\ninput_grad_size = \"1MB\"\n";
  }
  if (!wg_size.empty()) {
    text += fmt::format("weight_grad_comm = \"allreduce\"\nweight_grad_size = \"{}\"\n", wg_size);
  }
  return text;
}

struct Ran {
  Scenario s;
  std::vector<JobOutcome> jobs;
  std::vector<CollectiveOutcome> collectives;
};

Ran RunJob(const Scenario& s) {
  Network net(ToNetworkConfig(s));
  OneThreadEngine engine(net);
  engine.RunUntil(s.duration);
  EXPECT_TRUE(engine.all_done());
  EXPECT_EQ(net.stats().drops, 0);
  return {s, JobOutcomes(s, net), CollectiveOutcomes(s, net)};
}

// Every rank's every finished iteration is exactly its compute, exposed communication and bubble.
void ExpectIterationsAddUp(const JobOutcome& o) {
  for (size_t it = 0; it < o.ranks.size(); ++it) {
    for (size_t g = 0; g < o.ranks[it].size(); ++g) {
      const JobRankIteration& r = o.ranks[it][g];
      ASSERT_TRUE(r.finished()) << it << " " << g;
      Time parts = r.compute + r.exposed_pp + r.bubble;
      for (Time e : r.exposed) parts += e;
      EXPECT_EQ(r.end - r.start, parts) << "iteration " << it << " rank " << g;
    }
  }
}

TEST(Jobs, AnIterationIsItsComputeAndTheWeightGradientsItWaitsFor) {
  // Data parallel on 4 ranks, one layer: each rank computes 60 us, then AllReduces 4 MB; the next
  // iteration's forward waits for it. The AllReduce takes what it takes alone on the fabric.
  const Ran job = RunJob(Load(Fabric(4) + Job("iterations = 2\n", 1, false, "4MB")));
  const Ran alone =
      RunJob(Load(Fabric(4) + "\n[[collective]]\nop = \"allreduce\"\nsize = \"4MB\"\n"));
  ASSERT_EQ(job.jobs.size(), 1u);
  const JobOutcome& o = job.jobs[0];
  const Time allreduce = alone.collectives[0].iterations[0].time();
  ASSERT_EQ(o.collectives.size(), 2u);
  for (const JobCollectiveOutcome& c : o.collectives) {
    ASSERT_TRUE(c.finished());
    EXPECT_NEAR(static_cast<double>(c.end - c.start), static_cast<double>(allreduce),
                1e-3 * static_cast<double>(allreduce));
  }
  // Iteration 0: 60 us of compute, then its AllReduce, which the next iteration's forward waits
  // for: the rank's iteration ends when the AllReduce is done as it sees it.
  EXPECT_EQ(o.collectives[0].start, 60 * kMicrosecond);
  const JobRankIteration& first = o.ranks[0][0];
  const JobRankIteration& second = o.ranks[1][0];
  const auto dp = [](const JobRankIteration& r) {
    return static_cast<double>(r.exposed[static_cast<int>(JobGroup::kDp)]);
  };
  EXPECT_EQ(first.start, 0);
  EXPECT_EQ(first.compute, 60 * kMicrosecond);
  EXPECT_NEAR(dp(first), static_cast<double>(allreduce), 0.01 * static_cast<double>(allreduce));
  EXPECT_EQ(second.start, first.end);
  EXPECT_GE(first.end, o.collectives[0].end);
  // Iteration 1 computes and ends with its own AllReduce (the weights' tail): to its last ACK.
  EXPECT_EQ(second.compute, 60 * kMicrosecond);
  EXPECT_NEAR(dp(second), static_cast<double>(allreduce), 0.01 * static_cast<double>(allreduce));
  EXPECT_EQ(second.bubble, 0);
  EXPECT_GE(o.iteration_end[1], o.collectives[1].end);
  EXPECT_LE(o.iteration_end[1], o.collectives[1].end + 5 * kMicrosecond);
  ExpectIterationsAddUp(o);
}

TEST(Jobs, AStepDoneAtTheLastAckWaitsOneAckFlightMorePerStep) {
  // The 4-rank ring AllReduce of the test above, with each step done for its receiver when the
  // sender has the last ACK (SimAI's semantics): each of the 2 x 3 steps' receivers starts its
  // next step one ACK flight later (host -> leaf -> host: 2 x (1 us + one ACK frame)), so the
  // collective takes 5 flights more (the last step ends at its last ACK either way).
  const std::string job = Fabric(4) + Job("iterations = 1\n", 1, false, "4MB");
  const Ran delivered = RunJob(Load(job));
  const Ran acked = RunJob(Load(job, {"job.0.step_done=acked"}));
  ASSERT_EQ(acked.jobs.size(), 1u);
  const JobCollectiveOutcome& d = delivered.jobs[0].collectives[0];
  const JobCollectiveOutcome& a = acked.jobs[0].collectives[0];
  ASSERT_TRUE(d.finished());
  ASSERT_TRUE(a.finished());
  Network net(ToNetworkConfig(acked.s));
  const Time flight = net.AckFlightTime(acked.s.job_flows[0].collectives[0].begin);
  EXPECT_GT(flight, 2 * kMicrosecond);
  EXPECT_LT(flight, 2 * kMicrosecond + 20 * kNanosecond);
  EXPECT_EQ(a.start, d.start);
  EXPECT_NEAR(static_cast<double>((a.end - a.start) - (d.end - d.start)),
              static_cast<double>(5 * flight), 0.05 * static_cast<double>(flight));
  ExpectIterationsAddUp(acked.jobs[0]);
}

TEST(Jobs, AStepDoneAtTheAckArrivalWaitsForTheAckAsItCame) {
  // The same ring with SimAI's own rule (step_done = "ack_arrival"): a receiver's next step
  // starts the instant its sender has the last ACK, however long the ACK queued (here behind
  // the sender's own data on the receiver's link back): every waiting transfer starts at the
  // latest of its prerequisites' ACKs (or its own sends' ACKs), and no earlier than "acked"
  // lets it (an idle path's flight is the least an ACK takes). The run keeps to one thread.
  const std::string job = Fabric(4) + Job("iterations = 1\n", 1, false, "4MB");
  const Scenario s = Load(job, {"job.0.step_done=ack_arrival"});
  EXPECT_NE(OneThreadOnly(s), "");
  EXPECT_EQ(OneThreadOnly(Load(job, {"job.0.step_done=acked"})), "");
  NetworkConfig config = ToNetworkConfig(s);
  config.parts = 2;
  Network net(std::move(config));
  EXPECT_EQ(net.parts().size(), 1u);
  OneThreadEngine engine(net);
  engine.RunUntil(s.duration);
  ASSERT_TRUE(engine.all_done());
  const JobFlows& jf = s.job_flows[0];
  const JobOutcome arrival = JobOutcomes(s, net)[0];
  const uint32_t first_task = jf.tasks.front().id & ~FlowAfter::kTask;
  int after_acks = 0;  // transfers that started at a prerequisite's ACK (not at their gate)
  for (uint32_t id = jf.collectives[0].begin; id < jf.collectives[0].end; ++id) {
    Time ready = -1;
    bool at_ack = false;
    for (const uint32_t p : s.flow_after.of(id)) {
      Time seen = 0;
      if (FlowAfter::IsTask(p)) {
        seen = arrival.task_done[(p & ~FlowAfter::kTask) - first_task];
      } else {
        // Its receiver and its sender see it complete together, at the last ACK.
        seen = net.flow_seen_by(p, s.flows[id].src);
        EXPECT_EQ(seen, net.flow_finish(p));
      }
      if (seen > ready) at_ack = !FlowAfter::IsTask(p);
      ready = std::max(ready, seen);
    }
    if (ready < 0) continue;  // waits for nothing
    after_acks += at_ack ? 1 : 0;
    EXPECT_EQ(net.flow_start(id), ready + s.flow_after.delay(id)) << "flow " << id;
  }
  EXPECT_GT(after_acks, 0);
  const Ran acked = RunJob(Load(job, {"job.0.step_done=acked"}));
  EXPECT_GE(arrival.collectives[0].end - arrival.collectives[0].start,
            acked.jobs[0].collectives[0].end - acked.jobs[0].collectives[0].start);
  ExpectIterationsAddUp(arrival);
}

TEST(Jobs, UpdateTimeAndSendLatencyAsSimaiAddsThem) {
  // update: each rank waits 5 us after the AllReduce before it counts as done, charged to DP.
  // send_latency: each of the ring's transfers starts 1 us after it is ready; the 2 x 3 steps
  // are a chain, so the AllReduce starts 1 us and ends about 6 us later (a persistent
  // connection's next transfer may already wait for the one before it to be sent).
  const std::string job = Fabric(4) + Job("iterations = 1\n", 1, false, "4MB");
  const Ran plain = RunJob(Load(job));
  const Ran update = RunJob(Load(job, {"job.0.layer.0.update=5us"}));
  const Ran latency = RunJob(Load(job, {"job.0.send_latency=1us"}));
  const auto dp = [](const Ran& r) {
    return r.jobs[0].ranks[0][0].exposed[static_cast<int>(JobGroup::kDp)];
  };
  EXPECT_EQ(dp(update) - dp(plain), 5 * kMicrosecond);
  EXPECT_EQ(update.jobs[0].collectives[0].end, plain.jobs[0].collectives[0].end);
  ExpectIterationsAddUp(update.jobs[0]);
  const JobCollectiveOutcome& a = latency.jobs[0].collectives[0];
  const JobCollectiveOutcome& b = plain.jobs[0].collectives[0];
  EXPECT_EQ(a.start - b.start, 1 * kMicrosecond);
  EXPECT_NEAR(static_cast<double>(a.end - b.end), 6e6, 0.02 * 6e6);
  ExpectIterationsAddUp(latency.jobs[0]);
}

TEST(Jobs, WeightGradientsRunOneAtATimeAsIssuedOrNewestFirst) {
  // Three layers: the backward issues block.2's weight-gradient AllReduce (4 MB, about 0.5 ms on
  // 4 ranks at 100 Gb/s), then 50 us later block.1's and block.0's, which wait. As issued (one
  // NCCL communicator): 2, 1, 0; newest first (SimAI's LIFO): 2, then 0, the last issued, then 1.
  const std::string job = Fabric(4) + Job("iterations = 1\n", 3, false, "4MB");
  for (const bool newest : {false, true}) {
    SCOPED_TRACE(newest);
    const Ran r = RunJob(
        Load(job, {"job.0.connection=per_flow", newest ? "job.0.weight_grad_order=newest_first"
                                                       : "job.0.weight_grad_order=issue"}));
    const JobOutcome& o = r.jobs[0];
    const JobFlows& jf = r.s.job_flows[0];
    ASSERT_EQ(o.collectives.size(), 3u);
    // By layer: its collective, and when rank 0's weight-gradient compute issued it.
    std::array<const JobCollectiveOutcome*, 3> by_layer{};
    std::array<Time, 3> issued{};
    for (size_t c = 0; c < jf.collectives.size(); ++c) {
      by_layer[jf.collectives[c].layer] = &o.collectives[c];
    }
    for (size_t k = 0; k < jf.tasks.size(); ++k) {
      const JobTask& t = jf.tasks[k];
      if (t.rank == 0 && t.kind == JobTaskKind::kWeightGrad) issued[t.layer] = o.task_done[k];
    }
    EXPECT_LT(issued[2], issued[1]);
    EXPECT_LT(issued[1], issued[0]);
    for (const JobCollectiveOutcome* c : by_layer) ASSERT_TRUE(c->finished());
    const std::array<int, 3> order = newest ? std::array{2, 0, 1} : std::array{2, 1, 0};
    EXPECT_EQ(by_layer[order[0]]->start, issued[order[0]]);
    for (int k = 1; k < 3; ++k) {
      // It waited for the one before it, which was running when it was issued.
      const JobCollectiveOutcome& before = *by_layer[order[k - 1]];
      EXPECT_GT(before.end, issued[order[k]]);
      // Once it was done for the rank: about when its last byte came in anywhere.
      EXPECT_NEAR(static_cast<double>(by_layer[order[k]]->start), static_cast<double>(before.end),
                  10e6);
    }
    ExpectIterationsAddUp(o);
  }
}

TEST(Jobs, NewestFirstNeedsAConnectionPerTransfer) {
  // A persistent queue pair sends its transfers in the order they were posted.
  EXPECT_NE(testing::InputErrorOf([&] {
              Load(Fabric(4) + Job("weight_grad_order = \"newest_first\"\n", 2, false, "4MB"));
            }).find("weight_grad_order: \"newest_first\" needs connection = \"per_flow\""),
            std::string::npos);
}

TEST(Jobs, SimaisProcessedRingSteps) {
  // Its counters restart at steps 0 and N, each restart flipping a toggle the channels share.
  // One channel, 2 ranks (the DP 2 x 8 cases): step 1 is processed.
  EXPECT_FALSE(ProcessedRingStep(CollectiveOp::kAllReduce, 2, 1, 0));
  EXPECT_TRUE(ProcessedRingStep(CollectiveOp::kAllReduce, 2, 1, 1));
  // One channel, 4 ranks: steps 1 to 3 of 6; after the restart at step 4 none.
  for (int step = 0; step < 6; ++step) {
    EXPECT_EQ(ProcessedRingStep(CollectiveOp::kAllReduce, 4, 1, step), step >= 1 && step <= 3)
        << step;
    // Eight channels flip the toggle back each time: none (the TP 16 case, but for drift).
    EXPECT_FALSE(ProcessedRingStep(CollectiveOp::kAllReduce, 4, 8, step));
  }
  // A ReduceScatter's steps after the first, whatever the toggle; an AllGather's never.
  EXPECT_TRUE(ProcessedRingStep(CollectiveOp::kReduceScatter, 4, 8, 2));
  EXPECT_FALSE(ProcessedRingStep(CollectiveOp::kReduceScatter, 4, 8, 0));
  EXPECT_FALSE(ProcessedRingStep(CollectiveOp::kAllGather, 4, 1, 2));
  // As a job's delays: processing_latency on exactly those transfers.
  const std::string job = Fabric(4) + Job("iterations = 1\n", 1, false, "4MB");
  const Scenario plain = Load(job);
  const Scenario processed = Load(job, {"job.0.processing_latency=30ns", "job.0.channels=1"});
  const JobCollective& c = processed.job_flows[0].collectives[0];
  ASSERT_EQ(c.end - c.begin, 4u * 6);  // 6 steps of 4 transfers
  for (uint32_t id = c.begin; id < c.end; ++id) {
    const int step = static_cast<int>(id - c.begin) / 4;
    EXPECT_EQ(processed.flow_after.delay(id) - plain.flow_after.delay(id),
              step >= 1 && step <= 3 ? 30 * kNanosecond : 0)
        << id;
  }
}

TEST(Jobs, ChannelsPerServerAndRotatedRingsAsSimaisMockNccl) {
  // tp 8 over 2 servers of 4 GPUs: channels 0 gives 4 channels (the group's GPUs in a server),
  // and channel c's ring takes each server's GPUs rotated by c: channel 1 is 1 2 3 0 5 6 7 4,
  // so its first step sends 0 -> 5 (and 4 -> 1) across the servers.
  const Scenario s = Load(
      "duration = \"1s\"\n[topology]\ntype = \"rail\"\nservers = 2\ngpus_per_server = 4\n"
      "servers_per_leaf = 2\n" +
      Job("tp = 8\nchannels = 0\nrotate_rings = true\n", 1, true, ""));
  const JobCollective& c = s.job_flows[0].collectives[0];
  const uint32_t per_channel = 2 * 7 * 8;
  ASSERT_EQ(c.end - c.begin, 4 * per_channel);
  std::vector<std::pair<int, int>> first_step;
  for (uint32_t id = c.begin + per_channel; id < c.begin + per_channel + 8; ++id) {
    first_step.emplace_back(s.flows[id].src, s.flows[id].dst);
  }
  EXPECT_NE(std::find(first_step.begin(), first_step.end(), std::pair{0, 5}), first_step.end());
  EXPECT_NE(std::find(first_step.begin(), first_step.end(), std::pair{4, 1}), first_step.end());
  EXPECT_NE(std::find(first_step.begin(), first_step.end(), std::pair{3, 0}), first_step.end());
  const Ran r = RunJob(s);
  ExpectIterationsAddUp(r.jobs[0]);
}

TEST(Jobs, TensorParallelCommunicationBlocksAndIsExposed) {
  // 8 ranks, tp 4, dp 2, two layers: every forward and input-gradient compute is followed by a
  // 1 MB TP AllReduce that the next compute waits for.
  const Ran r = RunJob(Load(Fabric(8) + Job("tp = 4\nmicro_batches = 2\n", 2, true, "8MB")));
  const JobOutcome& o = r.jobs[0];
  ExpectIterationsAddUp(o);
  const JobRankIteration& it = o.ranks[0][0];
  EXPECT_EQ(it.compute, 2 * 2 * 60 * kMicrosecond);  // 2 micro-batches x 2 layers
  // 8 TP AllReduces of 1 MB over 4 ranks at 100 Gb/s: each at least 2 x 3/4 MB / 12.5 GB/s.
  EXPECT_GE(it.exposed[static_cast<int>(JobGroup::kTp)], 8 * 120 * kMicrosecond);
  // The DP AllReduce of layer 1 overlaps layer 0's backward: only part of it is exposed.
  int tp = 0, dp = 0;
  for (const JobCollective& c : r.s.job_flows[0].collectives) {
    (c.group == JobGroup::kTp ? tp : dp) += 1;
  }
  // One record per group: micro-batches x layers x (forward, input gradient) x 2 TP groups,
  // and layers x 4 DP groups.
  EXPECT_EQ(tp, 2 * 2 * 2 * 2);
  EXPECT_EQ(dp, 2 * 4);
}

TEST(Jobs, APipelineHasABubbleThatMoreMicroBatchesShrink) {
  // 8 ranks, pp 2 (4 per stage), 4 layers, no collectives but the pipeline transfers.
  auto run = [](int micro_batches) {
    return RunJob(
        Load(Fabric(8) +
             Job(fmt::format("pp = 2\npp_size = \"100KB\"\nmicro_batches = {}\n", micro_batches), 4,
                 false, "")));
  };
  const Ran two = run(2);
  const Ran eight = run(8);
  for (const Ran* r : {&two, &eight}) ExpectIterationsAddUp(r->jobs[0]);
  // Stage 0's last rank waits for stage 1's backward of the first micro-batch; stage 1 waits for
  // stage 0's forward: each has a bubble, and a smaller share of the iteration with 8.
  auto share = [](const Ran& r, int rank) {
    const JobRankIteration& it = r.jobs[0].ranks[0][rank];
    return static_cast<double>(it.bubble) / static_cast<double>(it.end - it.start);
  };
  // Stage 0 waits for stage 1's backward of each micro-batch in its cooldown; stage 1 for the
  // first activations (and its drain shows at its next iteration's start).
  EXPECT_GT(share(two, 0), 0.2);
  for (const int rank : {0, 4}) {
    EXPECT_GT(share(two, rank), 0.0) << rank;
    EXPECT_LT(share(eight, rank), share(two, rank)) << rank;
  }
  // 1F1B with 2 stages: (m + 1) stage passes of 2 layers x 60 us, plus at most two transfers
  // per micro-batch on the critical path (100 KB at 100 Gb/s: 8 us, and the fabric's latency).
  const Time pass = 2 * 60 * kMicrosecond;
  EXPECT_GE(eight.jobs[0].iteration_end[0], 9 * pass);
  EXPECT_LE(eight.jobs[0].iteration_end[0], 9 * pass + 2 * 8 * 15 * kMicrosecond);
}

TEST(Jobs, JobsShareAFabric) {
  // Two data-parallel jobs on disjoint halves of one leaf pair, and one on all: the shared one
  // slows both.
  const std::string two = Fabric(8) + Job("ranks = [0, 1, 2, 3]\nname = \"a\"\n", 1, false, "8MB") +
                          Job("ranks = [4, 5, 6, 7]\nname = \"b\"\n", 1, false, "8MB");
  const Ran r = RunJob(Load(two));
  ASSERT_EQ(r.jobs.size(), 2u);
  for (const JobOutcome& o : r.jobs) {
    ASSERT_EQ(o.iteration_end.size(), 1u);
    EXPECT_GT(o.iteration_end[0], 60 * kMicrosecond);
    ExpectIterationsAddUp(o);
  }
  EXPECT_EQ(r.s.tag(r.s.flows[r.s.job_flows[1].flow_begin]), "b-dp");
}

TEST(Jobs, InputErrorsNameTheKeyFileAndLine) {
  const std::string f = Fabric(8);
  auto expect = [&](const std::string& text, const std::vector<std::string>& parts,
                    const std::vector<std::string>& overrides = {}) {
    testing::ExpectLoadError(text, "job.toml", parts, overrides);
  };
  expect(f + Job("tp = 3\n", 1, false, ""), {"job.toml:", "job[0].tp", "does not divide"});
  expect(f + Job("pp = 2\n", 1, false, ""), {"job[0].pp", "no layers"});
  expect(f + Job("pp = 2\n", 2, false, ""), {"job[0].pp_size", "required"});
  expect(f + Job("tp = 2\nep = 3\n", 1, false, ""), {"job[0].ep"});
  expect(f + Job("", 1, false, "") + "forward_size = \"1MB\"\n",
         {"job[0].layer[0].forward_size", "no forward_comm"});
  expect(f + Job("", 1, false, "") + "forward_comm = \"allreduse\"\n",
         {"job[0].layer[0].forward_comm"});
  expect(f + Job("", 1, false, "") + "forward_group = \"xp\"\n", {"job[0].layer[0].forward_group"});
  expect(f + Job("", 1, false, "") + "colour = 1\n", {"job[0].layer[0].colour", "unknown key"});
  expect(f + "\n[[job]]\ntp = 2\n", {"job[0].layer"});
  expect(f + Job("step_done = \"acks\"\n", 1, false, ""), {"job[0].step_done", "acked"});
  expect(f + Job("ranks = [0, 9]\n", 1, false, ""), {"job[0].ranks"});
  expect(f + Job("name = \"a\"\n", 1, false, "") + Job("name = \"a\"\n", 1, false, ""),
         {"job[1].name"});
  expect(f + Job("", 1, false, ""), {"job[0].tp"}, {"job.0.tp=0"});
  expect(f + Job("", 1, false, ""), {"no job[0].layer[1]"}, {"job.0.layer.1.repeat=2"});
}

TEST(Jobs, SetAndResolvedTomlKeepTheTables) {
  const std::string text = Fabric(8) + Job("tp = 2\npp = 2\npp_size = \"64KB\"\n", 2, true, "2MB");
  const Scenario s = Load(text, {"job.0.micro_batches=3", "job.0.layer.0.weight_grad_size=4MB"});
  ASSERT_EQ(s.jobs.size(), 1u);
  EXPECT_EQ(s.jobs[0].micro_batches, 3);
  EXPECT_EQ(s.jobs[0].layers[0].phases[2].size, 4000000);
  const Scenario back = Load(ResolvedToml(s));
  EXPECT_EQ(ResolvedToml(back), ResolvedToml(s));
  ASSERT_EQ(back.flows.size(), s.flows.size());
  for (uint32_t id = 0; id < s.flows.size(); ++id) {
    EXPECT_EQ(back.flows[id].src, s.flows[id].src);
    EXPECT_EQ(back.flows[id].size, s.flows[id].size);
    const auto a = s.flow_after.of(id);
    const auto b = back.flow_after.of(id);
    EXPECT_EQ(std::vector<uint32_t>(a.begin(), a.end()), std::vector<uint32_t>(b.begin(), b.end()));
  }
  EXPECT_EQ(back.flow_after.tasks.size(), s.flow_after.tasks.size());
}

using JobsRun = testing::TempDirTest;

TEST_F(JobsRun, SummaryAndCsvsReportTheIterations) {
  const Scenario s = Load(Fabric(8) + Job("tp = 4\niterations = 2\n", 2, true, "4MB"));
  RunOptions options;
  options.out_dir = dir_.string();
  const nlohmann::json j = RunScenario(s, options);
  const nlohmann::json& job = j["jobs"][0];
  EXPECT_EQ(job["name"], "job0");
  EXPECT_EQ(job["tp"], 4);
  EXPECT_EQ(job["dp"], 2);
  EXPECT_EQ(job["finished_iterations"], 2);
  ASSERT_EQ(job["iterations"].size(), 2u);
  for (const nlohmann::json& it : job["iterations"]) {
    const double parts = it["compute_ns"].get<double>() +
                         it["exposed_comm_total_ns"].get<double>() + it["bubble_ns"].get<double>();
    // Means over the ranks of their own iterations; the job's ends with its last rank's.
    EXPECT_NEAR(parts, it["rank_time_ns"].get<double>(), 1.0);
    EXPECT_GT(it["time_ns"].get<double>(), 0.0);
  }
  EXPECT_GT(job["collectives"]["tp_forward"]["mean_busbw_gbps"].get<double>(), 10.0);
  std::ifstream csv(dir_ / "jobs.csv");
  std::string header, row;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("job,iteration,rank,host,stage,start_ns,end_ns,time_ns,compute_ns", 0),
            0u);
  int rows = 0;
  while (std::getline(csv, row)) ++rows;
  EXPECT_EQ(rows, 2 * 8);
  EXPECT_TRUE(std::filesystem::exists(dir_ / "job_collectives.csv"));
  // A row per compute task that ran (every one here), not the weight gradients' issue joins.
  std::ifstream timeline(dir_ / "job_timeline.csv");
  std::getline(timeline, header);
  EXPECT_EQ(header, "job,iteration,rank,host,stage,micro_batch,layer,phase,start_ns,end_ns");
  size_t tasks = 0;
  while (std::getline(timeline, row)) ++tasks;
  size_t compute = 0;
  for (const JobTask& t : s.job_flows[0].tasks) {
    compute += IsCompute(t.kind);
  }
  EXPECT_EQ(tasks, compute);
}

}  // namespace
}  // namespace dcqcn
