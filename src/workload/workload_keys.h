// The keys of [workload], [workload.incast] and [[collective]], declared once beside the options
// they set (workload_config.h, collective_config.h): the loader, resolved.toml (collectives) and
// the key reference read these rows.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "core/key_row.h"
#include "workload/collective_config.h"
#include "workload/workload_config.h"

namespace dcqcn {

// The values of [workload] type, each a generator of generators.h.
inline constexpr std::array<std::string_view, 3> kWorkloadTypes = {"incast", "permutation",
                                                                   "poisson"};

std::span<const KeyRow<WorkloadConfig>> WorkloadKeys();
// [workload.incast]: poisson's incast events, into the incast_* fields.
std::span<const KeyRow<WorkloadConfig>> IncastEventKeys();
std::span<const KeyRow<CollectiveConfig>> CollectiveKeys();

}  // namespace dcqcn
