// The hpcc subcommand: HPCC config -> Scenario -> RunScenario -> our folder and HPCC's files.
#include "app/hpcc_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "app/run_command.h"
#include "hpcc/hpcc_config.h"
#include "hpcc/hpcc_output.h"
#include "net/network.h"
#include "output/atomic_file.h"

namespace dcqcn {

HpccCommandResult RunHpccCommand(const HpccCommandOptions& options) {
  HpccSetup setup = LoadHpccConfig(options.config);
  if (!options.quiet) {
    for (const std::string& w : setup.warnings) fmt::print(stderr, "warning: {}\n", w);
  }
  HpccCommandResult result;
  namespace fs = std::filesystem;
  if (options.out_dir.empty()) {
    result.out_dir = "results/" + setup.scenario.name;
    result.fct_file = setup.fct_output_file;
    result.pfc_file = setup.pfc_output_file;
  } else {
    result.out_dir = options.out_dir;
    result.fct_file =
        (fs::path(options.out_dir) / fs::path(setup.fct_output_file).filename()).string();
    result.pfc_file =
        (fs::path(options.out_dir) / fs::path(setup.pfc_output_file).filename()).string();
  }

  RunOptions run;
  run.out_dir = result.out_dir;
  run.progress = options.progress;
  run.after_run = [&](const Network& net) {
    WriteFileAtomic(result.fct_file, HpccFctText(net, setup.dports));
    WriteFileAtomic(result.pfc_file, HpccPfcText(net));
  };
  result.summary = RunScenario(setup.scenario, run);
  return result;
}

}  // namespace dcqcn
