// Round-robin over the data classes 1..7 that have work, shared by switch ports and NICs:
// visiting only the set bits of a mask avoids scanning (and dividing) per packet.
#pragma once

#include <cstdint>

#include "net/headers.h"

namespace dcqcn {

// Calls visit(q) for the set bits q of `mask` in the order next, next+1, ..., 7, 1, ...,
// next-1 until it returns true; returns that q, or -1.
template <typename Visit>
int RoundRobin(uint32_t mask, int next, Visit&& visit) {
  if ((mask & (mask - 1)) == 0) {  // at most one class has work (the usual case): no order
    if (mask == 0) return -1;
    const int q = __builtin_ctz(mask);
    return visit(q) ? q : -1;
  }
  const uint32_t from_next = mask & ~((1u << next) - 1);
  const uint32_t below_next = mask & ((1u << next) - 1);
  for (uint32_t m : {from_next, below_next}) {
    for (; m != 0; m &= m - 1) {
      int q = __builtin_ctz(m);
      if (visit(q)) return q;
    }
  }
  return -1;
}

// The class after q in round-robin order.
inline int RoundRobinAfter(int q) { return q == kNumPriorities - 1 ? 1 : q + 1; }

}  // namespace dcqcn
