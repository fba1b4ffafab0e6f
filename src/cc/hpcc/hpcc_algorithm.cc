// HPCC's registration: name, profiles, parameters, counters, needs and HPCC ns-3 keys.
#include "cc/hpcc/hpcc_algorithm.h"

#include "cc/hpcc/hpcc.h"
#include "cc/hpcc/hpcc_params.h"

namespace dcqcn {
namespace {

using K = Ns3CcKey::Kind;
constexpr Ns3CcKey kNs3Keys[] = {
    {.ns3_key = "HAS_WIN",
     .param = "",
     .kind = K::kRequired,
     .ns3_default = 1,
     .broken = "HPCC (CC_MODE 3) needs HAS_WIN 1: its queue term divides by the window, which "
               "HAS_WIN 0 makes 0 in that simulator"},
    {.ns3_key = "U_TARGET",
     .param = "target_util",
     .kind = K::kNumber,
     .ns3_default = 0.95,
     .min = 1e-9,
     .max = 1,
     .expected = "a utilisation in (0, 1]"},
    {.ns3_key = "MI_THRESH",
     .param = "mi_thresh",
     .kind = K::kInteger,
     .ns3_default = 5,
     .min = 0,
     .max = 1000000,
     .expected = "a number of stages"},
    {.ns3_key = "FAST_REACT", .param = "fast_react", .kind = K::kFlag, .ns3_default = 1},
    {.ns3_key = "RATE_AI",
     .param = "rate_ai",
     .kind = K::kRate,
     .ns3_default = 0,
     .broken = "is an empty rate (it aborts)"},
    {.ns3_key = "MIN_RATE", .param = "min_rate", .kind = K::kMinRate},
    {.ns3_key = "MULTI_RATE", .param = "multi_rate", .kind = K::kFlag, .ns3_default = 1},
    {.ns3_key = "SAMPLE_FEEDBACK", .param = "sample_feedback", .kind = K::kFlag, .ns3_default = 0},
    {.ns3_key = "INT_MULTI",
     .param = "int_multi",
     .kind = K::kInteger,
     .ns3_default = 1,
     .min = 1,
     .max = 1000000,
     .expected = "a unit multiplier >= 1"},
};

}  // namespace

const CcAlgorithm& HpccAlgorithm() {
  static const CcAlgorithm algorithm = {
      .name = "hpcc",
      .label = "HPCC",
      .summary =
          "HPCC (SIGCOMM'19) as HPCC ns-3 implements it (CC_MODE 3): switches add in-band "
          "telemetry, the sender sets its rate from the bottleneck's utilisation",
      .profiles = HpccProfiles(),
      .docs = CcParamDocs(HpccParamTable()),
      .counters = HpccCc::kCounters,
      .reacts_to_ecn = false,
      .ns3_cc_mode = 3,
      .ns3_profile = "hpcc",
      .ns3_keys = kNs3Keys,
      .resolve =
          ParamsResolver<HpccParams, HpccCc>("HPCC", HpccProfiles(), &HpccParamTable, &HpccProfile),
  };
  return algorithm;
}

}  // namespace dcqcn
