// The topology types a scenario's [topology] type can name: one entry per type, each in its own
// file (topology/types/<name>.cc) with its keys, its builder and its description, and one line in
// topology_registry.cc. The loader reads and checks the keys from the rows, resolved.toml writes
// them back from the same rows, and the key reference documents them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/key_row.h"
#include "core/key_schema.h"
#include "topology/topology_config.h"

namespace dcqcn {

// One [topology] key: its documentation, and where its value goes. doc.type says how it is
// read and written: "integer" into an int, "rate" or "time" into an int64_t (bps, ps),
// "number" into a double. A key with no field is read and written by hand (custom's links,
// hpcc_file's file).
struct TopologyKey {
  KeySchema doc;
  std::variant<std::monostate, int TopologyConfig::*, int64_t TopologyConfig::*,
               double TopologyConfig::*, EnumField<TopologyConfig>>
      field = {};
  int64_t min = 1;  // integers: the range; rates and times: > 0, or >= 0 with min = 0
  int64_t max = 0;
  std::string_view expected = {};  // integers: what a bad value is told to be
  bool omitted_at_zero = false;    // resolved.toml leaves it out while 0 (not given)
};

// What is wrong with a [topology] table, and the key to point at (empty: the table).
struct TopologyProblem {
  std::string key;
  std::string message;
};

struct TopologyType {
  std::string_view name;
  std::string_view description;  // one line for the key reference
  // Its keys beyond the common ones (topology_keys.h), in the order resolved.toml writes them.
  std::vector<const TopologyKey*> keys;
  // After its keys are read: derives what follows from its shape (hosts, switches), checking
  // that what the file also gave (`given`: the keys it wrote) agrees. nullptr: nothing to derive.
  TopologyProblem (*derive)(TopologyConfig& topo, const std::vector<std::string>& given) = nullptr;
  // Fills topo.links (and what derive fills, for configs built without the loader). Throws
  // InputError prefixed with `source` for an impossible shape.
  void (*build)(TopologyConfig& topo, const std::string& source) = nullptr;
  // Its hosts follow from its shape (a fabric): `hosts` is derived, not read.
  bool hosts_from_shape = false;
  // Hosts are GPUs of servers of gpus_per_server, each server with its NVLink domain.
  bool servers = false;
  // The common keys (hosts, link_rate, link_delay) are its own to give: false when a file gives
  // every node and link (hpcc_file).
  bool common_keys = true;
  // Another simulator's topology file gives every node and link (its `file` key), read by the
  // scenario loader with that simulator's reader (ns3/): HPCC's ns-3 or SimAI's.
  enum class FileFormat : uint8_t { kNone, kHpcc, kSimai };
  FileFormat file_format = FileFormat::kNone;
};

// The keys `type` reads, in the order resolved.toml writes them: the common ones (hosts,
// link_rate, link_delay) unless a file gives every node, then its own.
std::vector<const TopologyKey*> RowsOf(const TopologyType& type);
// Every type, the default ("star") first.
const std::vector<const TopologyType*>& TopologyTypes();
// nullptr when no type has that name.
const TopologyType* FindTopologyType(std::string_view name);
std::vector<std::string_view> TopologyTypeNames();
// The types that take `key` (for "only for" messages), as "\"a\" or \"b\"".
std::string TypesTaking(std::string_view key);
// Every key any type takes, once, after the common ones: the [topology] table's schema rows.
const std::vector<KeySchema>& TopologySchemaRows();
// On a topology of servers: its GPUs per server; otherwise 0.
int GpusPerServer(const TopologyConfig& topo);

}  // namespace dcqcn
