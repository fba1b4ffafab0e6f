// Parameter sweeps: expand the --vary lists, run every combination (optionally in parallel, or
// one deterministic shard of them), and write sweep.csv with one row per run; join shards.
#include "run/sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "cc/registry.h"
#include "core/error.h"
#include "core/input_file.h"
#include "output/atomic_file.h"
#include "output/mean_ci.h"
#include "output/resumable_folder.h"
#include "output/staged_folder.h"
#include "run/mpi_world.h"
#include "run/parallel_for.h"
#include "run/run_scenario.h"
#include "run/sweep_plan.h"
#include "run/sweep_ranks.h"
#include "run/sweep_run_folder.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

// The run layer never prints: its messages go to the caller's callbacks, one line each.
template <class Options>
void Say(const Options& options, const std::string& line) {
  if (options.say) options.say(line);
}
void Note(const SweepOptions& options, const std::string& line) {
  if (options.note) options.note(line);
}

// A value as one CSV cell (quoted when it holds a comma or a quote).
std::string CsvCell(const std::string& v) {
  if (v.find_first_of(",\"\n") == std::string::npos) return v;
  std::string out = "\"";
  for (char c : v) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Looks up "a.b.c" in a summary; empty when absent or null.
std::string Metric(const nlohmann::json& j, const std::string& path) {
  const nlohmann::json* node = &j;
  size_t start = 0;
  while (start <= path.size()) {
    size_t dot = path.find('.', start);
    if (dot == std::string::npos) dot = path.size();
    std::string part = path.substr(start, dot - start);
    if (!node->is_object() || !node->contains(part)) return "";
    node = &(*node)[part];
    start = dot + 1;
  }
  if (node->is_null()) return "";
  if (node->is_string()) return node->get<std::string>();
  return node->dump();
}

}  // namespace

std::vector<std::string> SweepColumns() {
  return {"flows_total",
          "flows_finished",
          "sim_time_ns",
          "max_link_utilisation",
          "bottleneck.utilisation",
          "bottleneck.mean_queue_bytes",
          "bottleneck.std_queue_bytes",
          "max_queue_bytes",
          "pfc_pause_frames",
          "drops",
          "nacks",
          "retransmitted_packets",
          "out_of_order_packets",
          "ecn_marked_packets",
          "cnps",
          "cc.rate_cuts",
          "fct_slowdown.p50",
          "fct_slowdown.p99",
          "flow_throughput_gbps.min",
          "flow_throughput_gbps.mean",
          "flow_throughput_gbps.max",
          "jain_fairness",
          "convergence_time_ns",
          "wall_time_s"};
}

std::vector<std::string> SweepCollectiveColumns() {
  return {"finished_iterations", "mean.time_ns", "mean.busbw_gbps", "mean.slowdown",
          "ideal_time_ns"};
}

std::vector<std::string> SweepTagColumns() {
  return {"flows",
          "finished",
          "flow_throughput_gbps.min",
          "flow_throughput_gbps.mean",
          "flow_throughput_gbps.max",
          "jain_fairness",
          "fct_slowdown.p50",
          "fct_slowdown.p99"};
}

namespace {

// How one run ended: its summary, or the error that stopped it.
struct RunOutcome {
  nlohmann::json summary;
  std::string error;
  bool invariant_broken = false;  // the error was a broken invariant (a bug: exit code 3)
  std::string name;               // the run's scenario name, for progress lines
};

// The metric columns of the runs `indices`: the headline ones, then the per-tag ones of every
// tag any of those runs reported, in name order.
std::vector<std::string> MetricColumns(const std::vector<size_t>& indices,
                                       const std::vector<RunOutcome>& outcomes) {
  std::set<std::string> tags;
  std::set<std::string> collectives;
  for (size_t i : indices) {
    const nlohmann::json& summary = outcomes[i].summary;
    if (!summary.contains("by_tag")) continue;  // a failed run
    for (const auto& [tag, metrics] : summary["by_tag"].items()) tags.insert(tag);
    if (summary.contains("collectives")) {
      for (const nlohmann::json& c : summary["collectives"]) {
        collectives.insert(c["tag"].get<std::string>());
      }
    }
  }
  std::vector<std::string> columns = SweepColumns();
  for (const std::string& tag : tags) {
    for (const std::string& c : SweepTagColumns()) columns.push_back("tag." + tag + "." + c);
  }
  for (const std::string& tag : collectives) {
    for (const std::string& c : SweepCollectiveColumns()) {
      columns.push_back("collective." + tag + "." + c);
    }
  }
  return columns;
}

// A metric column's value in a run's summary: "tag.<tag>.<path>" is by_tag.<tag>.<path>,
// "collective.<tag>.<path>" the <path> of the collective of that tag.
std::string MetricOf(const nlohmann::json& summary, const std::string& column) {
  if (column.rfind("collective.", 0) == 0) {
    const size_t dot = column.find('.', 11);
    const std::string tag = column.substr(11, dot - 11);
    if (!summary.contains("collectives")) return "";
    for (const nlohmann::json& c : summary["collectives"]) {
      if (c["tag"] == tag) return Metric(c, column.substr(dot + 1));
    }
    return "";
  }
  return Metric(summary, column.rfind("tag.", 0) == 0 ? "by_tag." + column.substr(4) : column);
}

// sweep.csv: the rows of the runs `indices`, in that order, one column per metric.
std::string SweepCsv(const SweepPlan& plan, const std::vector<size_t>& indices,
                     const std::vector<RunOutcome>& outcomes) {
  const std::vector<std::string> columns = MetricColumns(indices, outcomes);
  std::string csv = "run,dir";
  for (const Axis& axis : plan.axes) csv += "," + CsvCell(axis.key);
  for (const std::string& c : columns) csv += "," + CsvCell(c);
  csv += ",error\n";
  for (size_t i : indices) {
    const RunOutcome& o = outcomes[i];
    csv += o.error.empty() ? fmt::format("{},runs/{:03}", i, i) : fmt::format("{},", i);
    for (const std::string& v : plan.combos[i]) csv += "," + CsvCell(v);
    for (const std::string& c : columns) csv += "," + CsvCell(MetricOf(o.summary, c));
    csv += "," + CsvCell(o.error) + "\n";
  }
  return csv;
}

// sweep_mean.csv, when `seed` is a varied key: one row per point (the other keys' values, in
// sweep order) with the number of seeds that ran and failed, and for each metric the mean over
// the seeds and the half-width of its 95% confidence interval (output/mean_ci.h; empty when
// fewer than two seeds gave a value). "" when no seed is varied.
std::string SweepMeanCsv(const SweepPlan& plan, const std::vector<size_t>& indices,
                         const std::vector<RunOutcome>& outcomes) {
  size_t seed_axis = plan.axes.size();
  for (size_t a = 0; a < plan.axes.size(); ++a) {
    if (plan.axes[a].key == "seed") seed_axis = a;
  }
  if (seed_axis == plan.axes.size()) return "";
  // The points in the order their first run appears.
  std::vector<std::vector<std::string>> points;
  std::map<std::vector<std::string>, std::vector<size_t>> runs_of;
  for (size_t i : indices) {
    std::vector<std::string> point = plan.combos[i];
    point.erase(point.begin() + static_cast<std::ptrdiff_t>(seed_axis));
    if (!runs_of.count(point)) points.push_back(point);
    runs_of[point].push_back(i);
  }
  const std::vector<std::string> columns = MetricColumns(indices, outcomes);
  std::string csv;
  for (size_t a = 0; a < plan.axes.size(); ++a) {
    if (a != seed_axis) csv += CsvCell(plan.axes[a].key) + ",";
  }
  csv += "seeds,failed";
  for (const std::string& c : columns)
    csv += "," + CsvCell(c + ".mean") + "," + CsvCell(c + ".ci95");
  csv += "\n";
  auto number = [](double v) { return std::isfinite(v) ? fmt::format("{}", v) : std::string(); };
  for (const auto& point : points) {
    const std::vector<size_t>& runs = runs_of[point];
    size_t failed = 0;
    for (size_t i : runs) failed += !outcomes[i].error.empty();
    for (const std::string& v : point) csv += CsvCell(v) + ",";
    csv += fmt::format("{},{}", runs.size() - failed, failed);
    for (const std::string& c : columns) {
      std::vector<double> values;
      for (size_t i : runs) {
        const std::string v = MetricOf(outcomes[i].summary, c);
        if (v.empty()) continue;
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        if (end != v.c_str() && *end == '\0') values.push_back(d);  // numbers only
      }
      const MeanCi m = MeanCi95(values);
      csv += "," + number(m.mean) + "," + number(m.half_width);
    }
    csv += "\n";
  }
  return csv;
}

// sweep.csv, and sweep_mean.csv when seeds are varied, into `folder`.
void WriteSweepTables(const std::string& folder, const SweepPlan& plan,
                      const std::vector<size_t>& indices, const std::vector<RunOutcome>& outcomes) {
  WriteFileAtomic(folder + "/sweep.csv", SweepCsv(plan, indices, outcomes));
  const std::string mean = SweepMeanCsv(plan, indices, outcomes);
  if (!mean.empty()) WriteFileAtomic(folder + "/sweep_mean.csv", mean);
}

// What the runs `indices` came to.
SweepResult ResultOf(const std::vector<size_t>& indices, const std::vector<RunOutcome>& outcomes) {
  SweepResult r;
  r.runs = indices.size();
  for (size_t i : indices) {
    r.failed += !outcomes[i].error.empty();
    r.invariant_broken = r.invariant_broken || outcomes[i].invariant_broken;
  }
  return r;
}

// "K/N" with 1 <= K <= N.
std::pair<size_t, size_t> ParseShard(const std::string& text) {
  size_t k = 0;
  size_t n = 0;
  char slash = 0;
  char extra = 0;
  const int got = std::sscanf(text.c_str(), "%zu%c%zu%c", &k, &slash, &n, &extra);
  if (got != 3 || slash != '/' || k < 1 || n < 1 || k > n || n > kMaxSweepRuns ||
      text.find_first_not_of("0123456789/") != std::string::npos) {
    throw InputError(fmt::format("--shard {}: expected K/N with 1 <= K <= N <= {}, such as 2/8",
                                 text, kMaxSweepRuns));
  }
  return {k, n};
}

// Every sweep folder describes its sweep here: what `--resume` and `sweep merge` check.
constexpr const char* kSweepFile = "sweep.json";
constexpr const char* kSweepFormat = "dcqcn sweep 1";

std::string RunDir(size_t i) { return fmt::format("runs/{:03}", i); }

// The sweep a folder holds: sweep.json without its results ("failed").
nlohmann::json DescribeSweep(const SweepOptions& options, const SweepPlan& plan, size_t runs,
                             size_t shard, size_t shards) {
  return {{"format", kSweepFormat},
          {"scenario", options.scenario},
          {"scenario_fnv1a64", plan.scenario_digest},
          {"vary", options.vary},
          {"sets", options.sets},
          {"seeds", options.seeds},
          {"runs", runs},
          {"shard", shard},
          {"shards", shards}};
}

// sweep.json's "failed": the errors of the runs that failed (they have no folder).
nlohmann::json FailedRuns(const std::vector<size_t>& indices,
                          const std::vector<RunOutcome>& outcomes) {
  nlohmann::json failed = nlohmann::json::object();
  for (size_t i : indices) {
    if (outcomes[i].error.empty()) continue;
    failed[std::to_string(i)] = {{"error", outcomes[i].error},
                                 {"invariant_broken", outcomes[i].invariant_broken}};
  }
  return failed;
}

// A failed run's outcome from its entry in "failed" (FailedRuns' inverse).
RunOutcome FailedOutcome(const nlohmann::json& entry) {
  return {nlohmann::json(), entry.value("error", ""), entry.value("invariant_broken", false), ""};
}

// A run's outcome as the bytes a rank sends to rank 0, and back.
std::string EncodeOutcome(const RunOutcome& o) {
  return nlohmann::json{{"summary", o.summary},
                        {"error", o.error},
                        {"invariant_broken", o.invariant_broken},
                        {"name", o.name}}
      .dump();
}
RunOutcome DecodeOutcome(const std::string& bytes) {
  const nlohmann::json j = nlohmann::json::parse(bytes);
  return {j["summary"], j["error"].get<std::string>(), j["invariant_broken"].get<bool>(),
          j["name"].get<std::string>()};
}

// Run `i`'s scenario: the sweep's scenario with the run's overrides, named after them.
Scenario LoadRun(const SweepOptions& options, const SweepPlan& plan, size_t i) {
  Scenario s = options.scenario.empty()
                   ? DefaultScenario(plan.run_sets[i])
                   : LoadScenarioText(plan.scenario_text, options.scenario, plan.run_sets[i]);
  s.name += "_" + plan.suffixes[i];
  return s;
}

// Runs run `i` into `sweep_folder`/runs/NNN (`scenario`: its scenario if already loaded). A
// failed run is an outcome with its error; throws Interrupted.
RunOutcome RunOne(const SweepOptions& options, const SweepPlan& plan, size_t i,
                  const std::string& sweep_folder, std::optional<Scenario> scenario) {
  RunOutcome outcome;
  try {
    // Staged like any run's folder: runs/NNN exists only once that run is complete.
    StagedFolder run_folder(sweep_folder + "/" + RunDir(i), false, options.stop);
    RunOptions run;
    run.stop = options.stop;
    run.out_dir = run_folder.path();
    const Scenario s = scenario ? std::move(*scenario) : LoadRun(options, plan, i);
    run.threads = options.threads;
    run.runs_at_once = options.jobs;
    outcome.name = s.name;
    outcome.summary = RunScenario(s, run);
    run_folder.Commit();
  } catch (const Interrupted&) {
    throw;
  } catch (const std::exception& e) {
    // A failed run is a row with its error; the others go on.
    outcome.error = e.what();
    outcome.invariant_broken = dynamic_cast<const InvariantError*>(&e) != nullptr;
  }
  return outcome;
}

// A run's outcome from its folder (a run an earlier process finished), checked against the plan.
RunOutcome OutcomeFromFolder(const std::string& run_dir, const SweepPlan& plan, size_t i) {
  return {ReadRunFolder(run_dir, plan, i), "", false, ""};
}

// The runs of `todo` on `jobs` threads of this process; false when one was interrupted (no run
// starts after that).
bool RunOnThreads(const std::vector<size_t>& todo, int jobs,
                  const std::function<std::optional<RunOutcome>(size_t)>& run,
                  const std::function<void(size_t, RunOutcome)>& done) {
  std::mutex mutex;
  return ParallelFor(todo.size(), jobs, [&](size_t k) {
    std::optional<RunOutcome> outcome = run(todo[k]);
    if (!outcome) return false;
    std::lock_guard<std::mutex> lock(mutex);
    done(todo[k], std::move(*outcome));
    return true;
  });
}

// The sweep run by this process: alone, on --jobs threads, or as rank 0 of an MPI launch.
SweepResult SweepHere(const SweepOptions& options) {
  MpiWorld* world = options.world;
  if (options.jobs < 1) throw InputError("sweep: --jobs must be at least 1");
  if (world != nullptr && options.jobs > 1) {
    throw InputError(
        "sweep: --jobs under an MPI launcher: each rank runs one run at a time, so start one "
        "rank per core (mpirun -np N) instead");
  }
  SweepPlan plan = PlanSweep(options.vary, options.sets, options.seeds);
  ReadScenarioOnce(options.scenario, plan);
  const size_t runs = plan.combos.size();
  const bool sharded = !options.shard.empty();
  const auto [shard, shards] =
      sharded ? ParseShard(options.shard) : std::pair<size_t, size_t>{1, 1};
  // Round robin, so that each shard gets runs from every part of the grid.
  std::vector<size_t> mine;
  for (size_t i = shard - 1; i < runs; i += shards) mine.push_back(i);
  if (mine.empty()) {
    throw InputError(fmt::format("--shard {}: the sweep has {} runs, so shard {} would run none",
                                 options.shard, runs, shard));
  }

  // Each run's scenario is loaded when it runs, so a large sweep neither holds every scenario in
  // memory nor waits to load them all. Run 0 is loaded now, by every shard: it names the sweep
  // and catches an error common to every run before anything starts, as in the whole sweep.
  std::optional<Scenario> first = LoadRun(options, plan, 0);
  const std::string base_name = first->name;
  // Every other run's values are checked too before anything runs or is written (the scenario
  // is loaded, and its [cc] resolved as building its network will), so that a value that fits
  // no run stops the sweep now, not after the runs before it. Each is dropped once checked.
  ResolveCc(*first);
  for (size_t i : mine) {
    if (i == 0) continue;
    try {
      const Scenario s = LoadRun(options, plan, i);
      ResolveCc(s);
    } catch (const InputError& e) {
      throw InputError(fmt::format("sweep run {} ({}): {}", i, plan.suffixes[i], e.what()));
    }
  }
  std::string out_dir = options.out_dir;
  if (out_dir.empty()) {
    out_dir = "results/" + base_name.substr(0, base_name.find('_')) + "-sweep";
    if (sharded) out_dir += fmt::format("-shard{}of{}", shard, shards);
  }
  const nlohmann::json description = DescribeSweep(options, plan, runs, shard, shards);
  if (options.resume && !std::filesystem::exists(ResumableFolder::WorkPath(out_dir))) {
    // Nothing unfinished: the sweep may have ended already.
    const std::string done_file = out_dir + "/" + kSweepFile;
    if (std::filesystem::exists(done_file)) {
      const nlohmann::json done = nlohmann::json::parse(
          ReadInputFile(done_file, "a sweep's description", 1 << 30), nullptr, false);
      if (FirstDifferentKey(description, done, {}).empty() && done.contains("failed") &&
          done["failed"].is_object()) {
        std::vector<RunOutcome> outcomes(runs);
        for (const auto& [i, f] : done["failed"].items()) {
          const size_t k = std::stoul(i);
          if (k < runs && f.is_object()) outcomes[k] = FailedOutcome(f);
        }
        if (!options.quiet)
          Say(options, fmt::format("{}: the sweep is complete; nothing to resume", out_dir));
        if (world != nullptr) CoordinateRuns(*world, out_dir, {}, nullptr, nullptr);  // none
        return ResultOf(mine, outcomes);
      }
    }
  }

  ResumableFolder folder(out_dir, options.force, options.resume, description, kSweepFile);
  // Runs an earlier, interrupted process finished are kept (their folder is complete or absent).
  std::vector<RunOutcome> outcomes(runs);
  std::vector<size_t> todo;
  for (size_t i : mine) {
    if (folder.Has(RunDir(i) + "/summary.json")) {
      outcomes[i] = OutcomeFromFolder(folder.path() + "/" + RunDir(i), plan, i);
    } else {
      todo.push_back(i);
    }
  }
  size_t finished = mine.size() - todo.size();
  if (finished > 0 && !options.quiet) {
    Note(options, fmt::format("resuming {}: {} of {} runs finished earlier", folder.path(),
                              finished, mine.size()));
  }
  if (todo.empty() || todo[0] != 0) first.reset();  // another shard or process runs run 0

  auto run_here = [&](size_t i) -> std::optional<RunOutcome> {
    std::optional<Scenario> scenario;
    if (i == 0 && first) scenario.swap(first);
    try {
      return RunOne(options, plan, i, folder.path(), std::move(scenario));
    } catch (const Interrupted&) {
      return std::nullopt;
    }
  };
  // Called one at a time; `rank` ran it (-1: not under MPI).
  auto done = [&](size_t i, RunOutcome outcome, int rank) {
    outcomes[i] = std::move(outcome);
    const RunOutcome& o = outcomes[i];
    ++finished;
    if (!options.quiet || !o.error.empty()) {
      Note(options, fmt::format("  [{}/{}] {}{}{}", finished, mine.size(),
                                o.name.empty() ? plan.suffixes[i] : o.name,
                                rank < 0 ? std::string() : fmt::format(" (rank {})", rank),
                                o.error.empty() ? "" : ": error: " + o.error));
    }
  };
  const bool complete =
      world != nullptr
          ? CoordinateRuns(
                // Absolute: a rank's working folder may differ (another machine, or -wdir).
                *world, std::filesystem::absolute(folder.path()).string(), todo,
                [&](size_t i, const std::string&) -> std::optional<std::string> {
                  std::optional<RunOutcome> o = run_here(i);
                  return o ? std::optional<std::string>(EncodeOutcome(*o)) : std::nullopt;
                },
                [&](size_t i, std::string bytes, int rank) { done(i, DecodeOutcome(bytes), rank); })
          : RunOnThreads(todo, options.jobs, run_here,
                         [&](size_t i, RunOutcome o) { done(i, std::move(o), -1); });
  if (!complete) {
    // The finished runs stay in the work folder (unless there are none).
    throw Interrupted(
        finished == 0
            ? std::string("interrupted: no run finished, nothing kept")
            : fmt::format("interrupted: {} of {} runs finished, kept in {}; the same command "
                          "with --resume runs the rest",
                          finished, mine.size(), folder.path()));
  }

  WriteSweepTables(folder.path(), plan, mine, outcomes);
  nlohmann::json meta = description;
  meta["failed"] = FailedRuns(mine, outcomes);
  folder.Commit(meta);
  const SweepResult result = ResultOf(mine, outcomes);
  if (result.failed == 0 && !options.quiet) {
    Say(options,
        fmt::format(
            "{} runs{}; table in {}/sweep.csv", mine.size(),
            sharded ? fmt::format(" (shard {} of {}, of {} in all)", shard, shards, runs) : "",
            out_dir));
  }
  return result;
}

}  // namespace

SweepResult RunSweepCommand(const SweepOptions& options) {
  MpiWorld* world = options.world;
  if (world != nullptr && world->rank() > 0) {
    // A rank that runs what rank 0 hands out; rank 0 checks the input and reports errors.
    std::optional<SweepPlan> plan;
    SweepResult served;
    served.cancelled =
        ServeRuns(*world, [&](size_t i, const std::string& folder) -> std::optional<std::string> {
          if (!plan) {
            plan = PlanSweep(options.vary, options.sets, options.seeds);
            ReadScenarioOnce(options.scenario, *plan);
          }
          try {
            return EncodeOutcome(RunOne(options, *plan, i, folder, std::nullopt));
          } catch (const Interrupted&) {
            return std::nullopt;
          }
        }) != 0;
    return served;
  }
  try {
    return SweepHere(options);
  } catch (...) {
    if (world != nullptr) CancelRanks(*world);  // (no-op once the runs have been handed out)
    throw;
  }
}

SweepResult RunSweepMergeCommand(const SweepMergeOptions& options) {
  if (options.shard_dirs.empty()) throw InputError("sweep merge: give the shards' folders");
  // Each shard's description, checked against the first.
  std::map<size_t, std::string> dir_of;        // shard number -> folder
  std::map<size_t, nlohmann::json> failed_of;  // shard number -> its failed runs
  nlohmann::json first;
  for (const std::string& dir : options.shard_dirs) {
    const std::string path = dir + "/" + kSweepFile;
    nlohmann::json meta;
    try {
      meta = nlohmann::json::parse(ReadInputFile(path, "a sweep's description", 1 << 30));
    } catch (const nlohmann::json::exception& e) {
      throw InputError(fmt::format("{}: not a sweep's description ({})", path, e.what()));
    }
    if (!meta.is_object() || meta.value("format", "") != kSweepFormat) {
      throw InputError(
          fmt::format("{}: not a sweep's description (written by `dcqcn sweep`)", path));
    }
    if (first.is_null()) first = meta;
    // The same sweep: everything but which shard it is and its results.
    if (const std::string key = FirstDifferentKey(first, meta, {"shard", "failed"}); !key.empty()) {
      throw InputError(fmt::format("{}: a shard of another sweep: its {} is {}, but {} has {}",
                                   path, key, meta.contains(key) ? meta[key].dump() : "absent",
                                   options.shard_dirs.front(), first[key].dump()));
    }
    const nlohmann::json& shard = meta["shard"];
    const nlohmann::json& failed = meta["failed"];
    if (!shard.is_number_unsigned() || shard.get<size_t>() < 1 ||
        !meta["shards"].is_number_unsigned() ||
        shard.get<size_t>() > meta["shards"].get<size_t>() || !meta["runs"].is_number_unsigned() ||
        !failed.is_object() || !meta["vary"].is_array() || !meta["sets"].is_array() ||
        !meta["seeds"].is_number_integer()) {
      throw InputError(fmt::format("{}: a damaged sweep shard's description", path));
    }
    const size_t k = shard.get<size_t>();
    if (!dir_of.emplace(k, dir).second) {
      throw InputError(fmt::format("{}: shard {} is also {}", dir, k, dir_of[k]));
    }
    failed_of[k] = failed;
  }
  const size_t shards = first["shards"].get<size_t>();
  std::string missing;
  for (size_t k = 1; k <= shards; ++k) {
    if (!dir_of.count(k)) missing += fmt::format("{}{}/{}", missing.empty() ? "" : ", ", k, shards);
  }
  if (!missing.empty()) throw InputError("sweep merge: shards missing: " + missing);

  SweepPlan plan;
  try {
    plan = PlanSweep(first["vary"].get<std::vector<std::string>>(),
                     first["sets"].get<std::vector<std::string>>(), first["seeds"].get<int>());
  } catch (const nlohmann::json::exception&) {
    throw InputError(fmt::format("{}/{}: a damaged sweep shard's description",
                                 options.shard_dirs.front(), kSweepFile));
  }
  const size_t runs = plan.combos.size();
  if (runs != first["runs"].get<size_t>()) {
    throw InputError(fmt::format("sweep merge: the shards say {} runs, their --vary makes {}",
                                 first["runs"].get<size_t>(), runs));
  }
  // The merged folder replaces --out whole: it must be neither a shard nor hold one.
  const std::filesystem::path out = std::filesystem::weakly_canonical(options.out_dir);
  for (const std::string& dir : options.shard_dirs) {
    const std::filesystem::path shard = std::filesystem::weakly_canonical(dir);
    const auto [o, s] = std::mismatch(out.begin(), out.end(), shard.begin(), shard.end());
    if (o == out.end()) {
      throw InputError(fmt::format(
          "sweep merge: --out {} {} the shard {}, which merging would delete; give a new folder",
          options.out_dir, s == shard.end() ? "is" : "holds", dir));
    }
  }
  StagedFolder folder(options.out_dir, options.force);
  std::vector<RunOutcome> outcomes(runs);
  std::vector<size_t> all(runs);
  for (size_t i = 0; i < runs; ++i) {
    all[i] = i;
    const size_t k = i % shards + 1;
    const std::string& dir = dir_of[k];
    const nlohmann::json& failed = failed_of[k];
    if (failed.contains(std::to_string(i))) {
      outcomes[i] = FailedOutcome(failed[std::to_string(i)]);
      continue;
    }
    const std::string run = dir + "/" + RunDir(i);
    outcomes[i] = OutcomeFromFolder(run, plan, i);
    std::filesystem::create_directories(folder.path() + "/runs");
    std::filesystem::copy(run, folder.path() + "/" + RunDir(i),
                          std::filesystem::copy_options::recursive);
  }
  WriteSweepTables(folder.path(), plan, all, outcomes);
  // The description the sweep run whole writes.
  nlohmann::json meta = first;
  meta["shard"] = 1;
  meta["shards"] = 1;
  meta["failed"] = FailedRuns(all, outcomes);
  WriteFileAtomic(folder.path() + "/" + kSweepFile, meta.dump(2) + "\n");
  folder.Commit();
  const SweepResult result = ResultOf(all, outcomes);
  if (result.failed == 0 && !options.quiet) {
    Say(options, fmt::format("{} runs from {} shards; table in {}/sweep.csv", runs, shards,
                             options.out_dir));
  }
  return result;
}

}  // namespace dcqcn
