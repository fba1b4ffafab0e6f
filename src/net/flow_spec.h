// A flow to start: who sends how much to whom, when, in which class.
#pragma once

#include <cstdint>

#include "core/units.h"
#include "net/headers.h"

namespace dcqcn {

// 32 bytes: a workload may have millions.
struct FlowSpec {
  int src = 0;  // host index
  int dst = 0;  // host index
  Bytes size = 0;
  Time start = 0;
  int priority = 3;  // 802.1p class of the data; 1..7 (0 is the control queue)
  // Label for per-tag metrics, as an index into the scenario's tag names (FlowTags); 0 = none.
  // Generated flows get their workload's tag.
  uint16_t tag = 0;
  // UDP destination port: RoCEv2's 4791; HPCC flow files give their own (100). Only the HPCC
  // ECMP hash reads it.
  uint16_t dport = kRoceUdpPort;
};
static_assert(sizeof(FlowSpec) == 32);

}  // namespace dcqcn
