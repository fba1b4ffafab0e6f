// DCTCP's registration: name, profiles, parameters, counters, needs and HPCC ns-3 keys.
#include "cc/dctcp/dctcp_algorithm.h"

#include "cc/dctcp/dctcp.h"
#include "cc/dctcp/dctcp_params.h"

namespace dcqcn {
namespace {

using K = Ns3CcKey::Kind;
constexpr Ns3CcKey kNs3Keys[] = {
    {.ns3_key = "EWMA_GAIN",
     .param = "g",
     .kind = K::kGain,
     .ns3_default = 0,
     .broken = "is 1/16 in integer arithmetic, i.e. 0, which freezes alpha"},
    {.ns3_key = "DCTCP_RATE_AI", .param = "rate_ai", .kind = K::kRate, .ns3_default = 1000e6},
    {.ns3_key = "MIN_RATE", .param = "min_rate", .kind = K::kMinRate},
};

}  // namespace

const CcAlgorithm& DctcpAlgorithm() {
  static const CcAlgorithm algorithm = {
      .name = "dctcp",
      .label = "DCTCP",
      .summary =
          "DCTCP for RDMA as HPCC ns-3 implements it (CC_MODE 8): a rate cut by alpha / 2 once per "
          "window of ECN-echoing ACKs, additive increase per window",
      .profiles = DctcpProfiles(),
      .docs = CcParamDocs(DctcpParamTable()),
      .counters = DctcpCc::kCounters,
      .reacts_to_ecn = true,
      .ns3_cc_mode = 8,
      .ns3_profile = "hpcc",
      .ns3_keys = kNs3Keys,
      .resolve = ParamsResolver<DctcpParams, DctcpCc>("DCTCP", DctcpProfiles(), &DctcpParamTable,
                                                      &DctcpProfile),
  };
  return algorithm;
}

}  // namespace dcqcn
