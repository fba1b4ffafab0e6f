// HPCC's [cc] parameters (HPCC ns-3's CC_MODE 3) and their profile.
#pragma once

#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "cc/cc_config.h"
#include "cc/hpcc_rp.h"
#include "cc/param_table.h"

namespace dcqcn {

std::span<const CcProfileInfo> HpccProfiles();
HpccParams ResolveHpccParams(const CcConfig& cc, std::string_view source);
std::vector<std::pair<std::string, std::string>> HpccParamsText(const HpccParams& p);
std::vector<CcParamDoc> HpccParamDocs();

}  // namespace dcqcn
