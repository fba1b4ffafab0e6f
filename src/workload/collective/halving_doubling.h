#pragma once

#include "workload/collective_algorithm.h"

namespace dcqcn {

const CollectiveAlgorithm& HalvingDoublingCollective();

}  // namespace dcqcn
