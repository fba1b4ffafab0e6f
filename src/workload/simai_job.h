// A SimAI workload (workload/simai_workload.h) as the [[job]] SimAI's ns-3 backend runs
// (astra-sim's Workload::iterate_hybrid_parallel_Transformer_fwd_in_bckwd over MockNccl), so
// that `dcqcn simai` gives its answers:
//   - one pass (its ns-3 frontend hard-codes TOTAL_PASS = 1), one micro-batch: it runs no
//     pipeline and no gradient accumulation (pp, vpp and ga enter only its report), so pp > 1
//     and ga > 1 are warned about and run as it runs them;
//   - TP groups of model_parallel_NPU_group consecutive ranks, DP groups of stride TP; forward
//     and input-gradient collectives over TP and blocking, weight-gradient ones over DP and not;
//     its ns-3 build makes no EP groups: a comm type with _EP or _DP_EP runs no collective
//     there, nor here (warned about);
//   - rings as MockNccl builds them: a channel per GPU of the group in one server, channel c's
//     ring each server's ranks rotated by c; one queue pair per transfer; a step done for both
//     ends when the sender has the last ACK; each layer's update_time after each of its
//     collectives; AS_SEND_LAT and its MemBus hop of 10 ns (`send_latency`) before each
//     transfer, 30 ns more on the ring steps its NcclFlowModel processes
//     (`processing_latency`), 1 ns per state change (`compute_gap`), and its weight-gradient
//     collectives one at a time per rank, newest first (`weight_grad_order`; docs/validation.md
//     has where each is in its code).
#pragma once

#include <string>
#include <vector>

#include "core/units.h"
#include "workload/job_config.h"
#include "workload/simai_workload.h"

namespace dcqcn {

// `path` names the workload file in messages; `gpus`: the topology's GPUs. Throws InputError
// "PATH:LINE: FIELD: ..." for what SimAI's ns-3 backend cannot run or dcqcn does not model
// (all_gpus other than the topology's, a TP group that does not divide them, recomputation,
// ALLREDUCEALLTOALL); appends to `warnings` what SimAI ignores.
JobConfig SimaiJobConfig(const SimaiWorkload& w, const std::string& path, int gpus,
                         Time send_latency, std::vector<std::string>* warnings);

}  // namespace dcqcn
