// The simai subcommand: SimAI's workload, topology and config -> a job -> RunScenario -> our
// folder and SimAI's files.
#include "run/simai_run.h"

#include <fmt/format.h>

#include <filesystem>
#include <optional>

#include "core/error.h"
#include "net/network.h"
#include "ns3/hpcc_output.h"
#include "output/atomic_file.h"
#include "output/staged_folder.h"
#include "run/job_metrics.h"
#include "run/output_sink.h"
#include "run/rank_refusal.h"
#include "run/simai_end_to_end.h"
#include "scenario/hpcc_config.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"
#include "workload/simai_job.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

// SimAI's result files: each path with the text it gets.
class SimaiFilesSink : public OutputSink {
 public:
  SimaiFilesSink(const Scenario& s, const SimaiWorkload& w, std::string end_to_end,
                 std::string detailed, std::string fct, std::string pfc)
      : s_(s),
        w_(w),
        end_to_end_(std::move(end_to_end)),
        detailed_(std::move(detailed)),
        fct_(std::move(fct)),
        pfc_(std::move(pfc)) {}
  void Write(const Network& net, const RunInfo&, const nlohmann::json&,
             const std::string&) override {
    const std::vector<JobOutcome> jobs = JobOutcomes(s_, net);
    WriteFileAtomic(end_to_end_, SimaiEndToEndCsv(s_, net, 0, jobs[0], w_));
    WriteFileAtomic(detailed_, "");  // SimAI's ns-3 build writes nothing there
    // SimAI's flows are one queue pair each with destination port 100, as HPCC's samples.
    WriteFileAtomic(fct_, HpccFctText(net, std::vector<uint16_t>(s_.flows.size(), 100)));
    WriteFileAtomic(pfc_, HpccPfcText(net));
  }

 private:
  const Scenario& s_;
  const SimaiWorkload& w_;
  std::string end_to_end_, detailed_, fct_, pfc_;
};

}  // namespace

SimaiCommandResult RunSimaiCommand(const SimaiCommandOptions& options) {
  const bool over_ranks = options.ranks != nullptr && options.ranks->ranks() > 1;
  const bool writes = options.ranks == nullptr || options.ranks->rank() == 0;
  Scenario s;
  SimaiWorkload w;
  std::vector<std::string> warnings;
  SimaiCommandResult result;
  std::optional<StagedFolder> folder;
  std::vector<std::string> paths;  // EndToEnd, detailed, FCT, PFC
  std::string refused;
  try {
    HpccSetup setup = LoadSimaiConfig(options.config, options.topology);
    warnings = std::move(setup.warnings);
    w = ReadSimaiWorkload(options.workload);
    setup.scenario.jobs.push_back(SimaiJobConfig(w, options.workload, setup.scenario.topology.hosts,
                                                 options.send_latency, &warnings));
    setup.scenario.name = fs::path(options.workload).stem().string();
    if (setup.scenario.name.empty()) setup.scenario.name = "simai";
    // Through the scenario loader, as a scenario file: the job is checked and expanded there,
    // and --set works as for `dcqcn run`.
    s = LoadScenarioText(ResolvedToml(setup.scenario), options.config + " (as a scenario)",
                         options.sets);
    if (writes) {
      result.out_dir = options.out_dir.empty() ? "results/" + s.name : options.out_dir;
      folder.emplace(result.out_dir, options.force, options.stop);
      const bool nvswitches = s.topology.nvlink_rate > 0 ||
                              (s.topology.nvlink_model == TopologyConfig::NvlinkModel::kPacket &&
                               s.topology.gpus_per_server > 1);
      const int servers_nvswitches = nvswitches ? s.topology.hosts / s.topology.gpus_per_server : 0;
      const std::vector<std::string> names = {
          "ncclFlowModel_EndToEnd.csv",
          fmt::format("ncclFlowModel_detailed_{}.csv", s.topology.hosts + servers_nvswitches),
          setup.fct_output_file, setup.pfc_output_file};
      for (size_t i = 0; i < names.size(); ++i) {
        const std::string name = fs::path(names[i]).filename().string();
        if (!options.out_dir.empty()) {
          paths.push_back((fs::path(folder->path()) / name).string());
          result.simai_files.push_back((fs::path(folder->dir()) / name).string());
        } else {
          // The CSVs in the cwd, the others at the config's paths: said now, not after the run.
          const fs::path folder_of = fs::path(names[i]).parent_path();
          if (!folder_of.empty() && !fs::is_directory(folder_of)) {
            throw InputError(fmt::format(
                "{}: {} names {}, whose folder {} does not exist (SimAI's stock paths are "
                "/etc/astra-sim/...): create it, or give --out DIR for every file",
                options.config, i == 2 ? "FCT_OUTPUT_FILE" : "PFC_OUTPUT_FILE", names[i],
                folder_of.string()));
          }
          paths.push_back(names[i]);
          result.simai_files.push_back(names[i]);
        }
      }
    }
  } catch (const InputError& e) {
    if (!over_ranks) throw;
    refused = e.what();
  }
  if (over_ranks) AgreeBeforeRun(*options.ranks, refused);
  if (!options.quiet && options.note) {
    for (const std::string& line : warnings) options.note("warning: " + line);
  }
  RunOptions run;
  run.stop = options.stop;
  run.threads = options.threads;
  run.placement_from = options.placement_from;
  run.ranks = options.ranks;
  if (!writes) {
    RunScenario(s, run);
    return result;
  }
  run.out_dir = folder->path();
  run.on_progress = options.on_progress;
  SimaiFilesSink files(s, w, paths[0], paths[1], paths[2], paths[3]);
  run.extra_sinks = {&files};
  result.summary = RunScenario(s, run);
  folder->Commit();
  result.out_dir = folder->dir();
  return result;
}

}  // namespace dcqcn
