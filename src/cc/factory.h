// Creates the congestion control named in a scenario's [cc] table, one instance per NIC.
#pragma once

#include <memory>

#include "cc/congestion_control.h"
#include "cc/dcqcn_params.h"
#include "core/simulator.h"
#include "scenario/scenario.h"

namespace dcqcn {

class CcFactory {
 public:
  // Validates the algorithm, profile and parameters once; throws InputError naming the file,
  // line and key.
  explicit CcFactory(const Scenario& s);
  std::unique_ptr<CongestionControl> Make(Simulator* sim, CcHost* host) const;
  const DcqcnParams& dcqcn() const { return dcqcn_; }

 private:
  std::string algorithm_;
  DcqcnParams dcqcn_;  // shared by every NIC's DcqcnCc
};

}  // namespace dcqcn
