// DCQCN's registration: name, profiles, parameters, counters, needs and HPCC ns-3 keys.
#include "cc/dcqcn/dcqcn_algorithm.h"

#include "cc/dcqcn/dcqcn.h"
#include "cc/dcqcn/dcqcn_params.h"

namespace dcqcn {
namespace {

using K = Ns3CcKey::Kind;
constexpr Ns3CcKey kNs3Keys[] = {
    // CC_MODE 1 (rdma-hw.cc's "mlx" DCQCN). In the order that simulator's defaults are
    // checked, so warnings and the first error come in the same order.
    {.ns3_key = "ALPHA_RESUME_INTERVAL",
     .param = "alpha_period",
     .kind = K::kMicros,
     .ns3_default = 55},
    {.ns3_key = "RATE_DECREASE_INTERVAL",
     .param = "rate_reduce_period",
     .kind = K::kMicros,
     .ns3_default = 4},
    {.ns3_key = "FAST_RECOVERY_TIMES",
     .param = "f",
     .kind = K::kInteger,
     .ns3_default = 5,
     .min = 1,
     .max = 1000000,
     .expected = "a number of fast-recovery steps"},
    {.ns3_key = "CLAMP_TARGET_RATE",
     .param = "clamp_target_rate",
     .kind = K::kFlag,
     .ns3_default = 0},
    {.ns3_key = "EWMA_GAIN",
     .param = "g",
     .kind = K::kGain,
     .ns3_default = 0,
     .broken = "is 1/16 in integer arithmetic, i.e. 0, which freezes alpha"},
    {.ns3_key = "RP_TIMER",
     .param = "timer",
     .kind = K::kMicros,
     .ns3_default = 0,
     .broken = "is uninitialised"},
    {.ns3_key = "RATE_AI",
     .param = "rai",
     .kind = K::kRate,
     .ns3_default = 0,
     .broken = "is an empty rate (it aborts)"},
    {.ns3_key = "RATE_HAI",
     .param = "rhai",
     .kind = K::kRate,
     .ns3_default = 0,
     .broken = "is an empty rate (it aborts)"},
    {.ns3_key = "MIN_RATE", .param = "min_rate", .kind = K::kMinRate},
};

}  // namespace

const CcAlgorithm& DcqcnAlgorithm() {
  static const CcAlgorithm algorithm = {
      .name = "dcqcn",
      .label = "DCQCN",
      .summary = "DCQCN (SIGCOMM'15): CNPs from ECN marks, rate cuts and timed recovery",
      .profiles = DcqcnProfiles(),
      .docs = CcParamDocs(DcqcnParamTable()),
      .counters = DcqcnCc::kCounters,
      .reacts_to_ecn = true,
      .ns3_cc_mode = 1,
      .ns3_profile = "hpcc",
      .ns3_keys = kNs3Keys,
      .resolve = ParamsResolver<DcqcnParams, DcqcnCc>("DCQCN", DcqcnProfiles(), &DcqcnParamTable,
                                                      &DcqcnParams::Profile),
  };
  return algorithm;
}

}  // namespace dcqcn
