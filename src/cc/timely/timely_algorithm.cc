// TIMELY's registration: name, profiles, parameters, counters, needs and HPCC ns-3 keys.
#include "cc/timely/timely_algorithm.h"

#include "cc/timely/timely.h"
#include "cc/timely/timely_params.h"

namespace dcqcn {
namespace {

using K = Ns3CcKey::Kind;
constexpr Ns3CcKey kNs3Keys[] = {
    {.ns3_key = "RATE_AI",
     .param = "rate_ai",
     .kind = K::kRate,
     .ns3_default = 0,
     .broken = "is an empty rate (it aborts)"},
    {.ns3_key = "RATE_HAI",
     .param = "rate_hai",
     .kind = K::kRate,
     .ns3_default = 0,
     .broken = "is an empty rate (it aborts)"},
    {.ns3_key = "MIN_RATE", .param = "min_rate", .kind = K::kMinRate},
};

}  // namespace

const CcAlgorithm& TimelyAlgorithm() {
  static const CcAlgorithm algorithm = {
      .name = "timely",
      .label = "TIMELY",
      .summary =
          "TIMELY (SIGCOMM'15) as HPCC ns-3 implements it (CC_MODE 7): the rate follows the RTT "
          "and its gradient, once per RTT",
      .profiles = TimelyProfiles(),
      .docs = CcParamDocs(TimelyParamTable()),
      .counters = TimelyCc::kCounters,
      .reacts_to_ecn = false,
      .ns3_cc_mode = 7,
      .ns3_profile = "hpcc",
      .ns3_keys = kNs3Keys,
      .resolve = ParamsResolver<TimelyParams, TimelyCc>("TIMELY", TimelyProfiles(),
                                                        &TimelyParamTable, &TimelyProfile),
  };
  return algorithm;
}

}  // namespace dcqcn
