// `algorithm = "none"`: a flow starts at line rate and stays there; no parameters, no counters.
#include "cc/none/none_algorithm.h"

#include <fmt/format.h>

namespace dcqcn {
namespace {

class LineRateCc : public CongestionControl {
 public:
  explicit LineRateCc(CcHost* host) : host_(host) {}
  void OnFlowStart(CcFlow& f) override { host_->SetRate(f, f.line_rate); }

 private:
  CcHost* host_;
};

class LineRateFactory : public CcFactory {
 public:
  std::unique_ptr<CongestionControl> Make(const CcEnv& env) const override {
    return std::make_unique<LineRateCc>(env.host);
  }
  CcNeeds needs() const override { return {}; }
  std::vector<std::pair<std::string, std::string>> ParamsText() const override { return {}; }
};

}  // namespace

const CcAlgorithm& NoneAlgorithm() {
  static const CcAlgorithm algorithm = {
      .name = "none",
      .label = "none",
      .summary = "every flow at line rate; PFC alone keeps the network lossless",
      .resolve = [](const CcConfig& cc,
                    std::string_view source) -> std::unique_ptr<const CcFactory> {
        if (!cc.params.empty()) {
          const auto& [key, param] = *cc.params.begin();
          throw InputError(fmt::format("{}: cc.{}: algorithm \"none\" takes no parameters",
                                       CcParamWhere(source, key, param), key));
        }
        return std::make_unique<LineRateFactory>();
      },
  };
  return algorithm;
}

}  // namespace dcqcn
