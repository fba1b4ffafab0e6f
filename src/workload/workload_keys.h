// The keys of [workload], [workload.incast], [[collective]], [[job]] and [[job.layer]], declared
// once beside the options they set (workload_config.h, collective_config.h, job_config.h): the
// loader, resolved.toml (collectives, jobs) and the key reference read these rows.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "core/key_row.h"
#include "workload/collective_config.h"
#include "workload/job_config.h"
#include "workload/workload_config.h"

namespace dcqcn {

// The values of [workload] type, each a generator of generators.h.
inline constexpr std::array<std::string_view, 3> kWorkloadTypes = {"incast", "permutation",
                                                                   "poisson"};

std::span<const KeyRow<WorkloadConfig>> WorkloadKeys();
// [workload.incast]: poisson's incast events, into the incast_* fields.
std::span<const KeyRow<WorkloadConfig>> IncastEventKeys();
std::span<const KeyRow<CollectiveConfig>> CollectiveKeys();
std::span<const KeyRow<JobConfig>> JobKeys();
// [[job.layer]]: its name and repeat, then per phase (forward, input_grad, weight_grad) the keys
// PHASE_compute, PHASE_comm, PHASE_size and PHASE_group, read by hand (the phases are an array).
std::span<const KeyRow<JobLayer>> JobLayerKeys();
// What a phase's PHASE_comm may be: "none", then the collective ops.
inline constexpr std::array<std::string_view, 5> kJobCommNames = {
    "none", "allreduce", "reducescatter", "allgather", "alltoall"};

}  // namespace dcqcn
