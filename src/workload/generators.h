// Workload generators: expand a scenario's [workload] table (incast, permutation, poisson) into
// flows.
#pragma once

#include <string>
#include <vector>

#include "net/flow_spec.h"
#include "workload/flow_tags.h"
#include "workload/workload_config.h"

namespace dcqcn {

// The RNG stream permutation draws from, so adding other random consumers never changes it.
inline constexpr uint64_t kPermutationRngStream = 7;

// The hosts an incast's senders are: `workload.senders` when given, otherwise the first
// `sender_count` hosts in index order, skipping the receiver.
std::vector<int> IncastSenders(const WorkloadConfig& workload, int hosts);

// The tag generated flows get when [workload] names none: "incast", "permutation", or
// "background" for poisson (its incast events are always tagged "incast").
std::string DefaultWorkloadTag(const std::string& type);
inline constexpr const char* kIncastTag = "incast";

// Appends the flows of s.workload to `flows` (nothing when s.workload.type is empty).
//   incast:      one flow per sender to the receiver, in sender order.
//   permutation: host i sends to host perm[i], perm a uniformly random derangement of
//                0..H-1 drawn from Rng(s.seed, kPermutationRngStream); flows in host order.
//   poisson:     see GeneratePoisson (workload/poisson.h).
// Every incast and permutation flow gets the workload's size, start, priority and tag. Throws
// InputError when the workload does not fit the topology (the loader checks the same with line
// numbers first).
// The workload's tags are added to `tags`.
void GenerateWorkload(const WorkloadInput& s, std::vector<FlowSpec>& flows, FlowTags& tags);

}  // namespace dcqcn
