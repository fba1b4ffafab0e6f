// FCT and PFC files in the HPCC simulator's formats.
#include "hpcc/hpcc_output.h"

#include <fmt/format.h>

#include <algorithm>

#include "hpcc/hpcc_files.h"

namespace dcqcn {

std::string HpccFctText(const Network& net, const std::vector<uint16_t>& dports) {
  const TopologyConfig& topo = net.scenario().topology;
  const std::vector<Flow>& flows = net.flows();
  // That simulator gives each sending host ports 10000, 10001, ... in flow-file order.
  std::vector<uint16_t> next_port(topo.hosts, 10000);
  std::vector<uint16_t> sport(flows.size());
  for (const Flow& f : flows) sport[f.id] = next_port[f.src]++;
  std::vector<const Flow*> done;
  for (const Flow& f : flows) {
    if (f.finish >= 0) done.push_back(&f);
  }
  std::sort(done.begin(), done.end(), [](const Flow* a, const Flow* b) {
    return a->finish != b->finish ? a->finish < b->finish : a->id < b->id;
  });
  std::string out;
  out.reserve(done.size() * 64);
  for (const Flow* f : done) {
    fmt::format_to(std::back_inserter(out), "{:08x} {:08x} {} {} {} {} {} {}\n",
                   HpccNodeIp(HpccNodeId(topo, f->src)), HpccNodeIp(HpccNodeId(topo, f->dst)),
                   sport[f->id], f->id < dports.size() ? dports[f->id] : 0, f->size,
                   f->start / kNanosecond, (f->finish - f->start) / kNanosecond,
                   net.IdealFct(*f) / kNanosecond);
  }
  return out;
}

std::string HpccPfcText(const Network& net) {
  const TopologyConfig& topo = net.scenario().topology;
  std::string out;
  for (const PfcEvent& e : net.stats().pfc_log) {
    fmt::format_to(std::back_inserter(out), "{} {} {} {} {}\n", e.time / kNanosecond,
                   HpccNodeId(topo, e.node), topo.is_host(e.node) ? 0 : 1, e.port + 1,
                   e.pause ? 1 : 0);
  }
  return out;
}

}  // namespace dcqcn
