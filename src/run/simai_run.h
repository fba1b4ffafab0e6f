// `dcqcn simai -w WORKLOAD -n TOPOLOGY -c CONFIG`: run a SimAI workload on a SimAI topology with
// a SimAI.conf, as SimAI's ns-3 backend runs them (a drop-in for its SimAI_simulator), and write
// SimAI's result files next to our output folder.
#pragma once

#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run/run_scenario.h"

namespace dcqcn {

struct SimaiCommandOptions {
  std::string workload;  // SimAI's -w
  std::string topology;  // -n
  std::string config;    // -c (SimAI.conf)
  // Each transfer's start latency (SimAI's AS_SEND_LAT, which it reads in microseconds from
  // the environment).
  Time send_latency = 0;
  std::string out_dir;  // empty: results/<workload stem>/, SimAI's files where SimAI puts them
  std::function<void(const RunProgress&)> on_progress = nullptr;
  bool quiet = false;
  std::function<void(const std::string&)> note = nullptr;  // warnings, one line each
  bool force = false;
  std::vector<std::string> sets;  // scenario keys on top, as `dcqcn run --set`
  const std::atomic<bool>* stop = nullptr;
  int threads = 0;
  std::string placement_from = {};  // RunOptions::placement_from
  RankExchange* ranks = nullptr;
};

struct SimaiCommandResult {
  nlohmann::json summary;
  std::string out_dir;
  std::vector<std::string> simai_files;  // where SimAI's files were written
};

// Reads the config (LoadSimaiConfig) with the topology and the workload (SimaiJobConfig), runs
// the job and writes our output folder plus SimAI's files: ncclFlowModel_EndToEnd.csv
// (run/simai_end_to_end.h), an empty ncclFlowModel_detailed_N.csv (N = GPUs + NVSwitches: its
// ns-3 build writes nothing there) and the FCT and PFC files in HPCC's formats under the
// config's names. With --out all go into DIR; without, the CSVs into the current directory
// (SimAI's "./ncclFlowModel_") and the FCT and PFC files to the config's paths, as SimAI
// writes them. Throws InputError for bad input.
SimaiCommandResult RunSimaiCommand(const SimaiCommandOptions& options);

}  // namespace dcqcn
