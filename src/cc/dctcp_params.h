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

struct DctcpParams {
  double g = 1.0 / 16;          // EWMA_GAIN (rdma-hw.cc's EwmaGain default; run.py writes 0.0625)
  Rate rate_ai = 1 * kGbps;     // DCTCP_RATE_AI (attribute default; run.py writes 615Mb/s)
  Rate min_rate = 100 * kMbps;  // MIN_RATE
};

std::span<const CcProfileInfo> DctcpProfiles();
DctcpParams ResolveDctcpParams(const CcConfig& cc, std::string_view source);
std::vector<std::pair<std::string, std::string>> DctcpParamsText(const DctcpParams& p);
std::vector<CcParamDoc> DctcpParamDocs();

}  // namespace dcqcn
