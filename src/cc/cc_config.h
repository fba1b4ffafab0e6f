// Which congestion control a run uses, and the overrides of its parameters as written.
#pragma once

#include <map>
#include <string>

namespace dcqcn {

struct CcConfig {
  std::string algorithm = "dcqcn";  // dcqcn | none (line rate, PFC only); design 1.2 default
  std::string profile = "paper";
  // Overrides of the profile's parameters: every [cc] key other than algorithm and profile, with
  // its value as TOML text ("10Mbps", "0.00390625", "true") and its line, validated by the
  // algorithm when the simulation is built.
  struct Param {
    std::string value;
    int line = 0;
  };
  std::map<std::string, Param> params;
};

}  // namespace dcqcn
