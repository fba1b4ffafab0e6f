// HPCC's [cc] parameters (HPCC ns-3's CC_MODE 3) and their profile.
#pragma once

#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "cc/cc_config.h"
#include "cc/hpcc/hpcc_rp.h"
#include "cc/param_table.h"

namespace dcqcn {

std::span<const CcProfileInfo> HpccProfiles();
// The profile `name` names (its only one, hpcc: the struct's defaults).
HpccParams HpccProfile(std::string_view name);
// Every parameter, once, in the order resolved.toml and the key reference show.
const std::vector<ParamSpec<HpccParams>>& HpccParamTable();
// The profile of `cc` with its overrides; throws InputError naming the file, line and key.
HpccParams ResolveHpccParams(const CcConfig& cc, std::string_view source);

}  // namespace dcqcn
