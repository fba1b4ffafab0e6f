// A training job ([[job]]): GPUs (ranks) split into tensor-, pipeline-, data- and expert-parallel
// groups, layers with their compute and communication per phase, micro-batches and iterations.
// ExpandJob (workload/job.h) turns it into flows and compute tasks that wait for each other as a
// Megatron-style 1F1B schedule runs them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.h"
#include "workload/collective_config.h"

namespace dcqcn {

// The group a phase's collective runs over. kTp: the ranks of one tensor-parallel group
// (consecutive ranks, inside a server first); kDp: the data-parallel replicas of a rank (same
// stage and TP rank); kEp: expert parallel, `ep` consecutive DP replicas; kDpEp: the replicas
// holding the same experts (DP ranks equal modulo ep).
enum class JobGroup { kTp, kDp, kEp, kDpEp };
inline constexpr std::array<std::string_view, 4> kJobGroupNames = {"tp", "dp", "ep", "dp_ep"};
inline std::string_view Name(JobGroup g) { return kJobGroupNames[static_cast<int>(g)]; }

// The three phases of a layer, in the order SimAI's workload files give them.
enum class JobPhaseKind { kForward, kInputGrad, kWeightGrad };
inline constexpr std::array<std::string_view, 3> kJobPhaseNames = {"forward", "input_grad",
                                                                   "weight_grad"};
inline std::string_view Name(JobPhaseKind k) { return kJobPhaseNames[static_cast<int>(k)]; }

struct JobPhase {
  Time compute = 0;
  std::optional<CollectiveOp> op;  // none: no communication
  JobGroup group = JobGroup::kTp;
  Bytes size = 0;  // nccl-tests' size of the collective (CollectiveConfig::size)
};

// At most this many layers in a job, repeats and blocks included.
inline constexpr int64_t kMaxJobLayers = 1 << 20;

struct JobLayer {
  std::string name;
  int repeat = 1;  // this many identical layers in a row
  std::array<JobPhase, 3> phases{
      JobPhase{}, JobPhase{},
      JobPhase{.compute = 0, .op = std::nullopt, .group = JobGroup::kDp, .size = 0}};
  // After each of its collectives, each rank waits this long before the collective counts as
  // done for it (SimAI's update_time, the last field of a workload line).
  Time update = 0;
};

// When a collective's step counts as done for the rank that waits for it: kDelivered, when the
// rank has received its chunk (the data is there); kAcked, when the sender has the last ACK of it,
// as SimAI's ns-3 backend signals both ends (its qp_finish), and as a NIC's send completion does,
// the receiver counting the ACK's flight on an idle path; kAckArrival, the same at the ACK's
// real arrival, late when it queued (SimAI's own rule; one thread: FlowAfter::kAckArrival).
enum class StepDone { kDelivered, kAcked, kAckArrival };
inline constexpr std::array<std::string_view, 3> kStepDoneNames = {"delivered", "acked",
                                                                   "ack_arrival"};

// The order in which a rank's weight-gradient collectives (issued without blocking) run, one at
// a time: kIssue, as issued (one NCCL communicator's operations on its stream); kNewestFirst, of
// those waiting when one is done for the rank, the last issued (SimAI's system layer: its
// scheduling policy LIFO over one stream at a time per queue, Sys::insert_stream).
enum class WeightGradOrder { kIssue, kNewestFirst };
inline constexpr std::array<std::string_view, 2> kWeightGradOrderNames = {"issue", "newest_first"};

struct JobConfig {
  std::string name;  // "" = "jobN" (N its index); its flows are tagged NAME-tp, NAME-dp, ...
  // Host indices in rank order; all_ranks: every host in index order.
  std::vector<int> ranks;
  bool all_ranks = false;
  int tp = 1;
  int pp = 1;
  int ep = 1;  // divides the DP size
  int micro_batches = 1;
  int iterations = 1;
  // Bytes of one micro-batch's activations sent from each rank to its peer in the next stage
  // (and of their gradient sent back).
  Bytes pp_size = 0;
  Time start = 0;
  // How its collectives run (as [[collective]]'s keys of the same names); channels 0: per group,
  // its ranks in one server (SimAI's MockNccl).
  int channels = 1;
  int qps_per_connection = 0;  // as [[collective]]'s; 0: host.qps_per_connection
  bool rotate_rings = false;
  bool pxn = false;  // NCCL's PXN for its ring and direct collectives (as [[collective]] pxn)
  // Each flow of its collectives starts this long after it is ready (SimAI's AS_SEND_LAT, a
  // proxy's or launch's latency per transfer).
  Time send_latency = 0;
  // Each compute after a rank's first starts this long after what it waits for (SimAI's 1 ns
  // per state change of its workload loop).
  Time compute_gap = 0;
  // SimAI's processing delay (its PacketBundle's memory reads and write, 30 ns): added to the
  // transfers of the ring steps its NcclFlowModel processes (ProcessedRingStep).
  Time processing_latency = 0;
  CollectiveConnection connection = CollectiveConnection::kPersistent;
  std::string allreduce_algorithm = "ring";
  std::string alltoall_algorithm = "direct";
  StepDone step_done = StepDone::kDelivered;
  WeightGradOrder weight_grad_order = WeightGradOrder::kIssue;
  int priority = 3;
  std::vector<JobLayer> layers;
  int blocks = 1;  // the layers, this many times in a row

  int ranks_count(int hosts) const { return all_ranks ? hosts : static_cast<int>(ranks.size()); }
  // The host of each rank, in rank order, on a fabric of `hosts` hosts.
  std::vector<int> rank_hosts(int hosts) const {
    if (!all_ranks) return ranks;
    std::vector<int> h(static_cast<size_t>(hosts));
    for (int g = 0; g < hosts; ++g) h[static_cast<size_t>(g)] = g;
    return h;
  }
};

}  // namespace dcqcn
