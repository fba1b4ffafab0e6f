// The congestion-control algorithms a scenario's [cc] table can name: one entry per algorithm,
// each registered in its own folder (cc/<name>/<name>_algorithm.cc). The loader, resolved.toml,
// the key reference, summary.json and the HPCC ns-3 reader all read them from here.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cc/cc_algorithm.h"
#include "cc/cc_config.h"

namespace dcqcn {

// Every algorithm, the default first.
const std::vector<std::reference_wrapper<const CcAlgorithm>>& CcAlgorithms();
// nullptr when no algorithm has that name.
const CcAlgorithm* FindCcAlgorithm(std::string_view name);
// The algorithm HPCC ns-3 runs under CC_MODE `mode`; nullptr when we have none.
const CcAlgorithm* FindCcAlgorithmByNs3Mode(int64_t mode);
// The names, for messages: "dcqcn", "dctcp", ...
std::vector<std::string> CcAlgorithmNames();

// The slowest NIC of a network, for ResolveCc: its line rate (0: unknown) and name ("h3").
struct SlowestNic {
  Rate rate = 0;
  std::string name;
};

// The algorithm `cc` names with its profile (its default when empty) and overrides resolved
// into a factory. Throws InputError naming the file (`source`), line and key; also when a rate
// parameter that must stay at or below the line rate (a floor, an increase step) exceeds
// `nic`'s (when known).
std::unique_ptr<const CcFactory> ResolveCc(const CcConfig& cc, std::string_view source,
                                           const SlowestNic& nic = {});

}  // namespace dcqcn
