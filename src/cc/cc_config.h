// Which congestion control a run uses, and the overrides of its parameters as written. The
// scenario layer resolves it into typed parameters (ResolveCc, cc/registry.h) before a network
// is built.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace dcqcn {

// The registry's first algorithm (cc/registry.cc).
std::string_view DefaultCcAlgorithm();

struct CcConfig {
  std::string algorithm{DefaultCcAlgorithm()};  // any registered name
  std::string profile;  // one of the algorithm's profiles; "" = its default (the first)
  // Overrides of the profile's parameters: every [cc] key other than algorithm and profile, with
  // its value as TOML text ("10Mbps", "0.00390625", "true") and where it was given: its line, or
  // (line 0) the command-line option that gave it; checked by the algorithm's parameter table
  // when resolved.
  struct Param {
    std::string value;
    int line = 0;
    std::string given_as = {};  // "--set cc.rai=10Mbps", "--vary cc.rai=10Mbps"; "" = --set
  };
  std::map<std::string, Param> params;
};

}  // namespace dcqcn
