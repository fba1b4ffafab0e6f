// HPCC's profile and [cc] parameter table.
#include "cc/hpcc/hpcc_params.h"

namespace dcqcn {

const std::vector<ParamSpec<HpccParams>>& HpccParamTable() {
  using P = HpccParams;
  static const std::vector<ParamSpec<P>> params = {
      PositiveParam<P>({"target_util", "number",
                        "Target utilisation eta of the bottleneck, in (0, 1] (`U_TARGET`)"},
                       &P::target_util, 1, "a number in (0, 1] such as 0.95"),
      IntParam<P>({"mi_thresh", "integer",
                   "Additive-increase stages before a multiplicative step, maxStage (`MI_THRESH`; "
                   "0: every update is multiplicative)"},
                  &P::mi_thresh, 0, 1000000, "an integer >= 0"),
      BoolParam<P>({"fast_react", "boolean",
                    "React to every ACK from the last reference rate; the reference moves once "
                    "per RTT (`FAST_REACT`)"},
                   &P::fast_react),
      RateParam<P>({"rate_ai", "rate", "Additive step W_AI as a rate (`RATE_AI`)"}, &P::rate_ai,
                   true, true),
      RateParam<P>({"min_rate", "rate", "Floor of the rate (`MIN_RATE`)"}, &P::min_rate, false,
                   true),
      BoolParam<P>({"multi_rate", "boolean",
                    "A reference rate per hop, the flow taking the smallest (`MULTI_RATE`)"},
                   &P::multi_rate),
      BoolParam<P>({"sample_feedback", "boolean",
                    "Fast-react ACKs skip hops with an empty queue (`SAMPLE_FEEDBACK`)"},
                   &P::sample_feedback),
      {{"int_multi", "integer",
        "Units of the telemetry fields: bytes in 128 x this, queue length in 80 x this "
        "(`INT_MULTI`)"},
       "an integer >= 1",
       [](P& p, const std::string& v) {
         long n;
         if (!ParseCcInt(v, 1, 1000000, &n)) return false;
         p.fields.multi = n;
         return true;
       },
       [](const P& p) { return std::to_string(p.fields.multi); }},
      {{"exact_telemetry", "boolean",
        "Read telemetry exactly instead of through HPCC ns-3's field widths (24-bit ns time, "
        "20-bit byte count, 17-bit queue length, each wrapping)"},
       "true or false",
       [](P& p, const std::string& v) { return ParseCcBool(v, &p.fields.exact); },
       [](const P& p) { return std::string(p.fields.exact ? "true" : "false"); }},
  };
  return params;
}

namespace {

constexpr CcProfileInfo kProfiles[] = {
    {"hpcc",
     "HPCC ns-3 (CC_MODE 3) as its run.py writes it at 100 Gb/s: U_TARGET 0.95, MI_THRESH 0, "
     "FAST_REACT 1, RATE_AI 50Mb/s, MIN_RATE 1000Mb/s, MULTI_RATE 0, SAMPLE_FEEDBACK 0, "
     "INT_MULTI 4"},
};

}  // namespace

std::span<const CcProfileInfo> HpccProfiles() { return kProfiles; }

HpccParams HpccProfile(std::string_view) { return {}; }

HpccParams ResolveHpccParams(const CcConfig& cc, std::string_view source) {
  CheckCcProfile(kProfiles, cc, source, "HPCC");
  return ApplyCcOverrides(HpccParamTable(), HpccProfile(cc.profile), cc, source, "HPCC");
}

}  // namespace dcqcn
