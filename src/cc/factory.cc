// Congestion-control factory.
#include "cc/factory.h"

#include <fmt/format.h>

#include "core/error.h"

namespace dcqcn {

std::unique_ptr<CongestionControl> MakeCongestionControl(const Scenario& s, CcHost* host) {
  const CcConfig& cc = s.cc;
  if (cc.algorithm == "none") {
    if (!cc.params.empty()) {
      const auto& [key, param] = *cc.params.begin();
      std::string where = param.line > 0 ? fmt::format("{}:{}", s.source, param.line)
                                         : fmt::format("--set cc.{}={}", key, param.value);
      throw InputError(
          fmt::format("{}: cc.{}: algorithm \"none\" takes no parameters", where, key));
    }
    return std::make_unique<LineRateCc>(host);
  }
  throw InputError(fmt::format("{}: cc.algorithm: \"{}\" is not available (expected \"none\")",
                               s.source, cc.algorithm));
}

}  // namespace dcqcn
