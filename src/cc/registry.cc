// The registry: one line per algorithm.
#include "cc/registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cc/dcqcn/dcqcn_algorithm.h"
#include "cc/dctcp/dctcp_algorithm.h"
#include "cc/fixed/fixed_algorithm.h"
#include "cc/hpcc/hpcc_algorithm.h"
#include "cc/none/none_algorithm.h"
#include "cc/timely/timely_algorithm.h"
#include "core/edit_distance.h"

namespace dcqcn {

const std::vector<std::reference_wrapper<const CcAlgorithm>>& CcAlgorithms() {
  static const std::vector<std::reference_wrapper<const CcAlgorithm>> algorithms = {
      // One line per algorithm.
      // clang-format off
      DcqcnAlgorithm(),  // the default (design 1.2)
      DctcpAlgorithm(),
      TimelyAlgorithm(),
      HpccAlgorithm(),
      NoneAlgorithm(),
      FixedAlgorithm(),
      // clang-format on
  };
  return algorithms;
}

std::string_view DefaultCcAlgorithm() { return CcAlgorithms().front().get().name; }

const CcAlgorithm* FindCcAlgorithm(std::string_view name) {
  for (const CcAlgorithm& a : CcAlgorithms()) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

const CcAlgorithm* FindCcAlgorithmByNs3Mode(int64_t mode) {
  for (const CcAlgorithm& a : CcAlgorithms()) {
    if (a.ns3_cc_mode != 0 && a.ns3_cc_mode == mode) return &a;
  }
  return nullptr;
}

std::vector<std::string> CcAlgorithmNames() {
  std::vector<std::string> names;
  for (const CcAlgorithm& a : CcAlgorithms()) names.emplace_back(a.name);
  return names;
}

std::unique_ptr<const CcFactory> ResolveCc(const CcConfig& cc, std::string_view source,
                                           const SlowestNic& nic) {
  const CcAlgorithm* algorithm = FindCcAlgorithm(cc.algorithm);
  if (algorithm == nullptr) {
    const std::vector<std::string> names = CcAlgorithmNames();
    throw InputError(fmt::format("{}: cc.algorithm: \"{}\" is not available{} (expected {})",
                                 source, cc.algorithm, DidYouMean(cc.algorithm, names),
                                 fmt::join(names, ", ")));
  }
  std::unique_ptr<const CcFactory> factory = algorithm->resolve(cc, source);
  if (nic.rate <= 0) return factory;
  for (const auto& [name, rate] : factory->LineBoundedRates()) {
    if (rate <= nic.rate) continue;
    const auto given = cc.params.find(std::string(name));
    const std::string nic_text =
        fmt::format("the line rate of the slowest NIC ({}, {})", nic.name, FormatRate(nic.rate));
    if (given != cc.params.end()) {
      throw InputError(fmt::format("{}: cc.{}: expected a rate at most {}, got {}",
                                   CcParamWhere(source, given->first, given->second), name,
                                   nic_text, FormatRate(rate)));
    }
    // Not written: the profile's value, which the user must override.
    throw InputError(fmt::format(
        "{}: cc.{}: the {} profile's {} is above {}; set cc.{} to at most {}", source, name,
        cc.profile.empty() ? algorithm->profiles.front().name : std::string_view(cc.profile),
        FormatRate(rate), nic_text, name, FormatRate(nic.rate)));
  }
  return factory;
}

}  // namespace dcqcn
