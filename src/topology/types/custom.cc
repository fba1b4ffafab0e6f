// custom: the links as the user wrote them (the loader resolves "h3"/"s1" names into
// Topology::links); only checked here.
#include "topology/types/custom.h"

#include <fmt/format.h>

#include "topology/fabric_shape.h"
#include "topology/topology_keys.h"

namespace dcqcn {
namespace {

// Read and written by hand: node names and optional rates and delays.
constexpr TopologyKey kLinks{
    {"links", KeyKind::kValue, "list of links", "", "required for custom",
     "`[\"A\", \"B\"]` or `[\"A\", \"B\", RATE, DELAY]` per cable, A and B named `\"h3\"` or "
     "`\"s0\"`; every host has at least one link, one per port of its NIC (a GPU's NVLink "
     "port to its server's NVSwitch, a dual-ToR NIC's two ports to two leaves)."}};

}  // namespace

const TopologyType& CustomTopology() {
  static const TopologyType type{
      .name = "custom",
      .description = "the links listed in `links`",
      .keys = {&kSwitchesKey, &kLinks},
      .build =
          [](TopologyConfig& topo, const std::string& source) {
            if (topo.switches < 0 || topo.switches > kMaxTopologyNodes) {
              TopologyFail(source, fmt::format("switches = {}, expected 0..{}", topo.switches,
                                               kMaxTopologyNodes));
            }
          },
  };
  return type;
}

}  // namespace dcqcn
