// The congestion-control algorithms a scenario's [cc] table can name, with their profiles and
// parameter tables: the loader, resolved.toml and the key reference read them from here.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cc/cc_config.h"
#include "cc/param_table.h"

namespace dcqcn {

struct CcAlgorithm {
  std::string_view name;                    // the value of [cc] algorithm
  std::string_view label;                   // for messages: "DCQCN"
  std::string_view summary;                 // one line for the key reference
  std::span<const CcProfileInfo> profiles;  // the first is the default; empty: no parameters
  std::vector<CcParamDoc> docs;             // every parameter, in resolved.toml's order
  // Every parameter as (name, value text) for the profile of `cc` with its overrides applied;
  // throws InputError naming the file (`source`), line and key.
  std::function<std::vector<std::pair<std::string, std::string>>(const CcConfig& cc,
                                                                 std::string_view source)>
      resolve;
};

// dcqcn, dctcp, timely, hpcc and none, in that order.
const std::vector<CcAlgorithm>& CcAlgorithms();
// nullptr when no algorithm has that name.
const CcAlgorithm* FindCcAlgorithm(std::string_view name);
// The names, for messages: "dcqcn", "dctcp", ...
std::vector<std::string> CcAlgorithmNames();

}  // namespace dcqcn
