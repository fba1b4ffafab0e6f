// Something that happens to the network during a run ([[event]]).
#pragma once

#include "core/units.h"

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
};

}  // namespace dcqcn
