// DCTCP's [cc] parameters (HPCC ns-3's rate-based DCTCP, CC_MODE 8) and their profile.
#pragma once

#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "cc/cc_config.h"
#include "cc/param_table.h"
#include "core/units.h"

namespace dcqcn {

// The defaults are the hpcc profile: HPCC ns-3's run.py at 100 Gb/s.
struct DctcpParams {
  double g = 0.0625;             // EWMA_GAIN (rdma-hw.cc's EwmaGain default 1/16 too)
  Rate rate_ai = 615 * kMbps;    // DCTCP_RATE_AI (the attribute's default is 1000Mb/s)
  Rate min_rate = 1000 * kMbps;  // MIN_RATE
};

std::span<const CcProfileInfo> DctcpProfiles();
// The profile `name` names (its only one, hpcc: the struct's defaults).
DctcpParams DctcpProfile(std::string_view name);
// Every parameter, once, in the order resolved.toml and the key reference show.
const std::vector<ParamSpec<DctcpParams>>& DctcpParamTable();
// The profile of `cc` with its overrides; throws InputError naming the file, line and key.
DctcpParams ResolveDctcpParams(const CcConfig& cc, std::string_view source);

}  // namespace dcqcn
