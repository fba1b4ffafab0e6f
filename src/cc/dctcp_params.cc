// DCTCP's profile and [cc] parameter table.
#include "cc/dctcp_params.h"

namespace dcqcn {
namespace {

const std::vector<ParamSpec<DctcpParams>>& Params() {
  static const std::vector<ParamSpec<DctcpParams>> params = {
      FractionParam<DctcpParams>(
          {"g", "number", "Gain of alpha's moving average, in (0, 1] (HPCC ns-3 `EWMA_GAIN`)"},
          &DctcpParams::g, false, "a number in (0, 1] such as 0.0625"),
      RateParam<DctcpParams>({"rate_ai", "rate",
                              "Added to the rate once per window of ACKs outside CWR: one MTU per "
                              "RTT as a rate (`DCTCP_RATE_AI`)"},
                             &DctcpParams::rate_ai, true),
      RateParam<DctcpParams>({"min_rate", "rate", "Floor of a cut (`MIN_RATE`)"},
                             &DctcpParams::min_rate, false),
  };
  return params;
}

constexpr CcProfileInfo kProfiles[] = {
    {"hpcc",
     "HPCC ns-3's DCTCP (CC_MODE 8) as its run.py writes it at 100 Gb/s: EWMA_GAIN 0.0625, "
     "DCTCP_RATE_AI 615Mb/s (one 1 KB packet per 13 us RTT), MIN_RATE 1000Mb/s"},
};

}  // namespace

std::span<const CcProfileInfo> DctcpProfiles() { return kProfiles; }

DctcpParams ResolveDctcpParams(const CcConfig& cc, std::string_view source) {
  CheckCcProfile(kProfiles, cc, source, "DCTCP");
  DctcpParams p;
  p.g = 0.0625;
  p.rate_ai = 615 * kMbps;
  p.min_rate = 1000 * kMbps;
  return ApplyCcOverrides(Params(), p, cc, source, "DCTCP");
}

std::vector<std::pair<std::string, std::string>> DctcpParamsText(const DctcpParams& p) {
  return CcParamsText(Params(), p);
}

std::vector<CcParamDoc> DctcpParamDocs() { return CcParamDocs(Params()); }

}  // namespace dcqcn
