// One cable of a network, as the network is built from it.
#pragma once

#include "core/units.h"

namespace dcqcn {

// One full-duplex cable between two nodes; node ids: hosts 0..H-1, then switches H..H+S-1.
struct LinkSpec {
  int a = 0;
  int b = 0;
  Rate rate = 40 * kGbps;
  Time delay = 1 * kMicrosecond;
};

}  // namespace dcqcn
