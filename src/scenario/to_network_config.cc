// The scenario's part that the network model reads.
#include <algorithm>

#include "cc/registry.h"
#include "scenario/scenario.h"
#include "topology/topology_type.h"

namespace dcqcn {

std::unique_ptr<const CcFactory> ResolveCc(const Scenario& s) {
  // A host's line rate is its cable's (hosts have one NIC port).
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
  if (GpusPerServer(s.topology) > 0) {
    c.nvlink = {s.topology.gpus_per_server, s.topology.nvlink_rate, s.topology.nvlink_delay};
  }
  c.log_pfc = s.output.ts_pfc;
  return c;
}

}  // namespace dcqcn
