// hpcc_file: an HPCC ns-3 topology file gives every node and link; the scenario loader reads it
// with hpcc/hpcc_files.h (which this layer cannot include) and fills the topology itself.
#include "topology/types/hpcc_file.h"

namespace dcqcn {
namespace {

constexpr TopologyKey kFile{
    {"file", KeyKind::kValue, "string", "", "required for hpcc_file",
     "An HPCC ns-3 topology file, relative to the scenario's folder; it gives every node and "
     "link, so no other [topology] key is allowed (but `reconvergence`)."}};

}  // namespace

const TopologyType& HpccFileTopology() {
  static const TopologyType type{
      .name = "hpcc_file",
      .description = "the nodes and links of an HPCC ns-3 topology file",
      .keys = {&kFile},
      .common_keys = false,
  };
  return type;
}

}  // namespace dcqcn
