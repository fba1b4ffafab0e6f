// A flow's base RTT and bandwidth-delay product as HPCC ns-3 defines them (third.cc, docs/
// research/hpcc-cc-semantics.md 4.1): propagation both ways plus one payload's serialization
// per link one way (whole ns per link), and that RTT times the path's slowest rate in whole
// bytes. Windows (host.window) and HPCC's T use them, per host pair or the largest over all.
#pragma once

#include <vector>

#include "net/link_spec.h"
#include "net/topology.h"

namespace dcqcn {

struct BaseRtt {
  Time rtt = 0;
  Bytes bdp = 0;
};

// Of one path; `payload`: the data packets' payload bytes (host.mtu).
BaseRtt PathBaseRtt(const std::vector<LinkSpec>& path, Bytes payload);
// The largest RTT and the largest BDP over all ordered pairs of distinct hosts (HPCC ns-3's
// maxRtt and maxBdp, GLOBAL_T 1), each pair along a path of fewest hops (the first a
// breadth-first search finds, following links in their order).
BaseRtt MaxBaseRtt(const Topology& topo, Bytes payload);

}  // namespace dcqcn
