#include "topology/fabric_shape.h"

#include <fmt/format.h>

#include <cmath>

#include "core/error.h"
#include "topology/builders.h"

namespace dcqcn {

void TopologyFail(const std::string& source, const std::string& what) {
  throw InputError(fmt::format("{}: topology: {}", source, what));
}

void CheckNodeCount(const TopologyConfig& topo, const std::string& source, std::string_view what,
                    int64_t count) {
  if (count > kMaxTopologyNodes) {
    TopologyFail(source, fmt::format("{} would have {} {}, more than the {} supported", topo.type,
                                     count, what, kMaxTopologyNodes));
  }
}

void CheckSwitchPorts(const std::string& source, std::string_view node, int64_t ports) {
  if (ports > kMaxSwitchPorts) {
    TopologyFail(source, fmt::format("a {} switch would have {} ports, more than the {} a "
                                     "switch's 16-bit port index allows",
                                     node, ports, kMaxSwitchPorts));
  }
}

void CheckAtLeastOne(const std::string& source, std::string_view name, int value) {
  if (value < 1) TopologyFail(source, fmt::format("{} = {}, expected >= 1", name, value));
}

void DeriveFabricRate(TopologyConfig& topo, const std::string& source, int downlinks,
                      std::string_view per_leaf) {
  if (topo.fabric_rate < 0) TopologyFail(source, "fabric_rate must be > 0 (or 0 = link_rate)");
  if (!(topo.oversubscription >= 0) || !std::isfinite(topo.oversubscription)) {
    TopologyFail(source, fmt::format("oversubscription = {}, expected a number > 0 (or 0 = not "
                                     "given)",
                                     topo.oversubscription));
  }
  if (topo.oversubscription > 0) {
    const double derived = static_cast<double>(downlinks) * static_cast<double>(topo.link_rate) /
                           (topo.spines * topo.oversubscription);
    if (!(derived >= 1) || derived > 1e15) {
      TopologyFail(source, fmt::format("oversubscription = {} gives a fabric_rate of {} bps, "
                                       "expected 1bps..1Pbps",
                                       topo.oversubscription, derived));
    }
    // An explicit rate may be the derived one rounded as the user wrote it ("53.33Gbps").
    if (topo.fabric_rate > 0 &&
        std::abs(static_cast<double>(topo.fabric_rate) - derived) > 1e-3 * derived) {
      TopologyFail(source,
                   fmt::format("fabric_rate = {} conflicts with oversubscription = {}, which "
                               "gives {} x link_rate / (spines x oversubscription) = {} x {} / "
                               "({} x {}) = {}; give one of them",
                               FormatRate(topo.fabric_rate), topo.oversubscription, per_leaf,
                               downlinks, FormatRate(topo.link_rate), topo.spines,
                               topo.oversubscription, FormatRate(std::llround(derived))));
    }
    if (topo.fabric_rate == 0) topo.fabric_rate = std::llround(derived);
  }
  if (topo.fabric_rate == 0) topo.fabric_rate = topo.link_rate;
}

void SizeTwoTier(TopologyConfig& topo, const std::string& source, int64_t leaves, int64_t hosts,
                 int downlinks, std::string_view per_leaf, const std::string& product) {
  CheckNodeCount(topo, source, "hosts", hosts);
  CheckNodeCount(topo, source, "switches", leaves + topo.spines);
  CheckSwitchPorts(source, "leaf", int64_t{downlinks} + topo.spines);
  CheckSwitchPorts(source, "spine", leaves);
  if (hosts < 2) TopologyFail(source, fmt::format("{} hosts, expected >= 2", product));
  topo.hosts = static_cast<int>(hosts);
  topo.switches = static_cast<int>(leaves) + topo.spines;
  DeriveFabricRate(topo, source, downlinks, per_leaf);
}

}  // namespace dcqcn
