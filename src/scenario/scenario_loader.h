// Reads a scenario TOML file (design 1.2) into a validated, fully defaulted Scenario, applying
// `--set` overrides first. Every user mistake becomes an InputError naming file, line and key.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scenario/scenario.h"

namespace dcqcn {

// One override and how the user gave it, which its error messages quote so that they name the
// option typed: `--set seed=7` (text "seed=7"), `--seed 7`, `--vary cc.rai=10Mbps` (one value of a
// --vary list). The overloads taking plain "KEY=VALUE" strings take them as given by --set.
struct Override {
  explicit Override(std::string text_) : text(std::move(text_)), given_as("--set " + text) {}
  Override(std::string text_, std::string given_as_)
      : text(std::move(text_)), given_as(std::move(given_as_)) {}
  std::string text;      // "KEY=VALUE"
  std::string given_as;  // as the command line gave it, for messages
};

// Parses the file, applies `overrides`, fills every default, builds topology.links, expands the
// workload into flows and validates everything.
//
// An override is "dotted.key=value", e.g. "cc.rai=10Mbps", "switch.ecn.pmax=0.05",
// "topology.hosts=17", "flow.0.size=2MB" (a number indexes [[flow]]). The value is TOML text;
// text that is not a valid TOML value is taken as a string ("10Mbps" -> "10Mbps"). Overrides may
// create keys and tables that the file lacks, but only keys the scenario format knows.
//
// Throws InputError with a message "FILE:LINE: KEY: what was expected, got what"; for a problem
// caused by an override the location is the override as given ("--set topology.hosts=1: ...",
// "--seed abc: ...").
Scenario LoadScenarioFile(const std::string& path, const std::vector<std::string>& overrides = {});

// What loading builds. `dcqcn check` counts a collective's and a job's flows without building
// them (a 1 GB AllReduce on 16,384 GPUs is 67 million, and 8.5 GB): every key, rank and route is
// checked all the same (the ranks of a collective, and of each of a job's groups and pipeline
// pairs, must reach each other, which is what their flows need); a run builds them.
struct LoadOptions {
  bool build_collectives_and_jobs = true;
};
Scenario LoadScenarioFile(const std::string& path, const std::vector<Override>& overrides,
                          const LoadOptions& options = {});

// As LoadScenarioFile, for text already in memory; `source_name` is used in messages, as
// Scenario::source, and (its stem) as the default name.
Scenario LoadScenarioText(std::string_view toml_text, const std::string& source_name,
                          const std::vector<std::string>& overrides = {});
Scenario LoadScenarioText(std::string_view toml_text, const std::string& source_name,
                          const std::vector<Override>& overrides, const LoadOptions& options = {});

// The built-in scenario of `dcqcn run` without a file: an 8:1 incast of 10 MB per sender on a
// star of 9 hosts at 40 Gb/s with 1 us links, DCQCN with the paper profile, every time series.
std::string DefaultScenarioText();
Scenario DefaultScenario(const std::vector<std::string>& overrides = {});
Scenario DefaultScenario(const std::vector<Override>& overrides);

// [cc] parameters are kept in CcConfig::params as text: a string's contents without quotes
// ("10Mbps"), any other value as canonical TOML ("0.00390625", "true", "[1, 2]"). This returns
// the TOML value to write so that loading it gives back exactly `stored` (for resolved.toml).
std::string CcParamToToml(const std::string& stored);

}  // namespace dcqcn
