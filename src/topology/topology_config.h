// How a scenario's topology is described ([topology]); BuildTopology fills in the Topology base.
#pragma once

#include <string>

#include "core/units.h"
#include "net/topology.h"

namespace dcqcn {

// How the topology is built; the base holds the result (hosts, switches, links, HPCC ids).
// hosts: every type; switches: custom only, derived for the others.
struct TopologyConfig : Topology {
  TopologyConfig() {
    hosts = 9;
    switches = 1;
  }
  std::string type = "star";           // a name in the registry (topology/topology_type.h)
  Rate link_rate = 40 * kGbps;         // paper testbed: 40GbE
  Time link_delay = 1 * kMicrosecond;  // ns3-rdma sample topology: 1 us links
  Rate bottleneck_rate = 0;            // dumbbell: s0-s1 link; 0 = link_rate
  // leaf_spine: every leaf cabled to every spine, hosts = leaves * hosts_per_leaf. A small
  // two-tier fabric by default (16 hosts), the shape of the HPCC and DCQCN+ evaluations.
  int leaves = 4;
  int spines = 2;
  int hosts_per_leaf = 4;
  double oversubscription = 0;  // > 0: fabric_rate = hosts_per_leaf * link_rate / (spines * it)
  // leaf_spine: each host's NIC has this many ports, each cabled to one leaf of its rack (dual-ToR:
  // 2, as Alibaba HPN); the leaves form racks of ports_per_host.
  int ports_per_host = 1;
  // rail: a rail-optimized fabric of multi-GPU servers with one NIC (one host) per GPU, as in
  // NVIDIA's DGX SuperPOD: host = server * gpus_per_server + gpu; rail g (GPU g of every server)
  // has its own leaves, servers_per_leaf servers each, and every leaf is cabled to every spine.
  // The default is one leaf per rail: 4 servers of 8 GPUs (32 hosts).
  int servers = 4;
  int gpus_per_server = 8;  // DGX H100: 8 GPUs, 8 ConnectX-7 NICs for the compute fabric
  int servers_per_leaf = 4;
  // rail: parallel planes, each a whole rail fabric (its leaves and spines); each GPU's NIC has a
  // port in every plane (HPN 7.0's dual plane: 2).
  int planes = 1;
  // rail: each server's NVLink domain (net/nvlink_fabric.h): what one GPU sends (and receives)
  // per direction, and a byte's time across it. H100 NVLink 4: 18 links of 50 GB/s, 900 GB/s
  // both directions together, 450 GB/s (3.6 Tb/s) each way. The delay is an assumption
  // (NVSwitch port-to-port latency is not published; NCCL's own model uses ~1 us per step).
  Rate nvlink_rate = 3600 * kGbps;
  Time nvlink_delay = 1 * kMicrosecond;
  // rail and simai_file: NVLink as a fluid crossbar (net/nvlink_fabric.h), or packet by packet
  // through an NVSwitch per server (a switch; each GPU's NIC has a second port cabled to it).
  enum class NvlinkModel : uint8_t { kFluid, kPacket };
  NvlinkModel nvlink_model = NvlinkModel::kFluid;
  // switch_ring: `switches` switches in a ring, each with this many hosts.
  int hosts_per_switch = 2;
  // fat_tree: the k-ary three-tier fat tree of Al-Fares et al. (SIGCOMM'08), k^3/4 hosts.
  int k = 4;
  Rate fabric_rate = 0;  // leaf_spine and fat_tree: switch-to-switch links; 0 = link_rate
  // hpcc_file: the HPCC ns-3 topology file (as resolved: relative to the scenario's folder);
  // Topology::hpcc_ids maps our nodes to its ids, which interleave switches and hosts.
  std::string file;
  // custom: links as written by the user are resolved to node ids in Topology::links.
  // How long the switches take to route around a link that failed, or back over one that came
  // back ([[event]] link_down / link_up; NetworkConfig::reconvergence). -1: not given (required
  // with link events).
  Time reconvergence = -1;
};

}  // namespace dcqcn
