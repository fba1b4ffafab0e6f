// The scenario's part that the network model reads.
#include "cc/registry.h"
#include "scenario/scenario.h"

namespace dcqcn {

NetworkConfig ToNetworkConfig(const Scenario& s) {
  NetworkConfig c;
  c.source = s.source;
  c.seed = s.seed;
  c.topology = s.topology;  // the built topology, without how it was described
  c.sw = s.sw;
  c.host = s.host;
  c.wire = s.wire;
  c.cc = ResolveCc(s.cc, s.source);
  c.flows = s.flows;  // a view of s.flows
  c.flow_rates = s.flow_rates;
  c.after = s.flow_after.empty() ? nullptr : &s.flow_after;
  c.log_pfc = s.output.ts_pfc;
  return c;
}

}  // namespace dcqcn
