#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "net/link_spec.h"

namespace dcqcn {

// Most ports one switch may have: port numbers are 16-bit in routes and packets.
inline constexpr int kMaxSwitchPorts = 65535;
// Most ports one host's NIC may have (a GPU's NIC and NVLink ports, a dual-ToR NIC's two).
inline constexpr int kMaxHostPorts = 255;

// The shape of a network: hosts, switches and the cables between them. Node ids: hosts
// 0..hosts-1, then switches hosts..hosts+switches-1.
struct Topology {
  int hosts = 0;
  int switches = 0;
  std::vector<LinkSpec> links;
  // For every node of ours (hosts first, then switches), its node id in the HPCC topology file
  // it came from (empty otherwise): that simulator's ECMP and output files use those ids.
  std::vector<int> hpcc_ids;

  int num_nodes() const { return hosts + switches; }
  bool is_host(int node) const { return node < hosts; }
  // Node `node`'s id in the HPCC topology file (itself when the topology is not from a file).
  int hpcc_id(int node) const {
    return node < static_cast<int>(hpcc_ids.size()) ? hpcc_ids[node] : node;
  }
  // "h3" for host 3, "s0" for the first switch: the names scenario files and outputs use.
  std::string node_name(int node) const {
    return is_host(node) ? "h" + std::to_string(node) : "s" + std::to_string(node - hosts);
  }
  // The node node_name calls `name`, if there is one.
  std::optional<int> node_named(const std::string& name) const {
    if (name.size() < 2 || name.size() > 10 ||
        !std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return std::nullopt;
    }
    const int index = std::stoi(name.substr(1));
    if (name[0] == 'h' && index < hosts) return index;
    if (name[0] == 's' && index < switches) return hosts + index;
    return std::nullopt;
  }
};

}  // namespace dcqcn
