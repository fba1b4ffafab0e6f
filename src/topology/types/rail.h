#pragma once

#include "topology/topology_type.h"

namespace dcqcn {

const TopologyType& RailTopology();
// The leaves of one rail, ceil(servers / servers_per_leaf).
int RailLeaves(const TopologyConfig& topo);

}  // namespace dcqcn
