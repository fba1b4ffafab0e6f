#include "topology/topology_keys.h"

#include <fmt/format.h>

#include <algorithm>

namespace dcqcn {

bool Given(const std::vector<std::string>& given, std::string_view key) {
  return std::find(given.begin(), given.end(), key) != given.end();
}

TopologyProblem CheckDerivedHosts(TopologyConfig& topo, const std::vector<std::string>& given,
                                  int64_t derived, const std::string& how) {
  if (Given(given, "hosts") && derived != topo.hosts) {
    return {"hosts", fmt::format("expected {} (or leave hosts out), got {}", how, topo.hosts)};
  }
  return {};
}

}  // namespace dcqcn
