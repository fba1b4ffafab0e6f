// `algorithm = "fixed"`: each flow sends at a pinned rate for its whole life, whatever the
// network marks or echoes: its own `[[flow]] rate`, else `[cc] rate`, else the line rate, and
// never above the line rate (a NIC cannot pace faster than its port). The answer to "how do I
// pin a flow's rate" in the ns-3 forks' trackers, and a baseline that isolates PFC and queueing
// from any congestion control.
#include "cc/fixed/fixed_algorithm.h"

#include <algorithm>

namespace dcqcn {
namespace {

struct FixedParams {
  Rate rate = 0;  // 0 = the line rate
};

const std::vector<ParamSpec<FixedParams>>& FixedParamTable() {
  static const std::vector<ParamSpec<FixedParams>> table = {
      RateParam<FixedParams>({"rate", "rate",
                              "Every flow's rate unless its own `[[flow]] rate` says otherwise; "
                              "0 = the line rate; at most the line rate"},
                             &FixedParams::rate, true),
  };
  return table;
}

constexpr CcProfileInfo kProfiles[] = {
    {"line_rate", "every flow at its NIC's line rate unless `rate` or its own rate says otherwise"},
};

FixedParams FixedProfile(std::string_view) { return {}; }

class FixedCc : public CongestionControl {
 public:
  FixedCc(const CcEnv& env, const FixedParams* params)
      : host_(env.host), flow_rates_(env.flow_rates), p_(params) {}
  static CcNeeds Needs(const FixedParams&) { return {}; }

  void OnFlowStart(CcFlow& f) override {
    Rate rate = p_->rate > 0 ? p_->rate : f.line_rate;
    if (f.id < flow_rates_.size() && flow_rates_[f.id] > 0) rate = flow_rates_[f.id];
    host_->SetRate(f, std::min(rate, f.line_rate));
  }

 private:
  CcHost* host_;
  std::span<const Rate> flow_rates_;
  const FixedParams* p_;
};

}  // namespace

const CcAlgorithm& FixedAlgorithm() {
  static const CcAlgorithm algorithm = {
      .name = "fixed",
      .label = "fixed",
      .summary =
          "every flow at a pinned rate (its own `rate`, else `[cc] rate`, else line rate), "
          "no reaction to marks",
      .profiles = kProfiles,
      .docs = CcParamDocs(FixedParamTable()),
      .reads_flow_rate = true,
      .resolve =
          ParamsResolver<FixedParams, FixedCc>("fixed", kProfiles, &FixedParamTable, &FixedProfile),
  };
  return algorithm;
}

}  // namespace dcqcn
