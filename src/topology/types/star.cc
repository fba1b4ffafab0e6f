// star: every host on one switch, s0; link h is host h's cable.
#include "topology/types/star.h"

namespace dcqcn {

const TopologyType& StarTopology() {
  static const TopologyType type{
      .name = "star",
      .description = "every host on one switch, s0",
      .keys = {},
      .build =
          [](TopologyConfig& topo, const std::string&) {
            topo.switches = 1;
            topo.links.clear();
            topo.links.reserve(topo.hosts);
            for (int h = 0; h < topo.hosts; ++h) {
              topo.links.push_back({h, topo.hosts, topo.link_rate, topo.link_delay});
            }
          },
  };
  return type;
}

}  // namespace dcqcn
