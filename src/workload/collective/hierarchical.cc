// hierarchical: on servers of several GPUs (rail topologies), NCCL's rail-aligned scheme:
// allreduce = a ring reduce-scatter among each server's GPUs (NVLink), a ring allreduce of
// size / g among the servers on every rail, a ring all-gather inside each server; reducescatter
// = its first two phases (the inter-server one a reduce-scatter); allgather = an inter-server
// all-gather per rail, then the intra-server one.
#include "workload/collective/hierarchical.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "workload/collective_builder.h"

namespace dcqcn {
namespace {

void Expand(const CollectiveConfig& c, Bytes data, CollectiveBuilder& b) {
  const std::vector<std::vector<int>> servers = ByServer(b.hosts(), b.gpus_per_server());
  const int g = static_cast<int>(servers[0].size());
  const int ns = static_cast<int>(servers.size());
  // The rails: local position p of every server.
  std::vector<std::vector<int>> rails(g);
  for (const auto& s : servers) {
    for (int p = 0; p < g; ++p) rails[p].push_back(s[p]);
  }
  const Bytes per_gpu = CeilDiv(data, g);  // what one rail carries between servers
  std::vector<Step> steps;
  if (c.op == CollectiveOp::kAllGather) {
    RingSteps(rails, ns - 1, CeilDiv(per_gpu, ns), steps);
    RingSteps(servers, g - 1, per_gpu, steps);
  } else {
    RingSteps(servers, g - 1, per_gpu, steps);
    const int halves = c.op == CollectiveOp::kAllReduce ? 2 : 1;
    RingSteps(rails, halves * (ns - 1), CeilDiv(per_gpu, ns), steps);
    if (c.op == CollectiveOp::kAllReduce) RingSteps(servers, g - 1, per_gpu, steps);
  }
  for (const Step& step : steps) b.Run(step);
}

CollectiveProblem Check(const CollectiveConfig&, const std::vector<int>& hosts,
                        const CollectiveHosts& where) {
  if (where.gpus_per_server <= 0) {
    return {"algorithm",
            "\"hierarchical\" needs servers of several GPUs: topology.type = \"rail\""};
  }
  const auto servers = ByServer(hosts, where.gpus_per_server);
  // Rail-aligned: every server's ranks are the same GPUs, in the same order.
  auto gpus = [&](const std::vector<int>& s) {
    std::vector<int> g;
    for (int r : s) g.push_back(hosts[r] % where.gpus_per_server);
    return g;
  };
  const std::vector<int> first = gpus(servers[0]);
  for (const auto& s : servers) {
    if (gpus(s) != first) {
      return {"ranks",
              fmt::format("\"hierarchical\" needs the same GPUs of every server in the same "
                          "order (one ring per rail): server {} has GPUs [{}], server {} has [{}]",
                          hosts[servers[0][0]] / where.gpus_per_server, fmt::join(first, ", "),
                          hosts[s[0]] / where.gpus_per_server, fmt::join(gpus(s), ", "))};
    }
  }
  return {};
}

}  // namespace

const CollectiveAlgorithm& HierarchicalCollective() {
  static const CollectiveAlgorithm algorithm{
      "hierarchical",
      "NCCL's rail-aligned scheme on rail fabrics (all but alltoall): rings inside each server "
      "over NVLink and a ring per rail between the servers",
      [](CollectiveOp op) { return op != CollectiveOp::kAllToAll; },
      Check,
      Expand,
      [](const CollectiveConfig& c, Bytes, const std::vector<int>& hosts,
         const CollectiveHosts& where) {
        // g GPUs on each of n / g servers: 2 (allreduce) or 1 intra-server phases of g - 1
        // steps, the rail rings' steps, n flows a step.
        const uint64_t n = hosts.size();
        const uint64_t g = ByServer(hosts, where.gpus_per_server)[0].size();
        const uint64_t servers = n / g;
        const uint64_t halves = c.op == CollectiveOp::kAllReduce ? 2 : 1;  // of each ring
        return halves * ((g - 1) + (servers - 1)) * n;
      }};
  return algorithm;
}

}  // namespace dcqcn
