// DCTCP's profile and [cc] parameter table.
#include "cc/dctcp/dctcp_params.h"

namespace dcqcn {

const std::vector<ParamSpec<DctcpParams>>& DctcpParamTable() {
  static const std::vector<ParamSpec<DctcpParams>> params = {
      FractionParam<DctcpParams>(
          {"g", "number", "Gain of alpha's moving average, in (0, 1] (HPCC ns-3 `EWMA_GAIN`)"},
          &DctcpParams::g, false, "a number in (0, 1] such as 0.0625"),
      RateParam<DctcpParams>({"rate_ai", "rate",
                              "Added to the rate once per window of ACKs outside CWR: one MTU per "
                              "RTT as a rate (`DCTCP_RATE_AI`)"},
                             &DctcpParams::rate_ai, true, true),
      RateParam<DctcpParams>({"min_rate", "rate", "Floor of a cut (`MIN_RATE`)"},
                             &DctcpParams::min_rate, false, true),
  };
  return params;
}

namespace {

constexpr CcProfileInfo kProfiles[] = {
    {"hpcc",
     "HPCC ns-3's DCTCP (CC_MODE 8) as its run.py writes it at 100 Gb/s: EWMA_GAIN 0.0625, "
     "DCTCP_RATE_AI 615Mb/s (one 1 KB packet per 13 us RTT), MIN_RATE 1000Mb/s"},
};

}  // namespace

std::span<const CcProfileInfo> DctcpProfiles() { return kProfiles; }

DctcpParams DctcpProfile(std::string_view) { return {}; }

DctcpParams ResolveDctcpParams(const CcConfig& cc, std::string_view source) {
  CheckCcProfile(kProfiles, cc, source, "DCTCP");
  return ApplyCcOverrides(DctcpParamTable(), DctcpProfile(cc.profile), cc, source, "DCTCP");
}

}  // namespace dcqcn
