// TIMELY's [cc] parameters (HPCC ns-3's CC_MODE 7) and their profile.
#pragma once

#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "cc/cc_config.h"
#include "cc/param_table.h"
#include "cc/timely/timely_rp.h"

namespace dcqcn {

std::span<const CcProfileInfo> TimelyProfiles();
// The profile `name` names (its only one, hpcc: the struct's defaults).
TimelyParams TimelyProfile(std::string_view name);
// Every parameter, once, in the order resolved.toml and the key reference show.
const std::vector<ParamSpec<TimelyParams>>& TimelyParamTable();
// The profile of `cc` with its overrides; throws InputError naming the file, line and key.
TimelyParams ResolveTimelyParams(const CcConfig& cc, std::string_view source);

}  // namespace dcqcn
