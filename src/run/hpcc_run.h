// `dcqcn ns3 CONFIG.txt [--out DIR]`: run an HPCC ns-3 simulator config and write its FCT and
// PFC files in that simulator's formats, next to our own output folder.
#pragma once

#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run/run_scenario.h"

namespace dcqcn {

struct HpccCommandOptions {
  std::string config;   // path of the config.txt; the paths inside are relative to the cwd
  std::string out_dir;  // empty: results/<config stem>/, HPCC files at the config's paths
  // Progress reports, as RunOptions::on_progress.
  std::function<void(const RunProgress&)> on_progress = nullptr;
  bool quiet = false;  // no warnings
  // Where its warnings go, one line each ("warning: ..."), before the run starts. Unset: dropped.
  std::function<void(const std::string&)> note = nullptr;
  bool force = false;  // replace an --out folder that is not a result
  // Scenario keys set on top of what the config gives ("output.timeseries=[\"queue\"]"), as
  // `dcqcn run --set`.
  std::vector<std::string> sets;
  // "hpcc": emulate that simulator's model where we have its rules ([wire]: frame sizes and
  // whole-ns transmit times); "native": our RoCEv2 wire format.
  std::string model = "hpcc";
  const std::atomic<bool>* stop = nullptr;  // set by a signal handler: stop, write nothing
  int threads = 0;  // threads the run is split over (RunOptions::threads; 0: AutoThreads)
  std::string placement_from = {};  // RunOptions::placement_from
  // The processes the run is spread over (RunOptions::ranks): rank 0 writes, the others only
  // run their part. Not owned.
  RankExchange* ranks = nullptr;
};

struct HpccCommandResult {
  nlohmann::json summary;  // summary.json's content
  std::string out_dir;     // our output folder as used
  std::string fct_file;    // where the HPCC-format files were written
  std::string pfc_file;
};

// Loads the config (LoadHpccConfig), prints its warnings on stderr ("warning: ..."), runs the
// scenario and writes our output folder plus the FCT and PFC files: with --out, into DIR under
// the file names the config gives (FCT_OUTPUT_FILE, PFC_OUTPUT_FILE); without, at the config's
// paths, as that simulator does. Throws InputError for bad input.
HpccCommandResult RunHpccCommand(const HpccCommandOptions& options);

}  // namespace dcqcn
