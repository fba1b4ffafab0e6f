// Turns a [topology] description of every type but hpcc_file (which hpcc/hpcc_files.h reads) into
// the cable list the network is built from, and checks that it is a network a packet can cross.
#pragma once

#include <string>
#include <vector>

#include "topology/topology_config.h"

namespace dcqcn {

// Largest host or switch count we accept: beyond it a typo ("hosts = 90000000") would exhaust
// memory instead of producing an error.
inline constexpr int kMaxTopologyNodes = 1 << 20;

// Fills topo.links (and the hosts and switches a type derives) with the builder of the type
// topo.type names (topology/types/, listed in topology_registry.cc). Node ids: hosts 0..H-1,
// switches H..H+S-1; link h is host h's cable for every built-in type. Throws InputError
// (prefixed with `source`) for impossible topologies: fewer than 2 hosts, a link to a node that
// does not exist, a link from a node to itself, a host with no link (or more than
// kMaxHostPorts, one per port of its NIC), a non-positive rate or delay, and each type's own (a
// shape beyond kMaxTopologyNodes nodes or kMaxSwitchPorts ports per switch, an odd k...).
void BuildTopology(TopologyConfig& topo, const std::string& source);

// Connected-component label of every node (hosts and switches). A host with one link can never
// sit in the middle of a path, so two such hosts can reach each other exactly when they share a
// label, even though hosts do not forward; a host with several ports joins their components, so
// for it a shared label is necessary, not sufficient (the network's routes then decide).
std::vector<int> ConnectedComponents(const TopologyConfig& topo);

}  // namespace dcqcn
