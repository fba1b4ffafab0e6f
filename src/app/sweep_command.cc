// Parameter sweeps: expand the --vary lists, run every combination (optionally in parallel),
// and write sweep.csv with one row per run.
#include "app/sweep_command.h"

#include <fmt/format.h>

#include <atomic>
#include <exception>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "app/run_command.h"
#include "core/error.h"
#include "output/atomic_file.h"
#include "output/staged_folder.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

// Runs per sweep: far more than a study needs, few enough that the per-run bookkeeping (each
// run's overrides, summary and row) stays within a few GB.
constexpr size_t kMaxSweepRuns = 1000000;

struct Axis {
  std::string key;
  std::vector<std::string> values;
};

Axis ParseVary(const std::string& text) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    throw InputError(
        fmt::format("--vary {}: expected KEY=V1,V2,... such as "
                    "workload.senders=2,4,8",
                    text));
  }
  Axis axis{text.substr(0, eq), {}};
  std::string rest = text.substr(eq + 1);
  size_t start = 0;
  while (start <= rest.size()) {
    size_t comma = rest.find(',', start);
    if (comma == std::string::npos) comma = rest.size();
    std::string v = rest.substr(start, comma - start);
    if (v.empty()) throw InputError(fmt::format("--vary {}: empty value in the list", text));
    axis.values.push_back(v);
    start = comma + 1;
  }
  return axis;
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

int RunSweepCommand(const SweepOptions& options) {
  if (options.vary.empty()) {
    throw InputError("sweep: give at least one --vary KEY=V1,V2,...");
  }
  if (options.jobs < 1) throw InputError("sweep: --jobs must be at least 1");
  std::vector<Axis> axes;
  for (const std::string& v : options.vary) axes.push_back(ParseVary(v));
  // Counted before any combination is built: a product of long lists must not exhaust memory.
  size_t run_count = 1;
  for (const Axis& axis : axes) {
    if (run_count > kMaxSweepRuns / axis.values.size()) {
      std::string sizes;
      for (const Axis& a : axes)
        sizes += fmt::format("{}{}", sizes.empty() ? "" : " x ", a.values.size());
      throw InputError(
          fmt::format("--vary: {} values make more than {} runs, the most one sweep "
                      "takes; vary fewer keys or values, or split the sweep",
                      sizes, kMaxSweepRuns));
    }
    run_count *= axis.values.size();
  }

  // Every combination, the first axis varying slowest.
  std::vector<std::vector<std::string>> combos = {{}};
  for (const Axis& axis : axes) {
    std::vector<std::vector<std::string>> next;
    for (const auto& combo : combos) {
      for (const std::string& v : axis.values) {
        next.push_back(combo);
        next.back().push_back(v);
      }
    }
    combos.swap(next);
  }

  // Each run's overrides and name; its scenario is loaded when it runs, so a large sweep neither
  // holds every scenario in memory nor waits to load them all. The first is loaded now: it names
  // the sweep and catches an error common to every run before anything starts.
  std::vector<std::vector<std::string>> run_sets;
  std::vector<std::string> suffixes;
  for (const auto& combo : combos) {
    std::vector<std::string> sets = options.sets;
    std::string suffix;
    for (size_t a = 0; a < axes.size(); ++a) {
      sets.push_back(axes[a].key + "=" + combo[a]);
      std::string value = combo[a];
      for (char& c : value) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '_';
      }
      suffix += fmt::format("{}{}={}", suffix.empty() ? "" : ",", axes[a].key, value);
    }
    run_sets.push_back(std::move(sets));
    suffixes.push_back(std::move(suffix));
  }
  auto load = [&](size_t i) {
    Scenario s = options.scenario.empty() ? DefaultScenario(run_sets[i])
                                          : LoadScenarioFile(options.scenario, run_sets[i]);
    s.name += "_" + suffixes[i];
    return s;
  };
  std::optional<Scenario> first = load(0);  // run 0 uses it rather than loading it again
  const std::string base_name = first->name;
  std::string out_dir = options.out_dir;
  if (out_dir.empty()) out_dir = "results/" + base_name.substr(0, base_name.find('_')) + "-sweep";

  StagedFolder folder(out_dir, options.force);
  const size_t runs = combos.size();
  std::vector<nlohmann::json> summaries(runs);
  std::vector<std::string> names(runs), errors(runs);
  std::exception_ptr interrupted;
  std::atomic<bool> invariant_broken{false};
  std::atomic<size_t> next{0};
  std::mutex mutex;
  auto worker = [&] {
    for (size_t i = next++; i < runs; i = next++) {
      RunOptions run;
      run.stop = options.stop;
      try {
        // Staged like any run's folder: runs/NNN exists only once that run is complete.
        StagedFolder run_folder(fmt::format("{}/runs/{:03}", folder.path(), i), false);
        run.out_dir = run_folder.path();
        const Scenario s = i == 0 ? std::move(*first) : load(i);
        names[i] = s.name;
        summaries[i] = RunScenario(s, run);
        run_folder.Commit();
      } catch (const Interrupted&) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!interrupted) interrupted = std::current_exception();
        next = runs;  // start no other run
        return;
      } catch (const std::exception& e) {
        // A failed run is a row with its error; the others go on.
        errors[i] = e.what();
        if (dynamic_cast<const InvariantError*>(&e) != nullptr) invariant_broken = true;
      }
      std::lock_guard<std::mutex> lock(mutex);
      if (!options.quiet || !errors[i].empty()) {
        fmt::print(stderr, "  [{}/{}] {}{}\n", i + 1, runs,
                   names[i].empty() ? suffixes[i] : names[i],
                   errors[i].empty() ? "" : ": error: " + errors[i]);
      }
    }
  };
  std::vector<std::thread> threads;
  int jobs = std::min<int>(options.jobs, static_cast<int>(runs));
  for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  if (interrupted) std::rethrow_exception(interrupted);  // nothing written, old results kept

  // Every tag that any run reported, in name order, gets its own columns.
  std::set<std::string> tags;
  for (const nlohmann::json& summary : summaries) {
    if (!summary.contains("by_tag")) continue;  // a failed run
    for (const auto& [tag, metrics] : summary["by_tag"].items()) tags.insert(tag);
  }
  std::vector<std::string> columns = SweepColumns();
  for (const std::string& tag : tags) {
    for (const std::string& c : SweepTagColumns()) columns.push_back("tag." + tag + "." + c);
  }
  std::string csv = "run,dir";
  for (const Axis& axis : axes) csv += "," + CsvCell(axis.key);
  for (const std::string& c : columns) csv += "," + CsvCell(c);
  csv += ",error\n";
  size_t failed = 0;
  for (size_t i = 0; i < runs; ++i) {
    failed += !errors[i].empty();
    csv += errors[i].empty() ? fmt::format("{},runs/{:03}", i, i) : fmt::format("{},", i);
    for (const std::string& v : combos[i]) csv += "," + CsvCell(v);
    for (const std::string& c : columns) {
      // "tag.<tag>.<path>" is summary.json's by_tag.<tag>.<path>.
      const std::string path = c.rfind("tag.", 0) == 0 ? "by_tag." + c.substr(4) : c;
      csv += "," + CsvCell(Metric(summaries[i], path));
    }
    csv += "," + CsvCell(errors[i]) + "\n";
  }
  WriteFileAtomic(folder.path() + "/sweep.csv", csv);
  folder.Commit();
  if (failed > 0) {
    fmt::print(stderr, "{} of {} runs failed (their error is in sweep.csv's error column)\n",
               failed, runs);
    return invariant_broken ? 3 : 1;  // as `dcqcn run` would have exited
  }
  if (!options.quiet) fmt::print("{} runs; table in {}/sweep.csv\n", runs, out_dir);
  return 0;
}

}  // namespace dcqcn
