// hpcc_file: an HPCC ns-3 topology file gives every node and link; the scenario loader reads it
// with ns3/hpcc_files.h (which this layer cannot include) and fills the topology itself.
#include "topology/types/hpcc_file.h"

#include "topology/topology_keys.h"

namespace dcqcn {

const TopologyType& HpccFileTopology() {
  static const TopologyType type{
      .name = "hpcc_file",
      .description = "the nodes and links of an HPCC ns-3 topology file",
      .keys = {&kTopologyFileKey},
      .common_keys = false,
      .file_format = TopologyType::FileFormat::kHpcc,
  };
  return type;
}

}  // namespace dcqcn
