// ring: 2(n-1) steps for allreduce; in step k rank i sends one chunk of size / n to rank i+1
// (ranks in the order given): reduce-scatter, then all-gather. reducescatter and allgather are
// the n-1 steps of one half.
#include "workload/collective/ring.h"

#include "workload/collective_builder.h"

namespace dcqcn {
namespace {

int Halves(CollectiveOp op) { return op == CollectiveOp::kAllReduce ? 2 : 1; }

void Expand(const CollectiveConfig& c, Bytes data, CollectiveBuilder& b) {
  const int n = static_cast<int>(b.hosts().size());
  std::vector<int> all(n);
  for (int i = 0; i < n; ++i) all[i] = i;
  std::vector<Step> steps;
  RingSteps({all}, Halves(c.op) * (n - 1), CeilDiv(data, n), steps);
  for (const Step& step : steps) b.Run(step);
}

}  // namespace

const CollectiveAlgorithm& RingCollective() {
  static const CollectiveAlgorithm algorithm{
      "ring",
      "NCCL's ring (all but alltoall): 2(n-1) steps of S/n for allreduce, rank i to rank i+1 "
      "in the order given; reducescatter and allgather are one half",
      [](CollectiveOp op) { return op != CollectiveOp::kAllToAll; },
      [](const CollectiveConfig&, const std::vector<int>&, const CollectiveHosts&) {
        return CollectiveProblem{};
      },
      Expand,
      [](const CollectiveConfig& c, Bytes, const std::vector<int>& hosts, const CollectiveHosts&) {
        const uint64_t n = hosts.size();
        return static_cast<uint64_t>(Halves(c.op)) * (n - 1) * n;
      }};
  return algorithm;
}

}  // namespace dcqcn
