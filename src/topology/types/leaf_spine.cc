// leaf_spine: every leaf cabled to every spine, hosts = leaves x hosts_per_leaf (any hosts given
// must agree, or, without hosts_per_leaf, divide evenly into the leaves). A small two-tier fabric
// by default (16 hosts), the shape of the HPCC and DCQCN+ evaluations. Node ids: hosts (host h
// on leaf h / hosts_per_leaf), then leaves, then spines. Links: host h's cable is link h, then
// every leaf to every spine, leaf by leaf, at fabric_rate.
#include "topology/types/leaf_spine.h"

#include <fmt/format.h>

#include "topology/fabric_shape.h"
#include "topology/topology_keys.h"

namespace dcqcn {
namespace {

constexpr TopologyKey kLeaves{
    {"leaves", KeyKind::kValue, "integer", "switches", "4", "Number of leaf switches."},
    &TopologyConfig::leaves,
    1,
    kMaxTopologyNodes,
    "an integer number of leaf switches"};
constexpr TopologyKey kHostsPerLeaf{
    {"hosts_per_leaf", KeyKind::kValue, "integer", "hosts", "4",
     "Hosts on each leaf (hosts / leaves when only hosts is given); host h is on leaf h / "
     "hosts_per_leaf."},
    &TopologyConfig::hosts_per_leaf,
    1,
    kMaxSwitchPorts,
    "an integer number of hosts per leaf"};

TopologyProblem Derive(TopologyConfig& topo, const std::vector<std::string>& given) {
  if (!Given(given, "hosts_per_leaf") && Given(given, "hosts")) {
    if (topo.hosts % topo.leaves != 0) {
      return {"hosts", fmt::format("expected a multiple of leaves = {} (or give hosts_per_leaf), "
                                   "got {}",
                                   topo.leaves, topo.hosts)};
    }
    topo.hosts_per_leaf = topo.hosts / topo.leaves;
  }
  const int64_t derived = static_cast<int64_t>(topo.leaves) * topo.hosts_per_leaf;
  return CheckDerivedHosts(topo, given, derived,
                           fmt::format("leaves x hosts_per_leaf = {} x {} = {}", topo.leaves,
                                       topo.hosts_per_leaf, derived));
}

void Build(TopologyConfig& topo, const std::string& source) {
  CheckAtLeastOne(source, "leaves", topo.leaves);
  CheckAtLeastOne(source, "spines", topo.spines);
  CheckAtLeastOne(source, "hosts_per_leaf", topo.hosts_per_leaf);
  const int64_t hosts = static_cast<int64_t>(topo.leaves) * topo.hosts_per_leaf;
  SizeTwoTier(topo, source, topo.leaves, hosts, topo.hosts_per_leaf, "hosts_per_leaf",
              fmt::format("leaves x hosts_per_leaf = {} x {} = {}", topo.leaves,
                          topo.hosts_per_leaf, hosts));

  const int leaf0 = topo.hosts;
  const int spine0 = topo.hosts + topo.leaves;
  topo.links.clear();
  topo.links.reserve(topo.hosts + static_cast<size_t>(topo.leaves) * topo.spines);
  for (int h = 0; h < topo.hosts; ++h) {
    topo.links.push_back({h, leaf0 + h / topo.hosts_per_leaf, topo.link_rate, topo.link_delay});
  }
  for (int l = 0; l < topo.leaves; ++l) {
    for (int s = 0; s < topo.spines; ++s) {
      topo.links.push_back({leaf0 + l, spine0 + s, topo.fabric_rate, topo.link_delay});
    }
  }
}

}  // namespace

const TopologyType& LeafSpineTopology() {
  static const TopologyType type{
      .name = "leaf_spine",
      .description =
          "two tiers: hosts_per_leaf hosts on each leaf, every leaf cabled to every "
          "spine",
      .keys = {&kLeaves, &kSpinesKey, &kHostsPerLeaf, &kOversubscriptionKey, &kFabricRateKey},
      .derive = Derive,
      .build = Build,
      .hosts_from_shape = true,
  };
  return type;
}

}  // namespace dcqcn
