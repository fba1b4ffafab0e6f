// The scenario's part that the network model reads.
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
  c.cc = s.cc;
  c.flows = s.flows;  // a view of s.flows
  c.log_pfc = s.output.ts_pfc;
  return c;
}

}  // namespace dcqcn
