// Something that happens to the network during a run ([[event]]).
#pragma once

#include "core/units.h"

namespace dcqcn {

struct NetworkEvent {
  // kPauseStorm: from `at` to `until`, host `host`'s NIC stops draining what it receives and
  // sends PAUSE for every data class without pause (a malfunctioning NIC, SIGCOMM'16 "RDMA over
  // Commodity Ethernet at Scale" 4.3), then recovers: what it held is received, and it RESUMEs.
  enum class Kind { kPauseStorm };
  Kind kind = Kind::kPauseStorm;
  Time at = 0;
  Time until = 0;
  int host = -1;
};

}  // namespace dcqcn
