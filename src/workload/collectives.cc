// Collective algorithms expanded into steps of flows (the scheme is in collectives.h).
#include "workload/collectives.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

#include "core/error.h"
#include "workload/collective_builder.h"

namespace dcqcn {

std::vector<int> RankHosts(const CollectiveConfig& c, const CollectiveHosts& where) {
  if (!c.all_ranks) return c.ranks;
  std::vector<int> all(where.hosts);
  for (int h = 0; h < where.hosts; ++h) all[h] = h;
  return all;
}

CollectiveProblem CheckCollective(const CollectiveConfig& c, const CollectiveHosts& where) {
  const CollectiveAlgorithm* algorithm = FindCollectiveAlgorithm(c.algorithm);
  if (algorithm == nullptr) {
    return {"algorithm", fmt::format("\"{}\" is not a collective algorithm (expected {})",
                                     c.algorithm, fmt::join(CollectiveAlgorithmNames(), ", "))};
  }
  if (!algorithm->implements(c.op)) {
    std::vector<std::string> fit;
    for (const CollectiveAlgorithm* a : CollectiveAlgorithms()) {
      if (a->implements(c.op)) fit.push_back(fmt::format("\"{}\"", a->name));
    }
    return {"algorithm", fmt::format("\"{}\" does not implement {}; {} does", c.algorithm,
                                     Name(c.op), fmt::join(fit, " or "))};
  }
  const std::vector<int> hosts = RankHosts(c, where);
  if (hosts.size() < 2) {
    return {"ranks", fmt::format("a collective needs at least 2 ranks, got {}", hosts.size())};
  }
  std::map<int, size_t> seen;
  for (size_t r = 0; r < hosts.size(); ++r) {
    if (hosts[r] < 0 || hosts[r] >= where.hosts) {
      return {"ranks", fmt::format("ranks[{}] = {} is not a host index (0 to {})", r, hosts[r],
                                   where.hosts - 1)};
    }
    const auto [it, fresh] = seen.emplace(hosts[r], r);
    if (!fresh) {
      return {"ranks", fmt::format("host {} is listed twice (ranks[{}] and ranks[{}])", hosts[r],
                                   it->second, r)};
    }
  }
  if (CollectiveProblem p = algorithm->check(c, hosts, where); !p.key.empty()) return p;
  const bool rail = where.gpus_per_server > 0;
  if (c.pxn && (!rail || (c.algorithm != "direct" && c.algorithm != "ring"))) {
    return {"pxn", rail ? fmt::format("only for algorithm = \"direct\" or \"ring\", not \"{}\"",
                                      c.algorithm)
                        : "only on a topology of servers (rail or simai_file)"};
  }
  return {};
}

uint64_t CollectiveFlowCount(const CollectiveConfig& c, const CollectiveHosts& where) {
  const uint64_t per_channel =
      FindCollectiveAlgorithm(c.algorithm)
          ->flows_per_channel(c, CeilDiv(c.size, c.channels), RankHosts(c, where), where);
  return per_channel * static_cast<uint64_t>(c.channels) * static_cast<uint64_t>(c.iterations) *
         static_cast<uint64_t>(std::max(1, c.qps_per_connection));
}

CollectiveFlows ExpandCollective(const CollectiveConfig& c, const CollectiveHosts& where,
                                 const std::string& name, std::vector<FlowSpec>& flows,
                                 FlowAfter& after, FlowTags& tags) {
  if (const CollectiveProblem p = CheckCollective(c, where); !p.key.empty()) {
    throw InputError(fmt::format("{}.{}: {}", name, p.key, p.message));
  }
  if (c.size <= 0 || c.channels < 1 || c.iterations < 1) {
    throw InputError(fmt::format("{}: size, channels and iterations must be positive", name));
  }
  const std::vector<int> hosts = RankHosts(c, where);
  FlowSpec proto;
  proto.start = c.start;
  proto.priority = c.priority;
  proto.tag = tags.Index(c.tag.empty() ? name : c.tag);
  CollectiveFlows out;
  const CollectiveAlgorithm& algorithm = *FindCollectiveAlgorithm(c.algorithm);
  CollectiveBuilder builder(c, hosts, where.gpus_per_server, proto, flows, after);
  const Bytes data = CeilDiv(c.size, c.channels);
  for (int i = 0; i < c.iterations; ++i) {
    out.iteration_begin.push_back(static_cast<uint32_t>(flows.size()));
    builder.Iteration(algorithm, data, i + 1 < c.iterations);
  }
  out.iteration_begin.push_back(static_cast<uint32_t>(flows.size()));
  return out;
}

}  // namespace dcqcn
