// Collectives as flows that wait for each other ([[collective]], workload/collective_config.h).
//
// Each step of an algorithm is one flow per (sender, receiver) pair and channel; a rank sends a
// step's flows when the flows it received in its previous step have arrived (delivered in
// order), as NCCL's ring and its peers forward a chunk once it has come in. A rank's first step
// of iteration i + 1 waits, `gap` more, for everything it received in its last step of
// iteration i and for the acknowledgement of everything it sent in its last step: its view of
// "my collective is done". Every wait is local to the waiting flow's source host
// (net/flow_dependencies.h).
//
//   ring (allreduce):     2(n-1) steps; in step k rank i sends one chunk of size / n to rank
//                         i+1 (ranks in the order given): reduce-scatter, then all-gather.
//   ring (reducescatter, allgather): the n-1 steps of one half.
//   halving_doubling:     recursive halving (reducescatter: step k, rank i exchanges size /
//                         2^(k+1) with rank i xor n/2^(k+1)) and recursive doubling
//                         (allgather: step k, size 2^k / n with rank i xor 2^k); allreduce is
//                         both. n a power of two.
//   direct:               one step: every rank sends size / n to every other (alltoall;
//                         allgather sends its own part).
//   hierarchical:         on servers of several GPUs (rail topologies), NCCL's rail-aligned
//                         scheme: allreduce = a ring reduce-scatter among each server's GPUs
//                         (NVLink), a ring allreduce of size / g among the servers on every
//                         rail, a ring all-gather inside each server; reducescatter = its first
//                         two phases (the inter-server one a reduce-scatter); allgather = an
//                         inter-server all-gather per rail, then the intra-server one.
//   pxn (alltoall):       a transfer to a GPU on another server and rail first crosses the
//                         sender's NVLink to the GPU of the destination's rail, which forwards it
//                         when it has arrived (NCCL's PXN).
// Channels repeat the algorithm side by side, each with size / channels. Chunk sizes round up to
// whole bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "net/flow_dependencies.h"
#include "net/flow_spec.h"
#include "workload/collective_config.h"
#include "workload/flow_tags.h"

namespace dcqcn {

// Where ranks live: `hosts` hosts; on a rail topology, servers of `gpus_per_server` hosts each
// (host = server x gpus_per_server + gpu), otherwise 0.
struct CollectiveHosts {
  int hosts = 0;
  int gpus_per_server = 0;
};

// The first thing wrong with `c` on `where`: the key it is about ("ranks", "algorithm", "pxn")
// and why; an empty key when nothing is.
struct CollectiveProblem {
  std::string key;
  std::string message;
};
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
