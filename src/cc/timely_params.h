// TIMELY's [cc] parameters (HPCC ns-3's CC_MODE 7) and their profile.
#pragma once

#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "cc/cc_config.h"
#include "cc/param_table.h"
#include "cc/timely_rp.h"

namespace dcqcn {

std::span<const CcProfileInfo> TimelyProfiles();
TimelyParams ResolveTimelyParams(const CcConfig& cc, std::string_view source);
std::vector<std::pair<std::string, std::string>> TimelyParamsText(const TimelyParams& p);
std::vector<CcParamDoc> TimelyParamDocs();

}  // namespace dcqcn
