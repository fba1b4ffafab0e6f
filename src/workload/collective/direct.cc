// direct: one step, every rank sends size / n to every other (alltoall; allgather sends its own
// part). pxn (alltoall on a rail fabric): a transfer to a GPU on another server and rail first
// crosses the sender's NVLink to the GPU of the destination's rail, which forwards it when it
// has arrived (NCCL's PXN).
#include "workload/collective/direct.h"

#include <map>

#include "workload/collective_builder.h"

namespace dcqcn {
namespace {

void Direct(Bytes bytes, CollectiveBuilder& b) {
  const int n = static_cast<int>(b.hosts().size());
  Step step;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i != j) step.push_back({i, j, bytes});
    }
  }
  b.Run(step);
}

void Pxn(Bytes bytes, CollectiveBuilder& b) {
  const std::vector<int>& hosts = b.hosts();
  const int g = b.gpus_per_server();
  const int n = static_cast<int>(hosts.size());
  std::map<int, int> rank_of;  // host -> rank
  for (int r = 0; r < n; ++r) rank_of[hosts[r]] = r;
  std::vector<std::vector<uint32_t>> received(n);
  std::vector<std::vector<uint32_t>> sent(n);
  std::vector<CollectiveBuilder::Wait> waits(n);
  for (int i = 0; i < n; ++i) waits[i] = b.LastReceived(i);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      const int src = hosts[i];
      const int dst = hosts[j];
      if (src / g == dst / g || src % g == dst % g) {
        const uint32_t id = b.Add(src, dst, bytes, waits[i]);
        received[j].push_back(id);
        sent[i].push_back(id);
        continue;
      }
      const int relay = (src / g) * g + dst % g;
      const uint32_t hop = b.Add(src, relay, bytes, waits[i]);
      sent[i].push_back(hop);
      const uint32_t id = b.Add(relay, dst, bytes, b.After({hop}));
      received[j].push_back(id);
      if (const auto it = rank_of.find(relay); it != rank_of.end()) {
        sent[it->second].push_back(id);
      }
    }
  }
  b.Commit(received, sent);
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
        if (c.pxn) {
          Pxn(bytes, b);
        } else {
          Direct(bytes, b);
        }
      },
      [](const CollectiveConfig& c, Bytes, const std::vector<int>& hosts, const CollectiveHosts&) {
        const uint64_t n = hosts.size();
        return c.pxn ? 2 * n * (n - 1) : n * (n - 1);  // pxn: at most, every transfer relayed
      }};
  return algorithm;
}

}  // namespace dcqcn
