// The HPCC ns-3 simulator's result files, written from a finished dcqcn run: the FCT file and
// the PFC file, with that simulator's node ids, IP encoding and interface numbers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "net/network.h"

namespace dcqcn {

// HPCC ns-3's standalone ("ideal") FCT of a flow of `size` bytes in `payload`-byte packets over
// `path` (third.cc qp_finish and its pairRtt loop): base RTT = 2 x the path's propagation delays
// plus, per link, one payload (no headers) serialized at that link's rate in whole ns; plus all
// bytes with 48 bytes of headers per packet at the path's slowest rate, floor-divided to ns.
// This is their formula, not ours (IdealFct, run/ideal_times.h, counts our wire format, both
// directions).
Time HpccStandaloneFct(const std::vector<LinkSpec>& path, Bytes size, Bytes payload);
inline constexpr Bytes kHpccDataHeaderBytes = 48;  // PPP 14 + IPv4 20 + UDP 8 + SeqTs 6

// One line per finished flow, in order of completion (then flow id), as that simulator writes
// them when each queue pair completes:
//   "<sip %08x> <dip %08x> <sport> <dport> <size> <start_ns> <fct_ns> <standalone_fct_ns>"
// sip/dip: HpccNodeIp of the hosts' file ids. sport: 10000, 10001, ... per sending host in flow
// order for each (source, destination) pair (that simulator's port numbering); dport:
// `dports[flow id]` (0 when absent). start_ns: the flow's absolute start time. fct_ns: from the
// start until the sender received the last ACK. standalone_fct_ns: HpccStandaloneFct on the
// flow's path, exactly as that simulator computes it, so that analysis scripts dividing by it
// compare 1:1 (flows.csv's ideal_fct_ns is our own definition). Times are whole nanoseconds,
// truncated.
std::string HpccFctText(const Network& net, const std::vector<uint16_t>& dports);

// One line per PFC frame, logged at the device that received it (the one that pauses), in
// time order: "<time_ns> <node> <node_type 0 host/1 switch> <if_index> <1 pause/0 resume>".
// node: the file's id; if_index: 1 + our port index (that simulator's interface 0 is the
// loopback, then one per link in file order, which is how our ports are numbered). Needs
// NetStats::log_pfc (Scenario::output.ts_pfc).
std::string HpccPfcText(const Network& net);

}  // namespace dcqcn
