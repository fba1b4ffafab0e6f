// Tests of ExpandJob: the ranks' placement in TP/DP/stage groups, each stage's 1F1B order, the
// waits that make a rank's compute one stream (blocking TP collectives, the pipeline transfers,
// the weight-gradient stream and the next iteration's wait for it), the flow count bound, and
// CheckJob's refusals.
#include "workload/job.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace dcqcn {
namespace {

struct Expanded {
  std::vector<FlowSpec> flows;
  FlowAfter after;
  FlowTags tags;
  JobFlows jf;
};

Expanded Expand(const JobConfig& j, CollectiveHosts where) {
  Expanded e;
  e.jf = ExpandJob(j, where, "job0", e.flows, e.after, e.tags);
  e.after.Resize(e.flows.size());
  return e;
}

JobPhase Phase(Time compute, std::optional<CollectiveOp> op = std::nullopt,
               JobGroup group = JobGroup::kTp, Bytes size = 0) {
  return {.compute = compute, .op = op, .group = group, .size = size};
}

// `layers` identical layers: TP AllReduce forward and input-gradient, DP AllReduce of the
// weight gradients.
JobConfig Gpt(int tp, int pp, int micro_batches, int layers) {
  JobConfig j;
  j.all_ranks = true;
  j.tp = tp;
  j.pp = pp;
  j.micro_batches = micro_batches;
  j.pp_size = 1000;
  JobLayer l;
  l.name = "block";
  l.repeat = layers;
  l.phases = {Phase(10, CollectiveOp::kAllReduce, JobGroup::kTp, 4000),
              Phase(20, CollectiveOp::kAllReduce, JobGroup::kTp, 4000),
              Phase(30, CollectiveOp::kAllReduce, JobGroup::kDp, 8000)};
  j.layers = {l};
  return j;
}

std::vector<uint32_t> Of(const FlowAfter& after, uint32_t id) {
  if (FlowAfter::IsTask(id)) {
    const FlowAfter::Task& t = after.task(id);
    if (t.row == FlowAfter::kNoRow) return {};
    const auto r = after.row(t.row);
    return {r.begin(), r.end()};
  }
  const auto s = after.of(id);
  return {s.begin(), s.end()};
}

bool Contains(const std::vector<uint32_t>& v, uint32_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

TEST(Job, RanksFormTpGroupsFirstThenDataParallelThenStages) {
  // 16 ranks, tp 2, pp 2: dp 4. The TP groups are consecutive pairs; a DP group strides by tp
  // inside a stage; stage 1 is ranks 8-15.
  const Expanded e = Expand(Gpt(2, 2, 1, 2), {16, 8});
  std::set<std::pair<int, int>> tp_pairs, dp_pairs, pp_pairs;
  for (const FlowSpec& f : e.flows) {
    const std::pair<int, int> p{std::min(f.src, f.dst), std::max(f.src, f.dst)};
    const std::string& tag = e.tags.name(f.tag);
    if (tag == "job0-tp") tp_pairs.insert(p);
    if (tag == "job0-dp") dp_pairs.insert(p);
    if (tag == "job0-pp") pp_pairs.insert(p);
  }
  for (const auto& [a, b] : tp_pairs) EXPECT_EQ(a / 2, b / 2) << a << "-" << b;  // same pair
  EXPECT_EQ(tp_pairs.size(), 8u);
  for (const auto& [a, b] : dp_pairs) {
    EXPECT_EQ(a % 2, b % 2);  // same TP rank
    EXPECT_EQ(a / 8, b / 8);  // same stage
  }
  for (const auto& [a, b] : pp_pairs) EXPECT_EQ(b - a, 8);  // same TP and DP rank
  EXPECT_EQ(pp_pairs.size(), 8u);
}

TEST(Job, FlowCountMatchesTheExpansion) {
  for (const auto& [tp, pp, m] : std::vector<std::tuple<int, int, int>>{
           {1, 1, 1}, {2, 1, 3}, {2, 2, 3}, {1, 4, 4}, {4, 2, 2}}) {
    JobConfig j = Gpt(tp, pp, m, 4);
    j.iterations = 2;
    const Expanded e = Expand(j, {16, 8});
    EXPECT_EQ(JobFlowCount(j, {16, 8}), e.flows.size()) << tp << " " << pp << " " << m;
    // Each micro-batch crosses each stage boundary forward and back, from every rank of a stage.
    const auto pp_flows = std::count_if(e.flows.begin(), e.flows.end(), [&](const FlowSpec& f) {
      return e.tags.name(f.tag) == "job0-pp";
    });
    EXPECT_EQ(pp_flows, 2 * 2 * m * (pp - 1) * (16 / pp));
  }
}

// Each rank's forward and input-gradient passes, in the order its stage runs them.
std::vector<std::pair<JobTaskKind, int>> Passes(const JobFlows& jf, int rank, int first_layer) {
  std::vector<std::pair<JobTaskKind, int>> out;
  for (const JobTask& t : jf.tasks) {
    if (t.rank != rank || t.iteration != 0) continue;
    if (t.layer != first_layer) continue;
    if (t.kind == JobTaskKind::kForward || t.kind == JobTaskKind::kInputGrad) {
      out.emplace_back(t.kind, t.micro_batch);
    }
  }
  return out;
}

TEST(Job, StagesRunOneForwardOneBackward) {
  // pp 4, 5 micro-batches: stage s warms up with 3 - s forwards.
  const Expanded e = Expand(Gpt(1, 4, 5, 4), {4, 0});
  constexpr auto F = JobTaskKind::kForward;
  constexpr auto B = JobTaskKind::kInputGrad;
  using P = std::vector<std::pair<JobTaskKind, int>>;
  EXPECT_EQ(Passes(e.jf, 0, 0),
            (P{{F, 0}, {F, 1}, {F, 2}, {F, 3}, {B, 0}, {F, 4}, {B, 1}, {B, 2}, {B, 3}, {B, 4}}));
  EXPECT_EQ(Passes(e.jf, 2, 2),
            (P{{F, 0}, {F, 1}, {B, 0}, {F, 2}, {B, 1}, {F, 3}, {B, 2}, {F, 4}, {B, 3}, {B, 4}}));
  EXPECT_EQ(Passes(e.jf, 3, 3),
            (P{{F, 0}, {B, 0}, {F, 1}, {B, 1}, {F, 2}, {B, 2}, {F, 3}, {B, 3}, {F, 4}, {B, 4}}));
}

TEST(Job, ComputeWaitsForTheBlockingCollectiveAndThePipeline) {
  // tp 2, pp 2 on 4 ranks: rank 0 (stage 0) and rank 2 (stage 1), one layer each.
  const Expanded e = Expand(Gpt(2, 2, 1, 2), {4, 0});
  const JobFlows& jf = e.jf;
  auto task = [&](int rank, JobTaskKind kind, int layer) {
    for (const JobTask& t : jf.tasks) {
      if (t.rank == rank && t.kind == kind && t.layer == layer && t.iteration == 0) return t.id;
    }
    ADD_FAILURE() << "no task";
    return FlowAfter::kNone;
  };
  auto collective = [&](int stage, int layer, JobPhaseKind phase, bool pipeline) {
    for (const JobCollective& c : jf.collectives) {
      if (c.stage == stage && c.layer == layer && c.phase == phase && c.pipeline == pipeline) {
        return c;
      }
    }
    ADD_FAILURE() << "no collective";
    return JobCollective{};
  };
  // Rank 0's forward issues its TP AllReduce: every flow from rank 0 waits for it.
  const uint32_t f0 = task(0, JobTaskKind::kForward, 0);
  const JobCollective tp = collective(0, 0, JobPhaseKind::kForward, false);
  EXPECT_EQ(tp.end - tp.begin, 2u * 2u);  // ring of 2: 2 steps, 2 ranks
  for (uint32_t id = tp.begin; id < tp.end; ++id) {
    if (e.flows[id].src == 0) {
      EXPECT_TRUE(Contains(Of(e.after, id), f0)) << id;
    }
  }
  // The activations go to rank 2 after rank 0's part of the AllReduce; rank 2's forward waits
  // for them.
  const JobCollective act = collective(0, -1, JobPhaseKind::kForward, true);
  EXPECT_EQ(e.flows[act.begin].src, 0);
  EXPECT_EQ(e.flows[act.begin].dst, 2);
  EXPECT_EQ(e.flows[act.begin].size, 1000);
  for (uint32_t p : Of(e.after, act.begin)) {
    EXPECT_GE(p, tp.begin);
    EXPECT_LT(p, tp.end);
    EXPECT_TRUE(e.flows[p].dst == 0 || e.flows[p].src == 0);  // rank 0's last step
  }
  EXPECT_TRUE(Contains(Of(e.after, task(2, JobTaskKind::kForward, 1)), act.begin));
  // Rank 0's backward waits for the gradients from rank 2.
  const JobCollective grad = collective(1, -1, JobPhaseKind::kInputGrad, true);
  EXPECT_EQ(e.flows[grad.begin].src, 2);
  EXPECT_TRUE(Contains(Of(e.after, task(0, JobTaskKind::kInputGrad, 0)), grad.begin));
}

TEST(Job, WeightGradientsOverlapTheBackwardAndGateTheNextIteration) {
  // 4 ranks, tp 1: dp 4; two layers, two iterations.
  JobConfig j = Gpt(1, 1, 2, 2);
  j.iterations = 2;
  const Expanded e = Expand(j, {4, 0});
  std::vector<JobTask> rank0;
  for (const JobTask& t : e.jf.tasks) {
    if (t.rank == 0) rank0.push_back(t);
  }
  // The weight-gradient collective is issued only in the last micro-batch, once per layer.
  std::vector<const JobTask*> issues;
  for (const JobTask& t : rank0) {
    if (t.kind == JobTaskKind::kIssue) issues.push_back(&t);
  }
  ASSERT_EQ(issues.size(), 4u);  // 2 layers x 2 iterations
  EXPECT_EQ(issues[0]->layer, 1);
  EXPECT_EQ(issues[0]->micro_batch, 1);
  EXPECT_EQ(issues[1]->layer, 0);
  // Layer 0's input-gradient compute does not wait for layer 1's DP AllReduce (it overlaps):
  // it waits only for the weight-gradient compute before it.
  const JobTask* ig0 = nullptr;
  for (const JobTask& t : rank0) {
    if (t.iteration == 0 && t.micro_batch == 1 && t.layer == 0 &&
        t.kind == JobTaskKind::kInputGrad) {
      ig0 = &t;
    }
  }
  ASSERT_NE(ig0, nullptr);
  for (uint32_t p : Of(e.after, ig0->id)) EXPECT_TRUE(FlowAfter::IsTask(p));
  // The second issue waits for the first collective (one stream, in order).
  const std::vector<uint32_t> second = Of(e.after, issues[1]->id);
  EXPECT_TRUE(
      std::any_of(second.begin(), second.end(), [](uint32_t p) { return !FlowAfter::IsTask(p); }));
  // Iteration 1's forward of layer 0 waits for iteration 0's layer-0 DP AllReduce.
  for (const JobTask& t : rank0) {
    if (t.iteration == 1 && t.micro_batch == 0 && t.layer == 0 && t.kind == JobTaskKind::kForward) {
      const std::vector<uint32_t> row = Of(e.after, t.id);
      EXPECT_TRUE(std::any_of(row.begin(), row.end(), [&](uint32_t p) {
        return !FlowAfter::IsTask(p) && e.tags.name(e.flows[p].tag) == "job0-dp";
      }));
    }
  }
  // Iteration ends list rank 0's last compute and its last weight-gradient collective.
  ASSERT_EQ(e.jf.iteration_end.size(), 2u);
  EXPECT_GE(e.jf.iteration_end[0][0].size(), 2u);
}

TEST(Job, CheckRefusesWhatCannotRun) {
  auto problem = [](const JobConfig& j, int hosts) { return CheckJob(j, {hosts, 8}); };
  EXPECT_EQ(problem(Gpt(3, 1, 1, 2), 8).key, "tp");
  EXPECT_EQ(problem(Gpt(2, 3, 1, 6), 8).key, "pp");
  EXPECT_EQ(problem(Gpt(1, 4, 1, 3), 8).key, "pp");  // a stage would have no layers
  JobConfig no_size = Gpt(1, 2, 1, 2);
  no_size.pp_size = 0;
  EXPECT_EQ(problem(no_size, 8).key, "pp_size");
  JobConfig ep = Gpt(2, 1, 1, 2);
  ep.ep = 3;
  EXPECT_EQ(problem(ep, 8).key, "ep");
  JobConfig dangling = Gpt(2, 1, 1, 2);
  dangling.layers[0].phases[0].op.reset();
  EXPECT_EQ(problem(dangling, 8).key, "layer[0].forward_size");
  JobConfig missing = Gpt(2, 1, 1, 2);
  missing.layers[0].phases[2].size = 0;
  EXPECT_EQ(problem(missing, 8).key, "layer[0].weight_grad_size");
  JobConfig empty = Gpt(2, 1, 1, 2);
  empty.layers.clear();
  EXPECT_EQ(problem(empty, 8).key, "layer");
  JobConfig twice = Gpt(1, 1, 1, 1);
  twice.all_ranks = false;
  twice.ranks = {0, 1, 1};
  EXPECT_EQ(problem(twice, 8).key, "ranks");
  EXPECT_EQ(problem(Gpt(2, 2, 2, 4), 8).key, "");
  EXPECT_THROW(Expand(Gpt(3, 1, 1, 2), {8, 8}), InputError);
}

}  // namespace
}  // namespace dcqcn
