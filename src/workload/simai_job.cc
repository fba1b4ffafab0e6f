// SimAI workload -> [[job]] with SimAI's semantics.
#include "workload/simai_job.h"

#include <fmt/format.h>

#include "core/error.h"

namespace dcqcn {
namespace {

std::optional<CollectiveOp> OpOf(SimaiOp op) {
  switch (op) {
    case SimaiOp::kAllReduce:
      return CollectiveOp::kAllReduce;
    case SimaiOp::kAllGather:
      return CollectiveOp::kAllGather;
    case SimaiOp::kReduceScatter:
      return CollectiveOp::kReduceScatter;
    case SimaiOp::kAllToAll:
      return CollectiveOp::kAllToAll;
    default:
      return std::nullopt;
  }
}

}  // namespace

JobConfig SimaiJobConfig(const SimaiWorkload& w, const std::string& path, int gpus,
                         Time send_latency, std::vector<std::string>* warnings) {
  auto warn = [&](int line, const std::string& what) {
    if (warnings != nullptr) warnings->push_back(fmt::format("{}:{}: {}", path, line, what));
  };
  if (w.all_gpus != gpus) {
    throw InputError(
        fmt::format("{}:1: all_gpus: {}, but the topology has {} GPUs", path, w.all_gpus, gpus));
  }
  if (!w.checkpoint_initiates.empty()) {
    throw InputError(fmt::format(
        "{}:1: checkpoint_initiates: recomputation (SimAI's Forward_In_BackPass) is not "
        "modelled (SimAI's ns-3 backend generates no flows for its collectives either)",
        path));
  }
  if (w.pp > 1) {
    warn(1, fmt::format("pp: {}: SimAI's ns-3 backend runs no pipeline (pp enters only its "
                        "report's bubble); run as it runs them, one stage",
                        w.pp));
  }
  if (w.ga > 1) {
    warn(1, fmt::format("ga: {}: SimAI's ns-3 backend runs each pass once (ga enters only its "
                        "report); run as it runs them",
                        w.ga));
  }
  if (w.ep > 1) {
    warn(1, fmt::format("ep: {}: SimAI's ns-3 backend builds no expert-parallel groups; "
                        "_EP and _DP_EP collectives run nothing there, nor here",
                        w.ep));
  }
  JobConfig j;
  j.name = "job0";
  j.all_ranks = true;
  j.tp = w.tp;
  j.micro_batches = 1;
  j.iterations = 1;  // its TOTAL_PASS
  j.channels = 0;    // per group, its GPUs in one server
  j.rotate_rings = true;
  j.connection = CollectiveConnection::kPerFlow;
  j.step_done = StepDone::kAckArrival;  // its qp_finish, as the ACK comes (one thread)
  j.weight_grad_order = WeightGradOrder::kNewestFirst;  // its scheduling policy, LIFO
  // Its MemBus hop before each transfer (MemBus::send_from_NPU_to_MA: 10 ns) after
  // AS_SEND_LAT, its 1 ns per state change and its processing of some ring steps (3 x 10 ns of
  // memory access with no memory model: PacketBundle::call).
  j.send_latency = send_latency + 10 * kNanosecond;
  j.compute_gap = 1 * kNanosecond;
  j.processing_latency = 30 * kNanosecond;
  constexpr std::array<std::string_view, 3> kPhase = {"forward", "input-gradient",
                                                      "weight-gradient"};
  for (const SimaiLayer& l : w.layers) {
    JobLayer layer;
    layer.name = l.name;
    layer.update = l.update;
    for (int k = 0; k < 3; ++k) {
      const SimaiPhase& p = l.phases[k];
      JobPhase& q = layer.phases[k];
      q.compute = p.compute;
      q.group = k == 2 ? JobGroup::kDp : JobGroup::kTp;
      if (p.op == SimaiOp::kNone) continue;
      if (p.op == SimaiOp::kAllReduceAllToAll) {
        throw InputError(
            fmt::format("{}:{}: layer {}'s {} comm type: ALLREDUCEALLTOALL is not "
                        "modelled",
                        path, l.line, l.name, kPhase[k]));
      }
      if (p.group == SimaiGroup::kEp || p.group == SimaiGroup::kDpEp) {
        warn(l.line, fmt::format("layer {}'s {} comm type {}_{}: SimAI's ns-3 backend runs no "
                                 "collective for it (no EP groups); none here either",
                                 l.name, kPhase[k], Name(p.op), Name(p.group)));
        continue;
      }
      q.op = OpOf(p.op);
      q.size = p.size;
    }
    j.layers.push_back(std::move(layer));
  }
  return j;
}

}  // namespace dcqcn
