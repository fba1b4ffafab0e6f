// A collective communication operation ([[collective]]): which op, by which algorithm, among
// which hosts, how much data, how often. ExpandCollectives (workload/collectives.h) turns it into
// flows that wait for each other as the algorithm's steps do.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.h"

namespace dcqcn {

enum class CollectiveOp { kAllReduce, kReduceScatter, kAllGather, kAllToAll };

inline constexpr std::array<std::string_view, 4> kCollectiveOpNames = {"allreduce", "reducescatter",
                                                                       "allgather", "alltoall"};
inline std::string_view Name(CollectiveOp op) { return kCollectiveOpNames[static_cast<int>(op)]; }

// nccl-tests' bus bandwidth factor (doc/PERFORMANCE.md of NVIDIA/nccl-tests): busbw = algbw x
// this for n ranks: 2(n-1)/n for allreduce, (n-1)/n for the others.
inline double BusFactor(CollectiveOp op, int n) {
  const double f = static_cast<double>(n - 1) / n;
  return op == CollectiveOp::kAllReduce ? 2 * f : f;
}

// How a rank's transfers to a peer travel. kPersistent: as NCCL, one connection (queue pair) per
// rank pair and channel for the whole run, whose transfers start in order, each once the one
// before it has sent its last packet, over one source port and one congestion-control state.
// kPerFlow: each transfer a queue pair of its own, with a fresh state and source port, as
// SimAI's ns-3 backend runs them (its SendFlow takes a new port number per flow).
enum class CollectiveConnection { kPersistent, kPerFlow };
inline constexpr std::array<std::string_view, 2> kCollectiveConnectionNames = {"persistent",
                                                                               "per_flow"};

struct CollectiveConfig {
  CollectiveOp op = CollectiveOp::kAllReduce;
  // A name in the registry (workload/collective_algorithm.h); the loader gives the op's default.
  std::string algorithm = "ring";
  // Host indices in ring order; `all_ranks`: every host in index order (ranks = "all").
  std::vector<int> ranks;
  bool all_ranks = false;
  // nccl-tests' "size": the bytes of each rank's buffer for allreduce (in and out) and
  // alltoall (it sends size / n to each rank), of the gathered buffer for allgather (each rank
  // contributes size / n) and of the buffer reduced for reducescatter (each keeps size / n).
  Bytes size = 0;
  int channels = 1;  // parallel rings or queue pairs, each carrying size / channels
  // Queue pairs per connection (NCCL_IB_QPS_PER_CONNECTION): each transfer of a channel split
  // evenly over them, each its own source port (ECMP hash) and congestion-control state; the
  // transfer is done when all are. 0: host.qps_per_connection (the loader resolves it).
  int qps_per_connection = 0;
  // ring: channel c's ring visits each server's ranks rotated by c (in the order given, servers
  // in order of their first rank), as SimAI's MockNccl builds its channels' rings; false: every
  // channel the same ring.
  bool rotate_rings = false;
  int iterations = 1;
  Time gap = 0;  // from a rank's end of one iteration to its start of the next (compute)
  Time start = 0;
  std::string tag;  // "" = the collective's default, "collectiveN" (N its index)
  int priority = 3;
  bool pxn = false;  // alltoall on a rail fabric: to another server via the destination's rail
  CollectiveConnection connection = CollectiveConnection::kPersistent;
};

}  // namespace dcqcn
