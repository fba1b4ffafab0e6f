// Creates the congestion control named in a scenario's [cc] table for one NIC.
#pragma once

#include <memory>

#include "cc/congestion_control.h"
#include "scenario/scenario.h"

namespace dcqcn {

// Throws InputError for an unknown algorithm or parameter (naming the file, line and key).
std::unique_ptr<CongestionControl> MakeCongestionControl(const Scenario& s, CcHost* host);

}  // namespace dcqcn
