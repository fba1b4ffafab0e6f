// Checks the fabric types share when they derive hosts, switches and fabric_rate from their
// shape. Counts are multiplied in 64 bits so that a huge shape is reported, not overflowed; each
// check throws InputError prefixed with `source`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "topology/topology_config.h"

namespace dcqcn {

[[noreturn]] void TopologyFail(const std::string& source, const std::string& what);
// At most kMaxTopologyNodes hosts or switches.
void CheckNodeCount(const TopologyConfig& topo, const std::string& source, std::string_view what,
                    int64_t count);
// At most kMaxSwitchPorts ports on a `node` switch.
void CheckSwitchPorts(const std::string& source, std::string_view node, int64_t ports);
// `name` = `value` >= 1.
void CheckAtLeastOne(const std::string& source, std::string_view name, int value);
// fabric_rate from oversubscription: a leaf's `downlinks` host links (`per_leaf` names them)
// over its uplinks to `spines` spines; an explicit fabric_rate must agree. Then 0 = link_rate.
void DeriveFabricRate(TopologyConfig& topo, const std::string& source, int downlinks,
                      std::string_view per_leaf);

// A two-tier fabric (leaf_spine, rail) of `leaves` leaves, each with `downlinks` hosts (named
// `per_leaf`), cabled to every one of topo.spines spines, and `hosts` hosts (`product` says how
// they follow: "leaves x hosts_per_leaf = 4 x 4 = 16"): checks the counts and ports, then sets
// hosts, switches and fabric_rate.
void SizeTwoTier(TopologyConfig& topo, const std::string& source, int64_t leaves, int64_t hosts,
                 int downlinks, std::string_view per_leaf, const std::string& product);

}  // namespace dcqcn
