// What congestion control sees of a flow: its pacing rate, its line rate and where the algorithm
// keeps the flow's state. The network's Flow extends it with the transport state.
#pragma once

#include <cstdint>

#include "core/units.h"

namespace dcqcn {

struct CcFlow {
  uint32_t id = 0;
  Rate rate = 0;  // pacer rate Rc, set by congestion control
  Rate line_rate = 0;
  // The flow's base RTT and bandwidth-delay product (HPCC ns-3: of its host pair, or the
  // largest over all pairs), for windows and HPCC's T; 0 when nothing asked for them.
  Time base_rtt = 0;
  Bytes bdp = 0;
  uint32_t cc_sender_slot = UINT32_MAX;  // congestion-control state of this flow, if any
  uint32_t cc_receiver_slot = UINT32_MAX;
  bool sender_done = false;  // the sender got its last ACK: its timers may stop
};

}  // namespace dcqcn
