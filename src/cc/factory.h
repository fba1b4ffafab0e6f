// Creates the congestion control named in a scenario's [cc] table, one instance per NIC.
#pragma once

#include <memory>
#include <string_view>

#include "cc/cc_config.h"
#include "cc/congestion_control.h"
#include "cc/dcqcn_params.h"
#include "cc/dctcp_params.h"
#include "cc/hpcc_params.h"
#include "cc/timely_params.h"
#include "core/simulator.h"

namespace dcqcn {

class CcFactory {
 public:
  // Validates the algorithm, profile and parameters once; throws InputError naming the file
  // (`source`), line and key. `mtu`: payload bytes per packet (sequence numbers in bytes).
  CcFactory(const CcConfig& cc, std::string_view source, Bytes mtu);
  std::unique_ptr<CongestionControl> Make(Simulator* sim, CcHost* host) const;
  // What the algorithm needs of NICs and switches (the same for every instance).
  const CcNeeds& needs() const { return needs_; }
  const DcqcnParams& dcqcn() const { return dcqcn_; }

 private:
  enum class Algorithm { kNone, kDcqcn, kDctcp, kTimely, kHpcc };
  Algorithm algorithm_ = Algorithm::kNone;
  Bytes mtu_;
  CcNeeds needs_;
  // The resolved parameters of the algorithm in use, shared by every NIC's instance.
  DcqcnParams dcqcn_;
  DctcpParams dctcp_;
  TimelyParams timely_;
  HpccParams hpcc_;
};

}  // namespace dcqcn
