// Something that happens to the network during a run ([[event]]).
#pragma once

#include <cstddef>
#include <vector>

#include "core/units.h"
#include "net/link_spec.h"

namespace dcqcn {

struct NetworkEvent {
  // kPauseStorm: from `at` to `until`, host `host`'s NIC stops draining what it receives and
  // sends PAUSE for every data class without pause (a malfunctioning NIC, SIGCOMM'16 "RDMA over
  // Commodity Ethernet at Scale" 4.3), then recovers: what it held is received, and it RESUMEs.
  // kLinkDown / kLinkUp: at `at`, the cables between nodes `a` and `b` (all of them, or the
  // `cable`-th, counted from 0 in the topology's order) fail or come back. What is on them or
  // sent into them while down is lost, PFC state across them is cleared, and the switches route
  // around them (or back over them) `NetworkConfig::reconvergence` later.
  enum class Kind { kPauseStorm, kLinkDown, kLinkUp };
  Kind kind = Kind::kPauseStorm;
  Time at = 0;
  Time until = 0;  // kPauseStorm
  int host = -1;   // kPauseStorm
  int a = -1;      // kLinkDown, kLinkUp: the two nodes
  int b = -1;
  int cable = -1;  // -1: every cable between them

  bool changes_links() const { return kind != Kind::kPauseStorm; }
};

// The cables (indices into `links`) a link event takes down or brings back: every cable
// between its two nodes, or the `cable`-th of them.
inline std::vector<size_t> CablesOf(const NetworkEvent& e, const std::vector<LinkSpec>& links) {
  std::vector<size_t> cables;
  int nth = 0;  // among the cables between e.a and e.b
  for (size_t c = 0; c < links.size(); ++c) {
    const LinkSpec& l = links[c];
    if (!((l.a == e.a && l.b == e.b) || (l.a == e.b && l.b == e.a))) continue;
    if (e.cable < 0 || nth == e.cable) cables.push_back(c);
    ++nth;
  }
  return cables;
}

// Whether any of `events` takes cables down or brings them back.
inline bool AnyChangesLinks(const std::vector<NetworkEvent>& events) {
  for (const NetworkEvent& e : events) {
    if (e.changes_links()) return true;
  }
  return false;
}

}  // namespace dcqcn
