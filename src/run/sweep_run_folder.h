// A finished run's folder in a sweep (runs/NNN): what `--resume` and `sweep merge` take from an
// earlier process, checked against the sweep's plan before it is trusted.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run/sweep_plan.h"

namespace dcqcn {

// The files every finished run folder holds.
const std::vector<std::string>& RunFolderFiles();

// The summary of run `i` of `plan` from its folder `run_dir`. Throws InputError naming the
// folder and what does not match: a missing file, a summary.json that is not a run's summary
// (null, an array, strings...), or a run of other values than the plan's run `i` (its scenario
// name, in summary.json and resolved.toml, ends with the run's "key=value,..." suffix).
nlohmann::json ReadRunFolder(const std::string& run_dir, const SweepPlan& plan, size_t i);

}  // namespace dcqcn
