// ring: 2(n-1) steps for allreduce; in step k rank i sends one chunk of size / n to rank i+1
// (ranks in the order given): reduce-scatter, then all-gather. reducescatter and allgather are
// the n-1 steps of one half. With rotate_rings, channel c's ring takes each server's ranks
// rotated by c (SimAI's MockNccl: gen_local_ring, then the same local order on every server).
// With pxn, the ring leaves each server by the NIC it came in by, as NCCL's ring graph gives a
// channel one NIC for both (ncclTopoGetNetDev: inter[2c] and inter[2c+1]): the server's last
// rank hands its chunk over NVLink to the rank on the next server's first rank's rail.
#include "workload/collective/ring.h"

#include <algorithm>

#include "workload/collective_builder.h"

namespace dcqcn {
namespace {

int Halves(CollectiveOp op) { return op == CollectiveOp::kAllReduce ? 2 : 1; }

void Expand(const CollectiveConfig& c, Bytes data, CollectiveBuilder& b) {
  const int n = static_cast<int>(b.hosts().size());
  std::vector<int> all(n);
  for (int i = 0; i < n; ++i) all[i] = i;
  if (c.rotate_rings && b.gpus_per_server() > 0) {
    all.clear();
    for (std::vector<int>& server : ByServer(b.hosts(), b.gpus_per_server())) {
      const auto shift = static_cast<std::ptrdiff_t>(b.channel() % server.size());
      std::rotate(server.begin(), server.begin() + shift, server.end());
      all.insert(all.end(), server.begin(), server.end());
    }
  }
  std::vector<Step> steps;
  RingSteps({all}, Halves(c.op) * (n - 1), CeilDiv(data, n), steps);
  for (const Step& step : steps) {
    if (c.pxn) {
      b.RunPxn(step);
    } else {
      b.Run(step);
    }
  }
}

}  // namespace

const CollectiveAlgorithm& RingCollective() {
  static const CollectiveAlgorithm algorithm{
      "ring",
      "NCCL's ring (all but alltoall): 2(n-1) steps of S/n for allreduce, rank i to rank i+1 "
      "in the order given (rotate_rings: each server's ranks rotated by the channel); "
      "reducescatter and allgather are one half; with pxn, each server's last rank hands its "
      "chunk over NVLink to the rank on the next rank's rail",
      [](CollectiveOp op) { return op != CollectiveOp::kAllToAll; },
      [](const CollectiveConfig&, const std::vector<int>&, const CollectiveHosts&) {
        return CollectiveProblem{};
      },
      Expand,
      [](const CollectiveConfig& c, Bytes, const std::vector<int>& hosts, const CollectiveHosts&) {
        const uint64_t n = hosts.size();
        const uint64_t relays = c.pxn ? 2 : 1;  // pxn: at most, every transfer relayed
        return relays * static_cast<uint64_t>(Halves(c.op)) * (n - 1) * n;
      }};
  return algorithm;
}

}  // namespace dcqcn
