// fat_tree: the k-ary three-tier fat tree of Al-Fares et al. (SIGCOMM'08): k pods of k/2 edge
// and k/2 aggregation switches, (k/2)^2 cores, k^3/4 hosts, k/2 per edge switch. Node ids:
// hosts (host h on edge h / (k/2)), the k^2/2 edge switches (pod p has edges p*k/2 ..
// p*k/2 + k/2-1), the k^2/2 aggregation switches (same numbering) and the k^2/4 cores.
// Aggregation switch j of every pod connects to cores j*k/2 .. j*k/2 + k/2-1, so between pods
// there are (k/2)^2 shortest paths, one per core.
#include "topology/types/fat_tree.h"

#include <fmt/format.h>

#include "topology/fabric_shape.h"
#include "topology/topology_keys.h"

namespace dcqcn {
namespace {

constexpr TopologyKey kK{{"k", KeyKind::kValue, "integer", "ports", "4",
                          "Ports per switch (even) of the k-ary fat tree (Al-Fares et al., "
                          "SIGCOMM'08): k^3/4 hosts."},
                         &TopologyConfig::k,
                         2,
                         kMaxSwitchPorts,
                         "an even integer number of ports per switch"};

TopologyProblem Derive(TopologyConfig& topo, const std::vector<std::string>& given) {
  if (topo.k % 2 != 0) {
    return {"k", fmt::format("expected an even integer number of ports per switch >= 2, got {}",
                             topo.k)};
  }
  const int64_t derived = static_cast<int64_t>(topo.k) * topo.k * topo.k / 4;
  return CheckDerivedHosts(topo, given, derived,
                           fmt::format("k^3/4 = {} for k = {}", derived, topo.k));
}

void Build(TopologyConfig& topo, const std::string& source) {
  if (topo.k < 2 || topo.k % 2 != 0) {
    TopologyFail(source,
                 fmt::format("k = {}, expected an even number >= 2 (ports per switch)", topo.k));
  }
  CheckSwitchPorts(source, "fat-tree", topo.k);
  const int64_t k = topo.k;
  CheckNodeCount(topo, source, "hosts", k * k * k / 4);
  CheckNodeCount(topo, source, "switches", 5 * k * k / 4);
  topo.hosts = static_cast<int>(k * k * k / 4);
  topo.switches = static_cast<int>(5 * k * k / 4);
  DeriveFabricRate(topo, source, topo.k / 2, "k/2");  // no oversubscription key: link_rate

  const int half = topo.k / 2;
  const int pods = topo.k;
  const int edge0 = topo.hosts;
  const int agg0 = edge0 + pods * half;
  const int core0 = agg0 + pods * half;
  topo.links.clear();
  topo.links.reserve(3 * static_cast<size_t>(topo.hosts));
  for (int h = 0; h < topo.hosts; ++h) {
    topo.links.push_back({h, edge0 + h / half, topo.link_rate, topo.link_delay});
  }
  for (int p = 0; p < pods; ++p) {
    for (int e = 0; e < half; ++e) {
      for (int a = 0; a < half; ++a) {
        topo.links.push_back(
            {edge0 + p * half + e, agg0 + p * half + a, topo.fabric_rate, topo.link_delay});
      }
    }
  }
  for (int p = 0; p < pods; ++p) {
    for (int a = 0; a < half; ++a) {
      for (int c = 0; c < half; ++c) {
        topo.links.push_back(
            {agg0 + p * half + a, core0 + a * half + c, topo.fabric_rate, topo.link_delay});
      }
    }
  }
}

}  // namespace

const TopologyType& FatTreeTopology() {
  static const TopologyType type{
      .name = "fat_tree",
      .description = "the k-ary three-tier fat tree of Al-Fares et al. (SIGCOMM'08)",
      .keys = {&kK, &kFabricRateKey},
      .derive = Derive,
      .build = Build,
      .hosts_from_shape = true,
  };
  return type;
}

}  // namespace dcqcn
