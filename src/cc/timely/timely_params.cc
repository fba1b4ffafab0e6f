// TIMELY's profile and [cc] parameter table.
#include "cc/timely/timely_params.h"

namespace dcqcn {

const std::vector<ParamSpec<TimelyParams>>& TimelyParamTable() {
  using P = TimelyParams;
  static const std::vector<ParamSpec<P>> params = {
      FractionParam<P>({"alpha", "number",
                        "Weight of a new RTT difference in the gradient's moving average, in "
                        "(0, 1] (HPCC ns-3 `TimelyAlpha`)"},
                       &P::alpha, false, "a number in (0, 1] such as 0.875"),
      FractionParam<P>(
          {"beta", "number", "Multiplicative-decrease factor beta, in [0, 1] (`TimelyBeta`)"},
          &P::beta, true, "a number in [0, 1] such as 0.8"),
      TimeParam<P>({"t_low", "time", "Below this RTT the rate always increases (`TimelyTLow`)"},
                   &P::t_low, true),
      TimeParam<P>({"t_high", "time",
                    "Above this RTT the rate decreases by beta (1 - t_high / RTT) "
                    "(`TimelyTHigh`)"},
                   &P::t_high, false),
      {{"min_rtt", "time",
        "The gradient is the smoothed RTT difference over this fixed time, in whole ns "
        "(`TimelyMinRtt`)"},
       "a time of at least 1ns such as \"20us\"",
       [](P& p, const std::string& v) {
         auto t = ParseTime(v);
         if (!t || *t < kNanosecond) return false;  // the gradient divides by it in ns
         p.min_rtt = *t;
         return true;
       },
       [](const P& p) { return FormatTime(p.min_rtt); }},
      RateParam<P>({"rate_ai", "rate", "Additive-increase step (`RATE_AI`)"}, &P::rate_ai, true,
                   true),
      RateParam<P>({"rate_hai", "rate",
                    "Hyper-active increase step, after hai_after increases in a row (`RATE_HAI`)"},
                   &P::rate_hai, true, true),
      RateParam<P>({"min_rate", "rate", "Floor of a decrease (`MIN_RATE`)"}, &P::min_rate, false,
                   true),
      IntParam<P>({"hai_after", "integer",
                   "Increases in a row before the step becomes rate_hai (5, fixed in HPCC ns-3)"},
                  &P::hai_after, 0, 1000000, "an integer >= 0"),
  };
  return params;
}

namespace {

constexpr CcProfileInfo kProfiles[] = {
    {"hpcc",
     "HPCC ns-3's TIMELY (CC_MODE 7) as its run.py writes it at 100 Gb/s: RATE_AI 100Mb/s, "
     "RATE_HAI 500Mb/s, MIN_RATE 1000Mb/s; alpha, beta, t_low, t_high and min_rtt are its "
     "rdma-hw.cc defaults (run.py has no keys for them), which its README takes from the TIMELY "
     "paper"},
};

}  // namespace

std::span<const CcProfileInfo> TimelyProfiles() { return kProfiles; }

TimelyParams TimelyProfile(std::string_view) { return {}; }

TimelyParams ResolveTimelyParams(const CcConfig& cc, std::string_view source) {
  CheckCcProfile(kProfiles, cc, source, "TIMELY");
  return ApplyCcOverrides(TimelyParamTable(), TimelyProfile(cc.profile), cc, source, "TIMELY");
}

}  // namespace dcqcn
