// The "none" entry of the congestion-control registry: every flow at line rate, PFC alone keeps
// the network lossless.
#pragma once

#include "cc/cc_algorithm.h"

namespace dcqcn {

const CcAlgorithm& NoneAlgorithm();

}  // namespace dcqcn
