// Congestion-control factory.
#include "cc/factory.h"

#include <fmt/format.h>

#include "cc/dcqcn.h"
#include "core/error.h"

namespace dcqcn {

CcFactory::CcFactory(const CcConfig& cc, std::string_view source) : algorithm_(cc.algorithm) {
  if (cc.algorithm == "dcqcn") {
    dcqcn_ = ResolveDcqcnParams(cc, source);
    return;
  }
  if (cc.algorithm != "none") {
    throw InputError(
        fmt::format("{}: cc.algorithm: \"{}\" is not available (expected \"dcqcn\" "
                    "or \"none\")",
                    source, cc.algorithm));
  }
  if (!cc.params.empty()) {
    const auto& [key, param] = *cc.params.begin();
    std::string where = param.line > 0 ? fmt::format("{}:{}", source, param.line)
                                       : fmt::format("--set cc.{}={}", key, param.value);
    throw InputError(fmt::format("{}: cc.{}: algorithm \"none\" takes no parameters", where, key));
  }
}

std::unique_ptr<CongestionControl> CcFactory::Make(Simulator* sim, CcHost* host) const {
  if (algorithm_ == "dcqcn") return std::make_unique<DcqcnCc>(sim, host, &dcqcn_);
  return std::make_unique<LineRateCc>(host);
}

}  // namespace dcqcn
