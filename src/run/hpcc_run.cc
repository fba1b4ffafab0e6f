// The hpcc subcommand: HPCC config -> Scenario -> RunScenario -> our folder and HPCC's files.
#include "run/hpcc_run.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <optional>

#include "core/error.h"
#include "net/network.h"
#include "ns3/hpcc_output.h"
#include "output/atomic_file.h"
#include "output/staged_folder.h"
#include "run/output_sink.h"
#include "run/rank_refusal.h"
#include "run/run_scenario.h"
#include "scenario/hpcc_config.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

// HPCC ns-3's FCT and PFC files, at the paths the config names (or in --out).
class HpccFilesSink : public OutputSink {
 public:
  HpccFilesSink(std::string fct_path, std::string pfc_path, const std::vector<uint16_t>& dports)
      : fct_path_(std::move(fct_path)), pfc_path_(std::move(pfc_path)), dports_(dports) {}
  void Write(const Network& net, const RunInfo&, const nlohmann::json&,
             const std::string&) override {
    WriteFileAtomic(fct_path_, HpccFctText(net, dports_));
    WriteFileAtomic(pfc_path_, HpccPfcText(net));
  }

 private:
  std::string fct_path_;
  std::string pfc_path_;
  const std::vector<uint16_t>& dports_;
};

}  // namespace

HpccCommandResult RunHpccCommand(const HpccCommandOptions& options) {
  const bool over_ranks = options.ranks != nullptr && options.ranks->ranks() > 1;
  // Rank 0 (or the one process) writes; another rank of a run spread over several runs its part.
  const bool writes = options.ranks == nullptr || options.ranks->rank() == 0;
  HpccSetup setup;
  HpccCommandResult result;
  std::optional<StagedFolder> folder;
  std::string fct_path, pfc_path;
  std::string refused;
  try {
    setup = LoadHpccConfig(options.config);
    if (options.model == "native") {
      // Our own model where that simulator's code decides (docs/validation.md); the config's
      // values (buffer, KMIN/KMAX/PMAX maps, DCQCN parameters) stay.
      Scenario& s = setup.scenario;
      s.wire = WireFormat{};
      s.host.ack_in_data_class = false;
      s.host.pause_acks = false;
      s.sw.pfc.headroom_rule = PfcConfig::HeadroomRule::kAuto;
      s.sw.pfc.by_rate.clear();
      s.sw.ecmp_hash = SwitchConfig::EcmpHash::kDcqcn;
    }
    if (!options.sets.empty()) {
      // The config as a scenario file, with the overrides applied by the scenario loader, so
      // that every key and its checks work as for `dcqcn run --set`.
      setup.scenario = LoadScenarioText(ResolvedToml(setup.scenario),
                                        options.config + " (as a scenario)", options.sets);
    }
    if (writes) {
      namespace fs = std::filesystem;
      result.out_dir = options.out_dir.empty() ? "results/" + setup.scenario.name : options.out_dir;
      folder.emplace(result.out_dir, options.force, options.stop);
      // With --out the FCT and PFC files go into the folder (staged with it); without, to the
      // config's paths, as that simulator writes them.
      fct_path = setup.fct_output_file;
      pfc_path = setup.pfc_output_file;
      if (!options.out_dir.empty()) {
        const std::string fct_name = fs::path(setup.fct_output_file).filename().string();
        const std::string pfc_name = fs::path(setup.pfc_output_file).filename().string();
        fct_path = (fs::path(folder->path()) / fct_name).string();
        pfc_path = (fs::path(folder->path()) / pfc_name).string();
        result.fct_file = (fs::path(folder->dir()) / fct_name).string();
        result.pfc_file = (fs::path(folder->dir()) / pfc_name).string();
      } else {
        result.fct_file = fct_path;
        result.pfc_file = pfc_path;
      }
    }
  } catch (const InputError& e) {
    if (!over_ranks) throw;
    refused = e.what();
  }
  // Over ranks: a config every rank refuses, or a folder rank 0 cannot make, ends them all.
  if (over_ranks) AgreeBeforeRun(*options.ranks, refused);
  if (!options.quiet && options.note) {
    for (const std::string& w : setup.warnings) options.note("warning: " + w);
  }
  RunOptions run;
  run.stop = options.stop;
  run.threads = options.threads;
  run.placement_from = options.placement_from;
  run.ranks = options.ranks;
  if (!writes) {
    RunScenario(setup.scenario, run);
    return result;
  }
  run.out_dir = folder->path();
  run.on_progress = options.on_progress;
  HpccFilesSink hpcc_files(fct_path, pfc_path, setup.dports);
  run.extra_sinks = {&hpcc_files};
  result.summary = RunScenario(setup.scenario, run);
  folder->Commit();
  result.out_dir = folder->dir();
  return result;
}

}  // namespace dcqcn
