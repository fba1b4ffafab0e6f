// The DCQCN entry of the congestion-control registry (cc/registry.cc).
#pragma once

#include "cc/cc_algorithm.h"

namespace dcqcn {

const CcAlgorithm& DcqcnAlgorithm();

}  // namespace dcqcn
