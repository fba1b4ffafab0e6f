// A training job ([[job]], workload/job_config.h) as flows and compute tasks that wait for each
// other (net/flow_dependencies.h), as Megatron-LM runs a 1F1B pipeline and SimAI's
// HYBRID_TRANSFORMER_FWD_IN_BCKWD schedule runs each stage:
//   - ranks: rank g has TP rank g % tp, DP rank (g / tp) % dp and stage g / (tp x dp) (TP the
//     fastest, inside a server first, as NCCL and Megatron place them); the stage's layers are a
//     contiguous share of the job's, in order;
//   - each rank's compute is one stream of tasks. A micro-batch's forward on a stage waits for
//     the activations from the stage before (a flow of pp_size from the rank of the same TP and
//     DP rank), then per layer computes its forward and runs its forward collective, blocking
//     (the next compute waits for it); it then sends its activations on. Backward, layers in
//     reverse: input-gradient compute and its collective (blocking), weight-gradient compute;
//     in the last micro-batch the weight-gradient collective is issued without blocking, on a
//     stream of its own (one at a time, in the order of JobConfig::weight_grad_order: each
//     after the one issued before it, as one NCCL communicator's operations run, or the newest
//     waiting first, as SimAI's LIFO queue runs them), overlapping the backward compute that
//     follows;
//   - the stages run 1F1B: stage s does min(pp - s - 1, micro_batches) forwards, then
//     alternates one forward and one backward, then the remaining backwards;
//   - iteration i + 1's forward of a layer waits for that layer's weight-gradient collective of
//     iteration i (SimAI's is_weight_grad_comm_finished_blocking); the job ends when every
//     collective is done.
// A collective's flows of a rank all wait for the task that issued it, so a rank never forwards a
// chunk before its own compute reached the collective.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "net/flow_dependencies.h"
#include "net/flow_spec.h"
#include "workload/collective_algorithm.h"
#include "workload/flow_tags.h"
#include "workload/job_config.h"

namespace dcqcn {

// What a task is: compute of a phase, or the zero-time join that issues a weight-gradient
// collective once its compute and its turn on the stream came. kUpdate: the wait after a
// collective before it counts as done (JobLayer::update). kDone: with weight_grad_order
// "newest_first", the zero-time join at which a rank's weight-gradient collective is done for it
// and hands the stream on.
enum class JobTaskKind : uint8_t { kForward, kInputGrad, kWeightGrad, kIssue, kUpdate, kDone };
// Whether a task is a rank's compute (on its compute stream), and then its phase: the compute
// kinds are the phases, in the same order.
inline bool IsCompute(JobTaskKind k) { return k <= JobTaskKind::kWeightGrad; }
inline JobPhaseKind PhaseOf(JobTaskKind k) { return static_cast<JobPhaseKind>(k); }

struct JobTask {
  uint32_t id;  // FlowAfter::kTask | k
  int rank;
  int iteration;
  int micro_batch;
  int layer;  // index into the expanded layers (repeats unrolled)
  JobTaskKind kind;
  int collective = -1;  // kUpdate: the JobFlows::collectives entry it follows
};

// One collective of the job: one group of a stage running one layer's phase of one
// micro-batch, flows [begin, end). A pipeline transfer between two ranks is one too
// (pipeline).
struct JobCollective {
  int iteration;
  int micro_batch;
  int stage;
  int layer;  // -1: a pipeline transfer
  JobPhaseKind phase;
  bool pipeline = false;
  JobGroup group = JobGroup::kTp;
  CollectiveOp op = CollectiveOp::kAllReduce;
  Bytes size = 0;
  int group_size = 0;  // ranks in the group
  int first_rank = 0;  // the group's first rank (the sender, for a pipeline transfer)
  uint32_t begin = 0;
  uint32_t end = 0;
};

// What ExpandJob made, for the job's metrics (run/job_metrics.h).
struct JobFlows {
  std::vector<int> hosts;                // of each rank
  std::vector<std::string> layer_names;  // repeats unrolled: "name", or "name.k"
  int stages = 1;
  std::vector<JobTask> tasks;  // in the order made: each after its prerequisites
  std::vector<JobCollective> collectives;
  // Per iteration and rank: what the rank has to see complete for the iteration to be over.
  std::vector<std::vector<std::vector<uint32_t>>> iteration_end;
  uint32_t flow_begin = 0;
  uint32_t flow_end = 0;
};

// Whether SimAI's NcclFlowModel processes step `step` of a rank's channel in a ring `op` over
// `ranks` ranks on `channels` channels (its insert_packets: a channel's counters of zero and
// non-zero latency steps restart at steps 0 and `ranks`, each restart flipping one toggle that
// the rank's channels share; a non-zero step is processed in a ReduceScatter always, in an
// AllReduce while the toggle is set, in an AllGather never). The channels are taken to restart
// together, so an AllReduce's steps 1 to ranks - 1 are processed when the channels are odd in
// number and none are when they are even; SimAI's channels drift apart and a few of its
// transfers after step `ranks` are processed too (docs/validation.md).
bool ProcessedRingStep(CollectiveOp op, int ranks, int channels, int step);
// The first thing wrong with a job on `where`: the key it is about and why ("" when nothing).
CollectiveProblem CheckJob(const JobConfig& j, const CollectiveHosts& where);
// The hosts that each of its collectives (a group of a stage whose layers run one) and
// pipeline transfers (a rank and its peer in the next stage) connect (CheckJob must pass): what
// its flows need to reach each other, for `dcqcn check`, which does not build them.
std::vector<std::vector<int>> JobConnectedHosts(const JobConfig& j, const CollectiveHosts& where);
// How many flows it expands into (CheckJob must pass), to bound a run before building it.
uint64_t JobFlowCount(const JobConfig& j, const CollectiveHosts& where);
// Appends the job's flows, tasks and waits. Throws InputError if CheckJob fails.
JobFlows ExpandJob(const JobConfig& j, const CollectiveHosts& where, const std::string& name,
                   std::vector<FlowSpec>& flows, FlowAfter& after, FlowTags& tags);

}  // namespace dcqcn
