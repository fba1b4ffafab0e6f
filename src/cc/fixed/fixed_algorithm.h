// The "fixed" entry of the congestion-control registry: every flow at a pinned rate.
#pragma once

#include "cc/cc_algorithm.h"

namespace dcqcn {

const CcAlgorithm& FixedAlgorithm();

}  // namespace dcqcn
