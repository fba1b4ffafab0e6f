// Readers of the HPCC ns-3 simulator's topology and flow files, and its node-id IP encoding.
// That simulator numbers nodes with switches interleaved among hosts; we number hosts first,
// then switches, each in the file's id order, and keep the file's ids for the output files.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/token_file.h"
#include "net/flow_spec.h"
#include "net/hpcc_ecmp.h"  // HpccNodeIp
#include "topology/topology_config.h"

namespace dcqcn {

// Reads an HPCC topology file: "<nodes> <switches> <links>", the switch ids, then one
// "<a> <b> <rate> <delay> <error_rate>" per link (ns-3 units: "100Gbps", "0.001ms"). Like that
// simulator we read whitespace-separated fields and ignore anything after the last link (its
// sample files end with notes). Fills `topo`: type "hpcc_file", file = path, hosts, switches,
// links in file order (so port indices follow that simulator's interface order) and hpcc_ids.
// Throws InputError "PATH:LINE: topology: ..." for anything that is not a valid network for
// dcqcn (e.g. a host with two links: our NIC has one port). Appends to `warnings` what we do
// not model (a link error rate > 0).
void ReadHpccTopology(const std::string& path, TopologyConfig& topo,
                      std::vector<std::string>* warnings);

// The parts of a topology file that HPCC's and SimAI's share (ns3/simai_files.h).
// `count` node ids, each in 0..nodes-1 and listed once (and not in `taken`, if given): which
// nodes are listed. `what` names them in messages ("switch").
std::vector<bool> ReadNodeIdList(TokenFile& in, int nodes, int count, std::string_view what,
                                 std::vector<bool>* taken);
// `count` link lines "<a> <b> <rate> <delay> <error_rate>" in file ids, checked (ids in range,
// no self loop, rate and delay > 0, error rate 0..1: a rate > 0 is warned about once).
struct HpccLinkLine {
  int a = 0;
  int b = 0;
  Rate rate = 0;
  Time delay = 0;
  int line = 0;
};
std::vector<HpccLinkLine> ReadHpccLinkLines(TokenFile& in, const std::string& path, int nodes,
                                            int64_t count, std::vector<std::string>* warnings);

// One flow of an HPCC flow file, with our host indices in `spec`.
struct HpccFlow {
  FlowSpec spec;       // src/dst: our host indices; priority = the file's pg; start: absolute
  uint16_t dport = 0;  // the file's destination port (echoed in the FCT file)
  int line = 0;
};

// Reads an HPCC flow file: "<count>", then "<src> <dst> <pg> <dport> <size bytes> <start s>"
// per flow, with HPCC node ids (which must be hosts of `topo`) and absolute start times in
// seconds. Anything after the last flow is ignored, as that simulator does. Throws InputError
// "PATH:LINE: flow N: ..."; warns when start times are not in ascending order (that simulator
// requires it; we do not).
std::vector<HpccFlow> ReadHpccFlows(const std::string& path, const TopologyConfig& topo,
                                    std::vector<std::string>* warnings);

// The inverse of the readers, so a dcqcn topology and its flows can be run by that simulator
// too: node ids are topo.hpcc_ids when set, else ours (hosts first); rates are written in Gbps
// (or bps), delays in ns (or ps), start times in seconds to the nanosecond; error rate 0.
std::string HpccTopologyText(const TopologyConfig& topo);
// `dport` for every flow (that simulator's samples use 100).
std::string HpccFlowsText(const std::vector<FlowSpec>& flows, const TopologyConfig& topo,
                          uint16_t dport = 100);

}  // namespace dcqcn
