// Creates the congestion control named in a scenario's [cc] table, one instance per NIC.
#pragma once

#include <memory>
#include <string_view>

#include "cc/cc_config.h"
#include "cc/congestion_control.h"
#include "cc/dcqcn_params.h"
#include "core/simulator.h"

namespace dcqcn {

class CcFactory {
 public:
  // Validates the algorithm, profile and parameters once; throws InputError naming the file
  // (`source`), line and key.
  CcFactory(const CcConfig& cc, std::string_view source);
  std::unique_ptr<CongestionControl> Make(Simulator* sim, CcHost* host) const;
  const DcqcnParams& dcqcn() const { return dcqcn_; }

 private:
  std::string algorithm_;
  DcqcnParams dcqcn_;  // shared by every NIC's DcqcnCc
};

}  // namespace dcqcn
