// rail: a rail-optimized fabric of multi-GPU servers with one NIC (one host) per GPU, as in
// NVIDIA's DGX SuperPOD: host = server x gpus_per_server + gpu; rail g (GPU g of every server)
// has RailLeaves leaves of its own, servers_per_leaf servers each, and every leaf is cabled to
// every spine. With planes = P (HPN 7.0's dual plane: 2) that fabric is built P times side by
// side, each plane its own leaves and spines, and each GPU's NIC has a port in every plane.
// Node ids: hosts, then the leaves plane by plane and rail by rail (server s is on its rails'
// leaf s / servers_per_leaf), then the spines plane by plane, then (nvlink_model = "packet")
// the NVSwitches. Links: host h's cable in plane p is link p x hosts + h, then every leaf to
// every spine of its plane, leaf by leaf. Each server's GPUs also share its NVLink domain
// (net/nvlink_fabric.h).
#include "topology/types/rail.h"

#include <fmt/format.h>

#include <algorithm>

#include "topology/fabric_shape.h"
#include "topology/topology_keys.h"

namespace dcqcn {
namespace {

constexpr TopologyKey kServers{{"servers", KeyKind::kValue, "integer", "servers", "4",
                                "Number of servers; hosts = servers x gpus_per_server."},
                               &TopologyConfig::servers,
                               1,
                               kMaxTopologyNodes,
                               "an integer number of servers"};
constexpr TopologyKey kGpusPerServer{
    {"gpus_per_server", KeyKind::kValue, "integer", "GPUs", "8",
     "GPUs per server, each with its own NIC (one host): host = server x gpus_per_server + gpu, "
     "and GPU g of every server is on rail g. DGX H100: 8. A flow between two GPUs of one server "
     "goes over the server's NVLink (nvlink_rate, nvlink_delay), not the Ethernet fabric."},
    &TopologyConfig::gpus_per_server,
    1,
    kMaxSwitchPorts,
    "an integer number of GPUs (NICs) per server"};
constexpr TopologyKey kServersPerLeaf{
    {"servers_per_leaf", KeyKind::kValue, "integer", "servers", "4",
     "Servers on each leaf of a rail (each rail has ceil(servers / servers_per_leaf) leaves of "
     "its own); server s is on its rails' leaf s / servers_per_leaf."},
    &TopologyConfig::servers_per_leaf,
    1,
    kMaxSwitchPorts,
    "an integer number of servers per leaf"};
constexpr TopologyKey kPlanes{
    {"planes", KeyKind::kValue, "integer", "planes", "1",
     "Parallel planes, each a whole rail fabric with its own leaves and spines; each GPU's NIC "
     "has a port in every plane (HPN 7.0's dual plane: 2). A flow leaves by one plane, its hash "
     "choosing (one per queue pair); its ACKs come back by the plane it arrived on."},
    &TopologyConfig::planes,
    1,
    16,
    "an integer number of planes"};
constexpr TopologyKey kNvlinkRate{
    {"nvlink_rate", KeyKind::kValue, "rate", "", "3600Gbps",
     "What one GPU sends, and receives, over its server's NVLink crossbar, each way (H100 "
     "NVLink 4: 450 GB/s); the transfers sharing a GPU's side get max-min fair shares (no "
     "packets, ECN or PFC; docs/collectives.md)."},
    &TopologyConfig::nvlink_rate};
constexpr TopologyKey kNvlinkDelay{
    {"nvlink_delay", KeyKind::kValue, "time", "", "1us",
     "From a byte leaving a GPU to its arrival at another GPU of the server over NVLink."},
    &TopologyConfig::nvlink_delay,
    0};

TopologyProblem Derive(TopologyConfig& topo, const std::vector<std::string>& given) {
  const int64_t derived = static_cast<int64_t>(topo.servers) * topo.gpus_per_server;
  return CheckDerivedHosts(topo, given, derived,
                           fmt::format("servers x gpus_per_server = {} x {} = {}", topo.servers,
                                       topo.gpus_per_server, derived));
}

void Build(TopologyConfig& topo, const std::string& source) {
  CheckAtLeastOne(source, "servers", topo.servers);
  CheckAtLeastOne(source, "gpus_per_server", topo.gpus_per_server);
  CheckAtLeastOne(source, "servers_per_leaf", topo.servers_per_leaf);
  CheckAtLeastOne(source, "spines", topo.spines);
  CheckAtLeastOne(source, "planes", topo.planes);
  const int64_t hosts = static_cast<int64_t>(topo.servers) * topo.gpus_per_server;
  const int64_t leaves = RailLeaves(topo) * int64_t{topo.gpus_per_server};  // per plane
  SizeTwoTier(topo, source, leaves, hosts, std::min(topo.servers_per_leaf, topo.servers),
              "servers_per_leaf",
              fmt::format("servers x gpus_per_server = {} x {} = {}", topo.servers,
                          topo.gpus_per_server, hosts));
  const int planes = topo.planes;
  CheckNodeCount(topo, source, "switches", (leaves + topo.spines) * planes);
  topo.switches = static_cast<int>((leaves + topo.spines) * planes);

  const int per_rail = RailLeaves(topo);
  const int leaf0 = topo.hosts;
  const int spine0 = topo.hosts + static_cast<int>(leaves) * planes;
  topo.links.clear();
  topo.links.reserve((static_cast<size_t>(topo.hosts) + static_cast<size_t>(leaves) * topo.spines) *
                     planes);
  for (int p = 0; p < planes; ++p) {
    const int plane_leaf0 = leaf0 + p * static_cast<int>(leaves);
    for (int h = 0; h < topo.hosts; ++h) {
      const int server = h / topo.gpus_per_server;
      const int rail = h % topo.gpus_per_server;
      topo.links.push_back({h, plane_leaf0 + rail * per_rail + server / topo.servers_per_leaf,
                            topo.link_rate, topo.link_delay});
    }
  }
  for (int p = 0; p < planes; ++p) {
    for (int l = 0; l < leaves; ++l) {
      for (int s = 0; s < topo.spines; ++s) {
        topo.links.push_back({leaf0 + p * static_cast<int>(leaves) + l,
                              spine0 + p * topo.spines + s, topo.fabric_rate, topo.link_delay});
      }
    }
  }
  if (topo.nvlink_model != TopologyConfig::NvlinkModel::kPacket || topo.gpus_per_server < 2) {
    return;
  }
  // Packet-level NVLink: an NVSwitch per server after the spines, each GPU's second port cabled
  // to it; GPU to GPU is two links, so each takes half of nvlink_delay.
  if (int64_t{topo.hosts} + topo.switches + topo.servers > kMaxTopologyNodes) {
    TopologyFail(source, fmt::format("{} hosts, {} switches and {} NVSwitches are more than {} "
                                     "nodes",
                                     topo.hosts, topo.switches, topo.servers, kMaxTopologyNodes));
  }
  const int nvswitch0 = topo.hosts + topo.switches;
  topo.switches += topo.servers;
  for (int h = 0; h < topo.hosts; ++h) {
    topo.links.push_back({h, nvswitch0 + h / topo.gpus_per_server, topo.nvlink_rate,
                          std::max<Time>(topo.nvlink_delay / 2, 1)});
  }
}

}  // namespace

int RailLeaves(const TopologyConfig& topo) {
  return (topo.servers + topo.servers_per_leaf - 1) / topo.servers_per_leaf;
}

const TopologyType& RailTopology() {
  static const TopologyType type{
      .name = "rail",
      .description =
          "rail-optimized servers of GPUs, one NIC per GPU, GPU g of every server on "
          "rail g's leaves, NVLink inside each server",
      .keys = {&kServers, &kGpusPerServer, &kServersPerLeaf, &kPlanes, &kNvlinkRate, &kNvlinkDelay,
               &kNvlinkModelKey, &kSpinesKey, &kOversubscriptionKey, &kFabricRateKey},
      .derive = Derive,
      .build = Build,
      .hosts_from_shape = true,
      .servers = true,
  };
  return type;
}

}  // namespace dcqcn
