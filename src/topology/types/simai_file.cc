// simai_file: a SimAI topology file gives every GPU, NVSwitch, switch and link; the scenario
// loader reads it with ns3/simai_topology.h (which this layer cannot include). Each server's
// NVSwitch becomes its NVLink domain, or stays a switch (nvlink_model = "packet").
#include "topology/types/simai_file.h"

#include "topology/topology_keys.h"

namespace dcqcn {

const TopologyType& SimaiFileTopology() {
  static const TopologyType type{
      .name = "simai_file",
      .description =
          "the GPUs, NVSwitches and switches of a SimAI topology file (each server's "
          "NVSwitch becomes its NVLink domain, or a switch: nvlink_model)",
      .keys = {&kTopologyFileKey, &kNvlinkModelKey},
      .servers = true,
      .common_keys = false,
      .file_format = TopologyType::FileFormat::kSimai,
  };
  return type;
}

}  // namespace dcqcn
