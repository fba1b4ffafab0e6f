// direct: one step, every rank sends size / n to every other (alltoall; allgather sends its own
// part). pxn (on a rail fabric): a transfer to a GPU on another server and rail first crosses
// the sender's NVLink to the rank on the destination's rail, which forwards it when it has
// arrived (NCCL's PXN, CollectiveBuilder::RunPxn).
#include "workload/collective/direct.h"

#include "workload/collective_builder.h"

namespace dcqcn {
namespace {

// Every rank to every other; with pxn, through the rank on the destination's rail.
void Direct(Bytes bytes, bool pxn, CollectiveBuilder& b) {
  const int n = static_cast<int>(b.hosts().size());
  Step step;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i != j) step.push_back({i, j, bytes});
    }
  }
  if (pxn) {
    b.RunPxn(step);
  } else {
    b.Run(step);
  }
}

}  // namespace

const CollectiveAlgorithm& DirectCollective() {
  static const CollectiveAlgorithm algorithm{
      "direct",
      "one step, every rank to every other (alltoall, allgather); with pxn, NCCL's PXN relays "
      "over NVLink to the destination's rail",
      [](CollectiveOp op) {
        return op == CollectiveOp::kAllToAll || op == CollectiveOp::kAllGather;
      },
      [](const CollectiveConfig&, const std::vector<int>&, const CollectiveHosts&) {
        return CollectiveProblem{};
      },
      [](const CollectiveConfig& c, Bytes data, CollectiveBuilder& b) {
        const Bytes bytes = CeilDiv(data, static_cast<Bytes>(b.hosts().size()));
        Direct(bytes, c.pxn, b);
      },
      [](const CollectiveConfig& c, Bytes, const std::vector<int>& hosts, const CollectiveHosts&) {
        const uint64_t n = hosts.size();
        return c.pxn ? 2 * n * (n - 1) : n * (n - 1);  // pxn: at most, every transfer relayed
      }};
  return algorithm;
}

}  // namespace dcqcn
