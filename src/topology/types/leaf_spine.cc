// leaf_spine: every leaf cabled to every spine, hosts = leaves / ports_per_host x hosts_per_leaf
// (any hosts given must agree, or, without hosts_per_leaf, divide evenly into the racks). A small
// two-tier fabric by default (16 hosts), the shape of the HPCC and DCQCN+ evaluations. With
// ports_per_host = P (dual-ToR: 2), the leaves form racks of P and each host's NIC has a port on
// each leaf of its rack. Node ids: hosts (host h in rack h / hosts_per_leaf), then leaves (rack r's
// are r x P .. r x P + P - 1), then spines. Links: host h's first cable is link h, its port k's
// link k x hosts + h, then every leaf to every spine, leaf by leaf, at fabric_rate.
#include "topology/types/leaf_spine.h"

#include <fmt/format.h>

#include <string>

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

constexpr TopologyKey kPortsPerHost{
    {"ports_per_host", KeyKind::kValue, "integer", "ports", "1",
     "Ports of each host's NIC, each cabled to its own leaf (dual-ToR: 2, as Alibaba HPN): the "
     "leaves form racks of ports_per_host and a rack's hosts are on each of its leaves, so "
     "leaves must be a multiple of it. A flow leaves by one port, its hash choosing among those "
     "nearest its receiver (one per queue pair); its ACKs come back by the port it arrived on."},
    &TopologyConfig::ports_per_host,
    1,
    16,
    "an integer number of NIC ports"};

// Racks: each ports_per_host leaves.
int Racks(const TopologyConfig& topo) { return topo.leaves / topo.ports_per_host; }

// How `hosts` follows from the shape, for messages: "leaves x hosts_per_leaf = 4 x 4 = 16".
std::string HostsProduct(const TopologyConfig& topo, int64_t hosts) {
  if (topo.ports_per_host == 1) {
    return fmt::format("leaves x hosts_per_leaf = {} x {} = {}", topo.leaves, topo.hosts_per_leaf,
                       hosts);
  }
  return fmt::format("leaves / ports_per_host x hosts_per_leaf = {} / {} x {} = {}", topo.leaves,
                     topo.ports_per_host, topo.hosts_per_leaf, hosts);
}

TopologyProblem Derive(TopologyConfig& topo, const std::vector<std::string>& given) {
  if (topo.ports_per_host > 1 && topo.leaves % topo.ports_per_host != 0) {
    return {"leaves", fmt::format("expected a multiple of ports_per_host = {} (the leaves of a "
                                  "rack), got {}",
                                  topo.ports_per_host, topo.leaves)};
  }
  if (!Given(given, "hosts_per_leaf") && Given(given, "hosts")) {
    if (topo.hosts % Racks(topo) != 0) {
      return {"hosts",
              fmt::format("expected a multiple of {} = {} (or give hosts_per_leaf), got {}",
                          topo.ports_per_host == 1 ? "leaves" : "leaves / ports_per_host",
                          Racks(topo), topo.hosts)};
    }
    topo.hosts_per_leaf = topo.hosts / Racks(topo);
  }
  const int64_t derived = static_cast<int64_t>(Racks(topo)) * topo.hosts_per_leaf;
  return CheckDerivedHosts(topo, given, derived, HostsProduct(topo, derived));
}

void Build(TopologyConfig& topo, const std::string& source) {
  CheckAtLeastOne(source, "leaves", topo.leaves);
  CheckAtLeastOne(source, "spines", topo.spines);
  CheckAtLeastOne(source, "hosts_per_leaf", topo.hosts_per_leaf);
  const int ports = topo.ports_per_host;
  if (ports < 1 || topo.leaves % ports != 0) {
    TopologyFail(source, fmt::format("leaves = {} is not a multiple of ports_per_host = {}",
                                     topo.leaves, ports));
  }
  const int64_t hosts = static_cast<int64_t>(Racks(topo)) * topo.hosts_per_leaf;
  SizeTwoTier(topo, source, topo.leaves, hosts, topo.hosts_per_leaf, "hosts_per_leaf",
              HostsProduct(topo, hosts));

  const int leaf0 = topo.hosts;
  const int spine0 = topo.hosts + topo.leaves;
  topo.links.clear();
  topo.links.reserve(static_cast<size_t>(topo.hosts) * ports +
                     static_cast<size_t>(topo.leaves) * topo.spines);
  for (int k = 0; k < ports; ++k) {
    for (int h = 0; h < topo.hosts; ++h) {
      topo.links.push_back(
          {h, leaf0 + h / topo.hosts_per_leaf * ports + k, topo.link_rate, topo.link_delay});
    }
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
      .keys = {&kLeaves, &kSpinesKey, &kHostsPerLeaf, &kPortsPerHost, &kOversubscriptionKey,
               &kFabricRateKey},
      .derive = Derive,
      .build = Build,
      .hosts_from_shape = true,
  };
  return type;
}

}  // namespace dcqcn
