// The dcqcn command line: run, check, buffer, sweep, report, tune, hpcc and keys.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

#include "analysis/buffer_rules.h"
#include "app/buffer_cli.h"
#include "app/exit_codes.h"
#include "app/fluid_cli.h"
#include "app/port_settings.h"
#include "app/progress_line.h"
#include "app/report_command.h"
#include "app/tune_command.h"
#include "app/whole_number.h"
#include "core/edit_distance.h"
#include "core/error.h"
#include "core/huge_pages.h"
#include "net/network.h"
#include "output/staged_folder.h"
#include "run/fluid_driver.h"
#include "run/hpcc_run.h"
#include "run/mpi_world.h"
#include "run/rank_refusal.h"
#include "run/run_scenario.h"
#include "run/simai_run.h"
#include "run/sweep.h"
#include "scenario/key_reference.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"

namespace {

// --placement-from of `run`, `ns3` and `simai`.
constexpr const char* kPlacementFromHelp =
    "place the nodes on the threads by the work each did in an earlier run of the same topology "
    "(its --out folder; its links.csv), not by their ports: the results are the same, the speed "
    "may not be";

using dcqcn::Scenario;

const char* SignalName(int sig) {
  return sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "SIGINT";
}

// Ctrl-C, SIGTERM or SIGHUP (a closed terminal, a dropped ssh session): the run stops at its
// next slice and writes nothing; the previous results stay as they were.
// The exit status is the shell's for the signal: 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP).
std::atomic<bool> g_stop{false};
std::atomic<int> g_stop_signal{SIGINT};
void RequestStop(int sig) {
  g_stop_signal = sig;
  g_stop = true;
}

// `warn`: print the scenario's warnings (under mpirun, rank 0 alone does).
Scenario Load(const std::string& file, const std::vector<dcqcn::Override>& overrides,
              bool warn = true, const dcqcn::LoadOptions& options = {}) {
  Scenario s = file.empty() ? dcqcn::DefaultScenario(overrides)
                            : dcqcn::LoadScenarioFile(file, overrides, options);
  if (warn) {
    for (const std::string& w : s.warnings) fmt::print(stderr, "warning: {}\n", w);
  }
  return s;
}

// A number of summary.json, or "-" where the statistic is empty (null).
std::string Num(const nlohmann::json& v, double scale = 1, int digits = 2) {
  return v.is_number() ? fmt::format("{:.{}f}", v.get<double>() * scale, digits) : "-";
}

void PrintSummary(const nlohmann::json& j, const std::string& out_dir) {
  // From whole ns, so that the figure rounds as the report's does (one origin: the first start).
  const int64_t start_ns = j["active_start_ns"].get<int64_t>();
  const double start_ms = static_cast<double>(start_ns) / 1e6;
  const double active_ms = static_cast<double>(j["sim_time_ns"].get<int64_t>() - start_ns) / 1e6;
  fmt::print(
      "{}: {} of {} flows finished; {:.3f} ms simulated{} ({:.2f} s wall, {:.2f} M "
      "packet-hops/s)\n",
      j["scenario"].get<std::string>(), j["flows_finished"].get<int>(), j["flows_total"].get<int>(),
      active_ms,
      start_ms > 0 ? fmt::format(" from the first flow's start at {:.3f} ms", start_ms) : "",
      j["wall_time_s"].get<double>(), j["packet_hops_per_s"].get<double>() / 1e6);
  fmt::print("  delivered {:.3f} MB, drops {}, PFC pause frames {}, ECN marks {}, CNPs {}\n",
             j["bytes_delivered"].get<double>() / 1e6, j["drops"].get<uint64_t>(),
             j["pfc_pause_frames"].get<uint64_t>(), j["ecn_marked_packets"].get<uint64_t>(),
             j["cnps"].get<uint64_t>());
  fmt::print("  max queue {:.1f} KB, busiest link {}% utilised, FCT slowdown p50 {} p99 {}\n",
             j["max_queue_bytes"].get<double>() / 1e3, Num(j["max_link_utilisation"], 100, 1),
             Num(j["fct_slowdown"]["p50"]), Num(j["fct_slowdown"]["p99"]));
  const nlohmann::json& tput = j["flow_throughput_gbps"];
  fmt::print("  flow throughput min/mean/max {}/{}/{} Gb/s over {} active flows, Jain {}\n",
             Num(tput["min"]), Num(tput["mean"]), Num(tput["max"]), tput["count"].get<int>(),
             Num(j["jain_fairness"], 1, 4));
  for (const auto& [tag, m] : j["by_tag"].items()) {
    const nlohmann::json& t = m["flow_throughput_gbps"];
    fmt::print("  tag {}: {} flows ({} finished), throughput min/mean/max {}/{}/{} Gb/s, Jain {}\n",
               tag, m["flows"].get<int>(), m["finished"].get<int>(), Num(t["min"]), Num(t["mean"]),
               Num(t["max"]), Num(m["jain_fairness"], 1, 4));
  }
  if (j.contains("collectives")) {
    for (const nlohmann::json& c : j["collectives"]) {
      const nlohmann::json& m = c["mean"];
      fmt::print(
          "  collective {}: {} {} over {} ranks, {} of {} iterations finished, mean {} ms (ideal "
          "{} ms, slowdown {}), busbw {} Gb/s\n",
          c["tag"].get<std::string>(), c["op"].get<std::string>(),
          c["algorithm"].get<std::string>(), c["ranks"].size(), c["finished_iterations"].get<int>(),
          c["iterations"].size(), m.is_null() ? "-" : Num(m["time_ns"], 1e-6, 3),
          Num(c["ideal_time_ns"], 1e-6, 3), m.is_null() ? "-" : Num(m["slowdown"]),
          m.is_null() ? "-" : Num(m["busbw_gbps"], 1, 1));
    }
  }
  const nlohmann::json& conv = j["convergence"];
  if (conv["time_ns"].is_number()) {
    fmt::print("  converged {} ms after the last change of the active flows (at {} ms{})\n",
               Num(conv["time_ns"], 1e-6, 3),
               Num(conv["period_from_ns"].get<int64_t>() - start_ns, 1e-6, 3),
               start_ns > 0 ? " from the first flow's start" : "");
  } else {
    fmt::print("  convergence time: none ({})\n", conv["status"].get<std::string>());
  }
  if (!out_dir.empty()) fmt::print("  results in {}/\n", out_dir);
}

// Where the run layer's messages go on the command line: results on stdout, notes on stderr.
void PrintLine(const std::string& line) { fmt::print("{}\n", line); }
void PrintNote(const std::string& line) { fmt::print(stderr, "{}\n", line); }

// SimAI's AS_SEND_LAT, microseconds from the environment (nullopt: not set).
std::optional<dcqcn::Time> SendLatencyFromEnvironment() {
  const char* text = std::getenv("AS_SEND_LAT");
  if (text == nullptr) return std::nullopt;
  char* end = nullptr;
  const double us = std::strtod(text, &end);
  if (*text == '\0' || *end != '\0' || !(us >= 0 && us <= 1e9)) {
    throw dcqcn::InputError(fmt::format(
        "AS_SEND_LAT (environment): expected a latency in microseconds such as 3, got \"{}\"",
        text));
  }
  return static_cast<dcqcn::Time>(std::llround(us * static_cast<double>(dcqcn::kMicrosecond)));
}

// Under mpirun, `run` and `hpcc` spread one run over the ranks (null: not launched so, or one
// rank). Without --threads each rank runs one thread: place as many ranks on a machine as it
// has cores to give them.
std::unique_ptr<dcqcn::MpiWorld> JoinRunRanks(int* threads) {
  std::unique_ptr<dcqcn::MpiWorld> world = dcqcn::JoinMpiIfLaunched();
  if (world == nullptr || world->size() == 1) return world;
  world->AbortUnlessReleased();
  if (*threads == 0) *threads = 1;
  return world;
}

}  // namespace

int main(int argc, char** argv) {
  // The simulator's state is touched at random: back it with huge pages (core/huge_pages.h).
  dcqcn::EnableHugePages();
  CLI::App app{"dcqcn: a packet-level simulator of RoCEv2 networks with DCQCN, PFC and ECN"};
  app.require_subcommand(1);
  app.set_version_flag("--version", DCQCN_VERSION);

  std::string run_file, out_dir;
  std::vector<std::string> run_sets;
  std::string seed;  // checked by the scenario loader, as the key `seed`
  bool quiet = false;
  CLI::App* run = app.add_subcommand("run", "simulate a scenario (default: the built-in one)");
  run->add_option("scenario", run_file, "scenario TOML file");
  run->add_option("--out", out_dir, "output folder (default results/<scenario name>/)");
  run->add_option("--set", run_sets, "override a scenario key: --set switch.ecn.kmax=400KB");
  run->add_option("--seed", seed, "random seed (overrides the scenario's)");
  run->add_flag("--quiet", quiet, "print nothing but errors");
  bool stop_on_deadlock = false;
  run->add_flag("--stop-on-deadlock", stop_on_deadlock,
                "end the run at the first PFC deadlock (output.deadlock_time)");
  bool check_invariants = false;
  run->add_flag("--check-invariants", check_invariants,
                "verify packet conservation and buffer accounting every 1024 events (slower)");
  int run_threads = 0;  // RunOptions: 0 = AutoThreads
  run->add_option("--threads", run_threads,
                  "split the run over N threads (racks); the results are the same for any N "
                  "(default: every core from 256 hosts on, else 1)")
      ->check(dcqcn::WholeNumberAtLeast(1, " (or omit it for automatic)"));
  std::string placement_from;
  run->add_option("--placement-from", placement_from, kPlacementFromHelp);
  bool force = false;
  run->add_flag("--force", force,
                "replace an --out folder even if it holds files that are not a dcqcn result");

  std::string check_file;
  std::vector<std::string> check_sets;
  CLI::App* check = app.add_subcommand("check", "validate a scenario and print it resolved");
  check->add_option("scenario", check_file, "scenario TOML file")->required();
  check->add_option("--set", check_sets, "override a scenario key");
  bool check_ports = false;
  check->add_flag("--ports", check_ports,
                  "list every switch port with its link, ECN thresholds, PFC alpha and headroom");

  dcqcn::BufferOptions buffer_opts;
  CLI::App* buffer = dcqcn::AddBufferCommand(app, buffer_opts);

  dcqcn::SweepOptions sweep_opts;
  CLI::App* sweep = app.add_subcommand(
      "sweep", "run a scenario over every combination of parameter values; one table");
  sweep->add_option("scenario", sweep_opts.scenario, "scenario TOML file (default: built-in)");
  sweep->add_option("--vary", sweep_opts.vary, "KEY=V1,V2,...: values to sweep (repeatable)");
  sweep->add_option("--set", sweep_opts.sets, "override a scenario key in every run");
  sweep
      ->add_option("--seeds", sweep_opts.seeds,
                   "N: repeat every point with seed = 1..N; sweep_mean.csv: mean and 95% CI")
      ->check(dcqcn::WholeNumberAtLeast(1, " (or omit it: one run per point)"));
  sweep->add_option("--out", sweep_opts.out_dir, "output folder (default results/<name>-sweep/)");
  sweep->add_option("--jobs", sweep_opts.jobs, "runs in parallel (default 1)")
      ->check(dcqcn::WholeNumberAtLeast(1));
  sweep
      ->add_option("--threads", sweep_opts.threads,
                   "split each run over N threads (default: every core from 256 hosts on, shared "
                   "by the --jobs runs; else 1); the results are the same for any N")
      ->check(dcqcn::WholeNumberAtLeast(1, " (or omit it for automatic)"));
  sweep->add_flag("--quiet", sweep_opts.quiet, "print nothing but errors");
  sweep->add_flag("--force", sweep_opts.force,
                  "replace an --out folder even if it holds files that are not a dcqcn result");
  sweep->add_option("--shard", sweep_opts.shard,
                    "K/N: run only shard K of N (runs K-1, K-1+N, ...); `sweep merge` joins them");
  sweep->add_flag("--resume", sweep_opts.resume,
                  "finish an interrupted sweep (OUT.unfinished): run only the runs not finished");
  dcqcn::SweepMergeOptions merge_opts;
  CLI::App* merge = sweep->add_subcommand(
      "merge", "join the folders of `sweep --shard K/N` (all N) into one sweep folder");
  merge->add_option("out", merge_opts.out_dir, "the sweep folder to write")->required();
  merge->add_option("dirs", merge_opts.shard_dirs, "the shards' folders")->required();
  merge->add_flag("--quiet", merge_opts.quiet, "print nothing but errors");
  merge->add_flag("--force", merge_opts.force,
                  "replace OUT even if it holds files that are not a dcqcn result");

  dcqcn::ReportOptions report_opts;
  CLI::App* report = app.add_subcommand(
      "report", "figures and an HTML page from a run's or a sweep's output folder");
  report->add_option("dir", report_opts.dir, "output folder of `dcqcn run` or `dcqcn sweep`")
      ->required();
  report->add_flag("--runs", report_opts.runs,
                   "sweep folder: also report each run (runs/NNN/report/), linked from the table");
  report->add_option("--format", report_opts.formats,
                     "figure formats, comma-separated: png, svg, pdf (default png)");
  report->add_option("--flows", report_opts.flows,
                     "flow ids (e.g. 0,3,7) drawn in the rate and throughput figures");
  report->add_option("--tags", report_opts.tags,
                     "flow tags (e.g. victim,incast) whose flows are drawn in the rate and "
                     "throughput figures");

  CLI::App* tune = app.add_subcommand(
      "tune",
      "search a scenario's settings with real runs (Optuna); `dcqcn tune --help` lists the "
      "flags");
  // Every argument goes to the search's own command line (python/dcqcn/tune_command.py).
  tune->prefix_command();
  tune->set_help_flag();

  dcqcn::HpccCommandOptions hpcc_opts;
  // ns-3 compatibility: a drop-in for HPCC's ns-3 simulator (`hpcc`, its first name, still works).
  CLI::App* hpcc = app.add_subcommand("ns3",
                                      "run an HPCC ns-3 simulator config.txt (a drop-in for that "
                                      "simulator); write its FCT and PFC files and ours");
  hpcc->alias("hpcc");
  hpcc->add_option("config", hpcc_opts.config, "config.txt (its paths are relative to the cwd)")
      ->required();
  hpcc->add_option("--out", hpcc_opts.out_dir,
                   "output folder, also for the FCT and PFC files (default results/<config "
                   "stem>/, and the config's paths)");
  hpcc->add_flag("--quiet", hpcc_opts.quiet, "print nothing but errors");
  hpcc->add_option("--threads", hpcc_opts.threads,
                   "split the run over N threads (racks); the results are the same for any N "
                   "(default: every core from 256 hosts on, else 1)")
      ->check(dcqcn::WholeNumberAtLeast(1, " (or omit it for automatic)"));
  hpcc->add_option("--placement-from", hpcc_opts.placement_from, kPlacementFromHelp);
  hpcc->add_option("--model", hpcc_opts.model,
                   "hpcc (default): that simulator's wire format and timing; native: ours")
      ->check(CLI::IsMember({"hpcc", "native"}));
  hpcc->add_option("--set", hpcc_opts.sets,
                   "override a scenario key on top of the config, e.g. "
                   "--set 'output.timeseries=[\"queue\",\"throughput\"]'");
  hpcc->add_flag("--force", hpcc_opts.force,
                 "replace an --out folder even if it holds files that are not a dcqcn result");

  dcqcn::SimaiCommandOptions simai_opts;
  int simai_threads_ignored = 0;
  // SimAI compatibility: a drop-in for SimAI's packet-level SimAI_simulator.
  CLI::App* simai = app.add_subcommand(
      "simai",
      "run a SimAI workload on a SimAI topology with a SimAI.conf as SimAI's ns-3 backend runs "
      "them (AS_SEND_LAT, in microseconds, from the environment as SimAI reads it); write "
      "ncclFlowModel_EndToEnd.csv, its FCT and PFC files and ours");
  simai->add_option("-w,--workload", simai_opts.workload, "SimAI workload file (AICB's format)")
      ->required();
  simai->add_option("-n,--topology", simai_opts.topology, "SimAI topology file")->required();
  simai->add_option("-c,--config", simai_opts.config, "SimAI.conf")->required();
  simai->add_option("-t", simai_threads_ignored,
                    "SimAI's thread count, accepted and ignored (use --threads)");
  simai->add_option("--out", simai_opts.out_dir,
                    "output folder, also for SimAI's files (default results/<workload stem>/, "
                    "the CSVs in the current folder and the FCT and PFC files at the config's "
                    "paths)");
  simai->add_flag("--quiet", simai_opts.quiet, "print nothing but errors");
  simai
      ->add_option("--threads", simai_opts.threads,
                   "split the run over N threads (racks); the results are the same for any N")
      ->check(dcqcn::WholeNumberAtLeast(1, " (or omit it for automatic)"));
  simai->add_option("--placement-from", simai_opts.placement_from, kPlacementFromHelp);
  simai->add_option("--set", simai_opts.sets,
                    "override a scenario key on top of what the files give, e.g. --set "
                    "job.0.step_done=delivered");
  simai->add_flag("--force", simai_opts.force,
                  "replace an --out folder even if it holds files that are not a dcqcn result");

  dcqcn::FluidCommandOptions fluid_opts;
  CLI::App* fluid = dcqcn::AddFluidCommand(app, fluid_opts);

  CLI::App* keys = app.add_subcommand(
      "keys", fmt::format("print every scenario key with its type, default and meaning "
                          "(Markdown; committed as {})",
                          dcqcn::kKeyReferencePath));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // A misspelt command reaches CLI11 as an extra argument, and it reports only that a
    // subcommand is missing: name the word and the nearest command instead.
    std::vector<std::string> names;
    bool known = false;
    for (const CLI::App* c : app.get_subcommands([](const CLI::App*) { return true; })) {
      names.push_back(c->get_name());
      known = known || (argc > 1 && c->check_name(argv[1]));
    }
    if (argc > 1 && argv[1][0] != '-' && !known) {
      fmt::print(stderr, "error: unknown command \"{}\"{} (commands: {})\n", argv[1],
                 dcqcn::DidYouMean(argv[1], names), fmt::join(names, ", "));
      fmt::print(stderr, "Run with --help for more information.\n");
      return 2;
    }
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  if (*keys) {
    fmt::print("{}", dcqcn::KeyReferenceMarkdown());
    return 0;
  }

  // Outlives the error messages below: a rank 0 that fails midway reports, then aborts the
  // ranks still working.
  std::unique_ptr<dcqcn::MpiWorld> mpi_world;
  const bool stoppable = *run || *sweep || *hpcc || *simai || *fluid;
  if (stoppable) {
    std::signal(SIGINT, RequestStop);
    std::signal(SIGTERM, RequestStop);
    std::signal(SIGHUP, RequestStop);
  }
  // A stop that came once the results were committed (while the summary printed) still ends
  // the command as interrupted; what it wrote is whole.
  auto stopped_after = [&](int code) {
    if (!stoppable || !g_stop || code != 0) return code;
    if (mpi_world == nullptr || mpi_world->rank() == 0) {
      fmt::print(stderr, "interrupted ({}) after the results were written\n",
                 SignalName(g_stop_signal));
    }
    return 128 + g_stop_signal;
  };
  try {
    if (*run) {
      // Under mpirun the ranks spread this one run over them; rank 0 writes and reports. They
      // join first, so that an input they all refuse is reported once, by rank 0.
      mpi_world = JoinRunRanks(&run_threads);
      const bool reports = mpi_world == nullptr || mpi_world->rank() == 0;
      std::vector<dcqcn::Override> overrides;
      for (const std::string& set : run_sets) overrides.emplace_back(set);
      // After the --set ones, so that it wins; its errors name --seed.
      if (!seed.empty()) overrides.emplace_back("seed=" + seed, "--seed " + seed);
      std::optional<Scenario> s;
      std::optional<dcqcn::StagedFolder> folder;
      std::string refused;
      try {
        s = Load(run_file, overrides, reports);
        if (out_dir.empty()) out_dir = "results/" + s->name;
        if (reports) folder.emplace(out_dir, force, &g_stop);
      } catch (const dcqcn::InputError& e) {
        if (mpi_world == nullptr || mpi_world->size() == 1) throw;
        refused = e.what();
      }
      if (mpi_world != nullptr && mpi_world->size() > 1) {
        dcqcn::AgreeBeforeRun(*mpi_world, refused);
      }
      if (!quiet && reports) {
        for (const std::string& w : dcqcn::BufferWarnings(*s))
          fmt::print(stderr, "warning: {}\n", w);
      }
      dcqcn::RunOptions options;
      options.stop = &g_stop;
      options.check_invariants = check_invariants;
      options.stop_on_deadlock = stop_on_deadlock;
      options.threads = run_threads;
      options.placement_from = placement_from;
      options.ranks = mpi_world.get();
      if (!reports) {
        dcqcn::RunScenario(*s, options);
        mpi_world->ReleasedRanks();
        return 0;
      }
      options.out_dir = folder->path();
      dcqcn::ProgressLine progress(!quiet && isatty(STDERR_FILENO));
      options.on_progress = [&](const dcqcn::RunProgress& p) { progress.Update(p); };
      nlohmann::json summary = dcqcn::RunScenario(*s, options);
      progress.Finish();
      folder->Commit();
      if (mpi_world != nullptr) mpi_world->ReleasedRanks();
      if (!quiet) PrintSummary(summary, folder->dir());
    } else if (*merge) {
      merge_opts.say = PrintLine;
      merge_opts.note = PrintNote;
      return dcqcn::SweepExitCode(dcqcn::RunSweepMergeCommand(merge_opts), PrintNote);
    } else if (*sweep) {
      sweep_opts.stop = &g_stop;
      sweep_opts.say = PrintLine;
      sweep_opts.note = PrintNote;
      // Under mpirun every rank runs this; rank 0 reports (run/sweep_ranks.h).
      mpi_world = dcqcn::JoinMpiIfLaunched();
      sweep_opts.world = mpi_world.get();
      return stopped_after(dcqcn::SweepExitCode(dcqcn::RunSweepCommand(sweep_opts), PrintNote));
    } else if (*report) {
      return dcqcn::RunReportCommand(report_opts);
    } else if (*tune) {
      return dcqcn::RunTuneCommand(tune->remaining());
    } else if (*hpcc) {
      mpi_world = JoinRunRanks(&hpcc_opts.threads);
      hpcc_opts.ranks = mpi_world.get();
      if (mpi_world != nullptr && mpi_world->rank() != 0) {
        hpcc_opts.quiet = true;
        dcqcn::RunHpccCommand(hpcc_opts);
        mpi_world->ReleasedRanks();
        return 0;
      }
      dcqcn::ProgressLine progress(!hpcc_opts.quiet && isatty(STDERR_FILENO));
      hpcc_opts.on_progress = [&](const dcqcn::RunProgress& p) { progress.Update(p); };
      hpcc_opts.stop = &g_stop;
      hpcc_opts.note = PrintNote;
      dcqcn::HpccCommandResult r = dcqcn::RunHpccCommand(hpcc_opts);
      progress.Finish();
      if (mpi_world != nullptr) mpi_world->ReleasedRanks();
      if (!hpcc_opts.quiet) {
        PrintSummary(r.summary, r.out_dir);
        fmt::print("  HPCC-format FCT file {}, PFC file {}\n", r.fct_file, r.pfc_file);
      }
    } else if (*simai) {
      const std::optional<dcqcn::Time> send_latency = SendLatencyFromEnvironment();
      simai_opts.send_latency = send_latency.value_or(0);
      if (!send_latency && !simai_opts.quiet) {
        PrintNote(
            "note: AS_SEND_LAT is not set: transfers start without it, after SimAI's 10 ns "
            "MemBus hop alone (SimAI's own default differs by version; set it as for SimAI, in "
            "microseconds)");
      }
      mpi_world = JoinRunRanks(&simai_opts.threads);
      simai_opts.ranks = mpi_world.get();
      if (mpi_world != nullptr && mpi_world->rank() != 0) {
        simai_opts.quiet = true;
        dcqcn::RunSimaiCommand(simai_opts);
        mpi_world->ReleasedRanks();
        return 0;
      }
      dcqcn::ProgressLine progress(!simai_opts.quiet && isatty(STDERR_FILENO));
      simai_opts.on_progress = [&](const dcqcn::RunProgress& p) { progress.Update(p); };
      simai_opts.stop = &g_stop;
      simai_opts.note = PrintNote;
      dcqcn::SimaiCommandResult r = dcqcn::RunSimaiCommand(simai_opts);
      progress.Finish();
      if (mpi_world != nullptr) mpi_world->ReleasedRanks();
      if (!simai_opts.quiet) {
        PrintSummary(r.summary, r.out_dir);
        fmt::print("  SimAI's files: {}\n", fmt::join(r.simai_files, ", "));
      }
    } else if (*check) {
      // A collective's and a job's flows are counted, not built: a 16,384-GPU AllReduce checks
      // in seconds.
      Scenario s =
          Load(check_file, std::vector<dcqcn::Override>(check_sets.begin(), check_sets.end()), true,
               dcqcn::LoadOptions{.build_collectives_and_jobs = false});
      dcqcn::Network net(dcqcn::ToNetworkConfig(s));  // topology, routes and buffers must build too
      fmt::print("{}", dcqcn::ResolvedToml(s));
      auto count = [](size_t n, const char* one, const char* many) {
        return fmt::format("{} {}", n, n == 1 ? one : many);
      };
      size_t waiting = 0;
      for (uint32_t id = 0; id < s.flows.size(); ++id) waiting += s.flow_after.waits(id) ? 1 : 0;
      const uint64_t collective_flows = s.collective_flow_total();
      const uint64_t job_flows = s.job_flow_total();
      std::vector<std::string> sources;
      if (!s.collectives.empty()) {
        sources.push_back(count(s.collectives.size(), "collective", "collectives"));
      }
      if (!s.jobs.empty()) sources.push_back(count(s.jobs.size(), "job", "jobs"));
      fmt::print(
          stderr, "{}: ok ({}, {}, {}{}{})\n", check_file, count(s.topology.hosts, "host", "hosts"),
          count(s.topology.switches, "switch", "switches"),
          count(s.flows.size() + collective_flows + job_flows, "flow", "flows"),
          waiting > 0 ? fmt::format(", {} waiting for others", waiting) : "",
          sources.empty() ? ""
                          : fmt::format(", {} of them from {}, counted but not built",
                                        collective_flows + job_flows, fmt::join(sources, " and ")));
      fmt::print(stderr, "{}", dcqcn::PortSettingsText(net, check_ports));
      for (const std::string& w : dcqcn::BufferWarnings(s)) fmt::print(stderr, "warning: {}\n", w);
      for (const std::string& w : net.RouteLoops()) fmt::print(stderr, "warning: {}\n", w);
      if (const std::string why = dcqcn::OneThreadOnly(s); !why.empty()) {
        fmt::print(stderr, "note: {} (--threads is not used)\n", why);
      }
    } else if (*fluid) {
      std::vector<std::string> warnings;
      std::string text;
      fluid_opts.stop = &g_stop;
      if (fluid_opts.map) {
        text = dcqcn::RunFluidMap(fluid_opts, &warnings);
      } else {
        const nlohmann::json summary = dcqcn::RunFluidCommand(fluid_opts, &warnings);
        text = dcqcn::FluidSummaryText(summary, fluid_opts.out_dir);
      }
      if (!fluid_opts.quiet) {
        for (const std::string& w : warnings) fmt::print(stderr, "warning: {}\n", w);
        fmt::print("{}", text);
      }
    } else if (*buffer) {
      fmt::print("{}", dcqcn::BufferReport(buffer_opts));
    }
  } catch (const dcqcn::RefusedOnEveryRank& e) {
    // Every rank knows it: each ends with MPI_Finalize, not MPI_Abort; rank 0 reports it.
    if (mpi_world != nullptr) mpi_world->ReleasedRanks();
    if (mpi_world != nullptr && mpi_world->rank() != 0) return 1;
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  } catch (const dcqcn::InputError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  } catch (const dcqcn::Interrupted& e) {
    // Every rank of one run stops at the same slice: they finish together, none aborts.
    if (mpi_world != nullptr && (*run || *hpcc || *simai)) mpi_world->ReleasedRanks();
    if (mpi_world != nullptr && mpi_world->rank() != 0) return 128 + g_stop_signal;
    fmt::print(stderr, "{} ({})\n", e.what(), SignalName(g_stop_signal));
    return 128 + g_stop_signal;
  } catch (const dcqcn::InvariantError& e) {
    fmt::print(stderr, "internal error (invariant violated, please report): {}\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  }
  return stopped_after(0);
}
