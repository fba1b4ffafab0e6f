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

// Fills topo.links (and topo.switches: 1 for a star, 2 for a dumbbell) from topo.type.
// Node ids: hosts 0..H-1, switches H..H+S-1.
//   star:     host i on s0; link i is host i's cable.
//   dumbbell: hosts 0..ceil(H/2)-1 on s0, the rest on s1, then one s0-s1 link of
//             bottleneck_rate (link_rate when 0); link i is host i's cable.
//   custom:   topo.links is already filled (the scenario loader resolves "h3"/"s1" names); it is
//             only checked here.
//   leaf_spine: hosts = leaves * hosts_per_leaf and switches = leaves + spines are derived (any
//             hosts given is replaced); host h on leaf h / hosts_per_leaf; every leaf cabled to
//             every spine at fabric_rate, which oversubscription (when > 0) derives as
//             hosts_per_leaf * link_rate / (spines * oversubscription). Switch ids: leaves
//             first, then spines. Link h is host h's cable.
//   rail:     servers x gpus_per_server hosts (host = server x gpus_per_server + gpu: one NIC
//             per GPU) on gpus_per_server rails; rail g has RailLeaves leaves and server s's
//             host of rail g is on that rail's leaf s / servers_per_leaf; every leaf cabled to
//             every spine at fabric_rate, which oversubscription (when > 0) derives as
//             servers_per_leaf x link_rate / (spines x oversubscription). Switch ids: the
//             leaves rail by rail, then the spines. Link h is host h's cable.
//   fat_tree: k-ary fat tree: k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 cores,
//             k^3/4 hosts, k/2 per edge switch; hosts and switches are derived. Switch ids: edge,
//             then aggregation, then core switches. Link h is host h's cable.
//   fabric_rate (leaf_spine, rail, fat_tree) is set to link_rate when 0.
// Throws InputError (prefixed with `source`) for impossible topologies: fewer than 2 hosts, a link
// to a node that does not exist, a link from a node to itself, a host with other than one link
// (a NIC has one port), a non-positive rate or delay; for fabrics an odd or too small k, zero
// leaves, spines or hosts per leaf, a fabric_rate that conflicts with oversubscription, or a shape
// beyond kMaxTopologyNodes nodes or kMaxSwitchPorts ports per switch.
void BuildTopology(TopologyConfig& topo, const std::string& source);

// rail: the leaves of one rail, ceil(servers / servers_per_leaf).
int RailLeaves(const TopologyConfig& topo);

// Connected-component label of every node (hosts and switches). Because every host has exactly
// one link it can never sit in the middle of a path, so two hosts can reach each other exactly
// when they share a label, even though hosts do not forward.
std::vector<int> ConnectedComponents(const TopologyConfig& topo);

}  // namespace dcqcn
