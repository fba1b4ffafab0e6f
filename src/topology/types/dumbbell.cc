// dumbbell: hosts 0..ceil(H/2)-1 on s0, the rest on s1, then one s0-s1 link of bottleneck_rate
// (link_rate when 0); link h is host h's cable.
#include "topology/types/dumbbell.h"

#include "topology/fabric_shape.h"
#include "topology/topology_keys.h"

namespace dcqcn {
namespace {

constexpr TopologyKey kBottleneckRate{{"bottleneck_rate", KeyKind::kValue, "rate", "",
                                       "depends on `link_rate`: equal", "Rate of the s0-s1 link."},
                                      &TopologyConfig::bottleneck_rate};

}  // namespace

const TopologyType& DumbbellTopology() {
  static const TopologyType type{
      .name = "dumbbell",
      .description = "half the hosts on s0, the rest on s1, one s0-s1 link",
      .keys = {&kBottleneckRate},
      .derive =
          [](TopologyConfig& topo, const std::vector<std::string>&) {
            // Written out (rather than left 0) so resolved.toml shows the rate the run used.
            if (topo.bottleneck_rate == 0) topo.bottleneck_rate = topo.link_rate;
            return TopologyProblem{};
          },
      .build =
          [](TopologyConfig& topo, const std::string& source) {
            if (topo.bottleneck_rate < 0) {
              TopologyFail(source, "bottleneck_rate must be > 0 (or 0 = link_rate)");
            }
            topo.switches = 2;
            topo.links.clear();
            topo.links.reserve(topo.hosts + 1);
            const int s0 = topo.hosts;
            const int s1 = topo.hosts + 1;
            const int left = (topo.hosts + 1) / 2;  // ceil(H/2): the odd host goes to the left
            for (int h = 0; h < topo.hosts; ++h) {
              topo.links.push_back({h, h < left ? s0 : s1, topo.link_rate, topo.link_delay});
            }
            topo.links.push_back({s0, s1,
                                  topo.bottleneck_rate > 0 ? topo.bottleneck_rate : topo.link_rate,
                                  topo.link_delay});
          },
  };
  return type;
}

}  // namespace dcqcn
