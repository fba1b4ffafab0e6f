// A sweep's plan: every run's values of the varied keys, its overrides and its name, and the
// scenario bytes every run loads.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "scenario/scenario_loader.h"

namespace dcqcn {

// Runs per sweep: far more than a study needs, few enough that the per-run bookkeeping (each
// run's overrides, summary and row) stays within a few GB.
constexpr size_t kMaxSweepRuns = 1000000;

// One --vary: a key and its values (TOML text).
struct Axis {
  std::string key;
  std::vector<std::string> values;
};

// Every run of a sweep: its values of the varied keys, its overrides and its name suffix.
struct SweepPlan {
  std::vector<Axis> axes;
  std::vector<std::vector<std::string>> combos;  // per run, one value per axis
  std::vector<std::vector<Override>> run_sets;   // per run, the fixed sets then the values
  std::vector<std::string> suffixes;             // per run, "key=value,..." for its name
  // The scenario file's bytes, read once: every run loads exactly these (an edit during the
  // sweep changes nothing), and their digest is what sweep.json records and --resume checks.
  // Empty for the built-in scenario.
  std::string scenario_text;
  std::string scenario_digest;
};

// The runs of --vary `vary` (and seed = 1..`seeds` when > 0, as the last axis), each with the
// fixed overrides `sets` first. Throws InputError for a malformed or repeated --vary.
SweepPlan PlanSweep(const std::vector<std::string>& vary, const std::vector<std::string>& sets,
                    int seeds);

// FNV-1a (64-bit) of `bytes`, in hex: what sweep.json records of the scenario file.
std::string ScenarioDigest(const std::string& bytes);

// Reads the sweep's scenario file once into `plan` (nothing for the built-in scenario).
void ReadScenarioOnce(const std::string& path, SweepPlan& plan);

}  // namespace dcqcn
