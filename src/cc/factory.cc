// Congestion-control factory.
#include "cc/factory.h"

#include <fmt/format.h>

#include "cc/algorithms.h"
#include "cc/dcqcn.h"
#include "cc/dctcp.h"
#include "cc/hpcc.h"
#include "cc/timely.h"
#include "core/error.h"

namespace dcqcn {

CcFactory::CcFactory(const CcConfig& cc, std::string_view source, Bytes mtu) : mtu_(mtu) {
  if (cc.algorithm == "dcqcn") {
    algorithm_ = Algorithm::kDcqcn;
    dcqcn_ = ResolveDcqcnParams(cc, source);
    needs_.cnp_on_ack = dcqcn_.cnp_on_ack;
  } else if (cc.algorithm == "dctcp") {
    algorithm_ = Algorithm::kDctcp;
    dctcp_ = ResolveDctcpParams(cc, source);
    needs_ = DctcpCc::kNeeds;
  } else if (cc.algorithm == "timely") {
    algorithm_ = Algorithm::kTimely;
    timely_ = ResolveTimelyParams(cc, source);
    needs_ = TimelyCc::kNeeds;
  } else if (cc.algorithm == "hpcc") {
    algorithm_ = Algorithm::kHpcc;
    hpcc_ = ResolveHpccParams(cc, source);
    needs_ = HpccCc::kNeeds;
  } else if (cc.algorithm == "none") {
    if (!cc.params.empty()) {
      const auto& [key, param] = *cc.params.begin();
      throw InputError(fmt::format("{}: cc.{}: algorithm \"none\" takes no parameters",
                                   CcParamWhere(source, key, param), key));
    }
  } else {
    throw InputError(fmt::format("{}: cc.algorithm: \"{}\" is not available (expected {})", source,
                                 cc.algorithm, fmt::join(CcAlgorithmNames(), ", ")));
  }
}

std::unique_ptr<CongestionControl> CcFactory::Make(Simulator* sim, CcHost* host) const {
  switch (algorithm_) {
    case Algorithm::kDcqcn:
      return std::make_unique<DcqcnCc>(sim, host, &dcqcn_);
    case Algorithm::kDctcp:
      return std::make_unique<DctcpCc>(host, &dctcp_, mtu_);
    case Algorithm::kTimely:
      return std::make_unique<TimelyCc>(host, &timely_);
    case Algorithm::kHpcc:
      return std::make_unique<HpccCc>(host, &hpcc_);
    case Algorithm::kNone:
      break;
  }
  return std::make_unique<LineRateCc>(host);
}

}  // namespace dcqcn
