// The registry: one line per topology type.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "topology/topology_keys.h"
#include "topology/topology_type.h"
#include "topology/types/custom.h"
#include "topology/types/dumbbell.h"
#include "topology/types/fat_tree.h"
#include "topology/types/hpcc_file.h"
#include "topology/types/leaf_spine.h"
#include "topology/types/rail.h"
#include "topology/types/simai_file.h"
#include "topology/types/star.h"
#include "topology/types/switch_ring.h"

namespace dcqcn {

const std::vector<const TopologyType*>& TopologyTypes() {
  static const std::vector<const TopologyType*> types = {
      // One line per type, the default first.
      // clang-format off
      &StarTopology(),
      &DumbbellTopology(),
      &CustomTopology(),
      &LeafSpineTopology(),
      &RailTopology(),
      &FatTreeTopology(),
      &SwitchRingTopology(),
      &HpccFileTopology(),
      &SimaiFileTopology(),
      // clang-format on
  };
  return types;
}

const TopologyType* FindTopologyType(std::string_view name) {
  for (const TopologyType* t : TopologyTypes()) {
    if (t->name == name) return t;
  }
  return nullptr;
}

std::vector<std::string_view> TopologyTypeNames() {
  std::vector<std::string_view> names;
  for (const TopologyType* t : TopologyTypes()) names.push_back(t->name);
  return names;
}

std::string TypesTaking(std::string_view key) {
  std::vector<std::string> names;
  for (const TopologyType* t : TopologyTypes()) {
    for (const TopologyKey* k : t->keys) {
      if (k->doc.name == key) names.push_back(fmt::format("\"{}\"", t->name));
    }
  }
  if (names.size() <= 1) return fmt::format("{}", fmt::join(names, ""));
  return fmt::format("{} or {}",
                     fmt::join(std::vector<std::string>(names.begin(), names.end() - 1), ", "),
                     names.back());
}

const std::vector<KeySchema>& TopologySchemaRows() {
  static const std::vector<KeySchema> rows = [] {
    std::vector<KeySchema> r = {kTopologyTypeDoc, kHostsKey.doc, kLinkRateKey.doc,
                                kLinkDelayKey.doc};
    for (const TopologyType* t : TopologyTypes()) {
      for (const TopologyKey* k : t->keys) {
        const bool seen = std::any_of(r.begin(), r.end(),
                                      [&](const KeySchema& s) { return s.name == k->doc.name; });
        if (!seen) r.push_back(k->doc);
      }
    }
    r.push_back(kReconvergenceKey.doc);
    return r;
  }();
  return rows;
}

std::vector<const TopologyKey*> RowsOf(const TopologyType& type) {
  std::vector<const TopologyKey*> rows;
  if (type.common_keys) rows = {&kHostsKey, &kLinkRateKey, &kLinkDelayKey};
  rows.insert(rows.end(), type.keys.begin(), type.keys.end());
  return rows;
}

int GpusPerServer(const TopologyConfig& topo) {
  const TopologyType* type = FindTopologyType(topo.type);
  return type != nullptr && type->servers ? topo.gpus_per_server : 0;
}

}  // namespace dcqcn
