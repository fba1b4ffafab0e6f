// The algorithm registry.
#include "cc/algorithms.h"

#include "cc/dcqcn_params.h"
#include "cc/dctcp_params.h"
#include "cc/hpcc_params.h"
#include "cc/timely_params.h"

namespace dcqcn {

const std::vector<CcAlgorithm>& CcAlgorithms() {
  static const std::vector<CcAlgorithm> algorithms = {
      {"dcqcn", "DCQCN", "DCQCN (SIGCOMM'15): CNPs from ECN marks, rate cuts and timed recovery",
       DcqcnProfiles(), DcqcnParamDocs(),
       [](const CcConfig& cc, std::string_view source) {
         return DcqcnParamsText(ResolveDcqcnParams(cc, source));
       }},
      {"dctcp", "DCTCP",
       "DCTCP for RDMA as HPCC ns-3 implements it (CC_MODE 8): a rate cut by alpha / 2 once per "
       "window of ECN-echoing ACKs, additive increase per window",
       DctcpProfiles(), DctcpParamDocs(),
       [](const CcConfig& cc, std::string_view source) {
         return DctcpParamsText(ResolveDctcpParams(cc, source));
       }},
      {"timely", "TIMELY",
       "TIMELY (SIGCOMM'15) as HPCC ns-3 implements it (CC_MODE 7): the rate follows the RTT "
       "and its gradient, once per RTT",
       TimelyProfiles(), TimelyParamDocs(),
       [](const CcConfig& cc, std::string_view source) {
         return TimelyParamsText(ResolveTimelyParams(cc, source));
       }},
      {"hpcc", "HPCC",
       "HPCC (SIGCOMM'19) as HPCC ns-3 implements it (CC_MODE 3): switches add in-band "
       "telemetry, the sender sets its rate from the bottleneck's utilisation",
       HpccProfiles(), HpccParamDocs(),
       [](const CcConfig& cc, std::string_view source) {
         return HpccParamsText(ResolveHpccParams(cc, source));
       }},
      {"none",
       "none",
       "every flow at line rate; PFC alone keeps the network lossless",
       {},
       {},
       [](const CcConfig&, std::string_view) {
         return std::vector<std::pair<std::string, std::string>>{};
       }},
  };
  return algorithms;
}

const CcAlgorithm* FindCcAlgorithm(std::string_view name) {
  for (const CcAlgorithm& a : CcAlgorithms()) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

std::vector<std::string> CcAlgorithmNames() {
  std::vector<std::string> names;
  for (const CcAlgorithm& a : CcAlgorithms()) names.emplace_back(a.name);
  return names;
}

}  // namespace dcqcn
