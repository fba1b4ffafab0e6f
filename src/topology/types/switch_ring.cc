// switch_ring: `switches` switches in a ring, each with hosts_per_switch hosts: the classic shape
// of a PFC deadlock (Hu et al., "Deadlocks in Datacenter Networks: Why Do They Form, and How to
// Avoid Them", HotNets'16), where flows around the ring make a cycle of buffer dependencies.
// Node ids: hosts (host h on switch h / hosts_per_switch), then the switches. Links: host h's
// cable is link h, then switch i to switch i + 1 (mod the ring) at fabric_rate, in order of i.
// Shortest paths go the short way round; between opposite switches of an even ring both ways
// are equal-cost.
#include "topology/types/switch_ring.h"

#include <fmt/format.h>

#include "topology/fabric_shape.h"
#include "topology/topology_keys.h"

namespace dcqcn {
namespace {

constexpr TopologyKey kHostsPerSwitch{
    {"hosts_per_switch", KeyKind::kValue, "integer", "hosts", "2",
     "Hosts on each switch of the ring; host h is on switch h / hosts_per_switch."},
    &TopologyConfig::hosts_per_switch,
    1,
    kMaxSwitchPorts,
    "an integer number of hosts per switch"};

TopologyProblem Derive(TopologyConfig& topo, const std::vector<std::string>& given) {
  if (!Given(given, "switches")) topo.switches = 4;  // the default ring: 4 switches
  if (topo.switches < 3) {
    return {"switches",
            fmt::format("expected at least 3 switches in a ring, got {}", topo.switches)};
  }
  const int64_t derived = static_cast<int64_t>(topo.switches) * topo.hosts_per_switch;
  return CheckDerivedHosts(topo, given, derived,
                           fmt::format("switches x hosts_per_switch = {} x {} = {}", topo.switches,
                                       topo.hosts_per_switch, derived));
}

void Build(TopologyConfig& topo, const std::string& source) {
  if (topo.switches < 3) {
    TopologyFail(source, fmt::format("switches = {}, expected >= 3 in a ring", topo.switches));
  }
  CheckAtLeastOne(source, "hosts_per_switch", topo.hosts_per_switch);
  const int64_t hosts = static_cast<int64_t>(topo.switches) * topo.hosts_per_switch;
  CheckNodeCount(topo, source, "hosts", hosts);
  CheckSwitchPorts(source, "ring", int64_t{topo.hosts_per_switch} + 2);
  topo.hosts = static_cast<int>(hosts);
  DeriveFabricRate(topo, source, topo.hosts_per_switch, "hosts_per_switch");
  const int s0 = topo.hosts;
  topo.links.clear();
  topo.links.reserve(topo.hosts + static_cast<size_t>(topo.switches));
  for (int h = 0; h < topo.hosts; ++h) {
    topo.links.push_back({h, s0 + h / topo.hosts_per_switch, topo.link_rate, topo.link_delay});
  }
  for (int i = 0; i < topo.switches; ++i) {
    topo.links.push_back({s0 + i, s0 + (i + 1) % topo.switches, topo.fabric_rate, topo.link_delay});
  }
}

}  // namespace

const TopologyType& SwitchRingTopology() {
  static const TopologyType type{
      .name = "switch_ring",
      .description =
          "switches in a ring, each with hosts_per_switch hosts: the classic shape of "
          "a PFC deadlock",
      .keys = {&kSwitchesKey, &kHostsPerSwitch, &kFabricRateKey},
      .derive = Derive,
      .build = Build,
      .hosts_from_shape = true,
  };
  return type;
}

}  // namespace dcqcn
