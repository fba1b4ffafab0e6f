// `dcqcn run`: simulate a scenario and write its output folder.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "scenario/scenario.h"

namespace dcqcn {

struct RunOptions {
  std::string out_dir;    // empty: do not write files (tests, benchmarks)
  bool progress = false;  // progress line on stderr
};

// Runs the scenario to completion (all flows done, or its duration) and returns summary.json's
// content. Throws InputError for scenarios that cannot be built, InvariantError on a bug.
nlohmann::json RunScenario(const Scenario& s, const RunOptions& options);

}  // namespace dcqcn
