// Collectives as flows that wait for each other ([[collective]], workload/collective_config.h).
//
// Each step of an algorithm is one flow per (sender, receiver) pair and channel; a rank sends a
// step's flows when the flows it received in its previous step have arrived (delivered in
// order), as NCCL's ring and its peers forward a chunk once it has come in. A rank's first step
// of iteration i + 1 waits, `gap` more, for everything it received in its last step of
// iteration i and for the acknowledgement of everything it sent in its last step: its view of
// "my collective is done". Every wait is local to the waiting flow's source host
// (net/flow_dependencies.h). The algorithms (ring, halving_doubling, direct, hierarchical, tree)
// are in workload/collective/, one file each, listed in collective_registry.cc.
// Channels repeat the algorithm side by side, each with size / channels. Chunk sizes round up to
// whole bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "net/flow_dependencies.h"
#include "net/flow_spec.h"
#include "workload/collective_algorithm.h"
#include "workload/collective_config.h"
#include "workload/flow_tags.h"

namespace dcqcn {

// The first thing wrong with `c` on `where`: an algorithm that is not registered or does not
// implement the op, ranks that are not hosts once each, and the algorithm's own needs.
CollectiveProblem CheckCollective(const CollectiveConfig& c, const CollectiveHosts& where);

// The host of each rank (ranks = "all": every host in order).
std::vector<int> RankHosts(const CollectiveConfig& c, const CollectiveHosts& where);

// How many flows `c` expands into (CheckCollective must pass), to bound a run before building it.
uint64_t CollectiveFlowCount(const CollectiveConfig& c, const CollectiveHosts& where);

// The flows a collective expanded into: iteration i's are [iteration_begin[i],
// iteration_begin[i + 1]).
struct CollectiveFlows {
  std::vector<uint32_t> iteration_begin;
  uint32_t begin(int iteration) const { return iteration_begin[iteration]; }
  uint32_t end(int iteration) const { return iteration_begin[iteration + 1]; }
};

// Appends the flows of collective `c` (named `name` in messages; tagged c.tag, or `name` when it
// has none) to `flows` with their waits in `after`. Throws InputError if CheckCollective fails.
CollectiveFlows ExpandCollective(const CollectiveConfig& c, const CollectiveHosts& where,
                                 const std::string& name, std::vector<FlowSpec>& flows,
                                 FlowAfter& after, FlowTags& tags);

}  // namespace dcqcn
