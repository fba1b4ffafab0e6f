#pragma once

#include "topology/topology_type.h"

namespace dcqcn {

const TopologyType& SimaiFileTopology();

}  // namespace dcqcn
