// The scenario's part that the network model reads.
#include <fmt/format.h>

#include <algorithm>

#include "cc/registry.h"
#include "core/error.h"
#include "scenario/scenario.h"
#include "topology/topology_type.h"

namespace dcqcn {

std::unique_ptr<const CcFactory> ResolveCc(const Scenario& s) {
  // A host's line rate is its cable's (the slowest, for a NIC with several ports).
  SlowestNic nic;
  for (const LinkSpec& l : s.topology.links) {
    for (int end : {l.a, l.b}) {
      if (s.topology.is_host(end) && (nic.rate == 0 || l.rate < nic.rate)) {
        nic = {l.rate, s.topology.node_name(end)};
      }
    }
  }
  return ResolveCc(s.cc, s.source, nic);
}

NvlinkConfig NvlinkOf(const Scenario& s) {
  if (GpusPerServer(s.topology) == 0) return {};
  // Packet-level NVLink: the NVSwitches are switches of the topology.
  if (s.topology.nvlink_model == TopologyConfig::NvlinkModel::kPacket) return {};
  return {s.topology.gpus_per_server, s.topology.nvlink_rate, s.topology.nvlink_delay};
}

namespace {

// Throws InputError for what the network cannot be built with: nodes with more ports than
// packets can number, hosts with no cable or more than one (a NIC has one port), flows whose
// packets PSNs cannot number.
void CheckBuildable(const NetworkConfig& c) {
  const Topology& topo = c.topology;
  std::vector<int> num_ports(topo.num_nodes(), 0);
  for (const LinkSpec& l : topo.links) {
    for (int end : {l.a, l.b}) {
      if (++num_ports[end] > kMaxSwitchPorts) {
        throw InputError(
            fmt::format("{}: topology: switch {} has more than {} ports (links); "
                        "port numbers are 16-bit",
                        c.source, topo.node_name(end), kMaxSwitchPorts));
      }
    }
  }
  for (int h = 0; h < topo.hosts; ++h) {
    if (num_ports[h] > kMaxHostPorts) {
      throw InputError(
          fmt::format("{}: topology: host h{} has {} links; a NIC has at most {} ports", c.source,
                      h, num_ports[h], kMaxHostPorts));
    }
  }
  for (int h = 0; h < topo.hosts; ++h) {
    if (num_ports[h] == 0) {
      throw InputError(fmt::format("{}: topology: host h{} is not connected", c.source, h));
    }
  }
  const Bytes mtu = c.host.mtu;
  for (size_t i = 0; i < c.flows.size(); ++i) {
    const FlowSpec& spec = c.flows[i];
    // Sizes within kMaxSize keep the rounding-up sum inside 64 bits.
    const bool size_ok = spec.size > 0 && spec.size <= kMaxSize;
    const Bytes packets = size_ok ? (spec.size + mtu - 1) / mtu : 0;
    if (!size_ok || packets > UINT32_MAX) {
      throw InputError(
          fmt::format("{}: flow {} (h{} -> h{}): {} bytes is {} packets of {} bytes; "
                      "at most {} (PSNs are 32-bit)",
                      c.source, i, spec.src, spec.dst, spec.size, packets, mtu, UINT32_MAX));
    }
  }
}

}  // namespace

NetworkConfig ToNetworkConfig(const Scenario& s) {
  NetworkConfig c;
  c.source = s.source;
  c.seed = s.seed;
  c.topology = s.topology;  // the built topology, without how it was described
  c.sw = s.sw;
  c.host = s.host;
  c.wire = s.wire;
  c.cc = ResolveCc(s);
  c.routes = s.routes;
  c.events = s.events;
  c.reconvergence = std::max<Time>(s.topology.reconvergence, 0);
  c.flows = s.flows;  // a view of s.flows
  c.flow_rates = s.flow_rates;
  c.after = s.flow_after.empty() ? nullptr : &s.flow_after;
  c.nvlink = NvlinkOf(s);
  c.flow_level = s.flow_level;
  c.log_pfc = s.output.ts_pfc;
  CheckBuildable(c);
  return c;
}

}  // namespace dcqcn
