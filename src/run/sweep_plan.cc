// Expanding --vary lists into runs.
#include "run/sweep_plan.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdint>

#include "core/error.h"
#include "core/input_file.h"

namespace dcqcn {
namespace {

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

}  // namespace

// `seeds` > 0 adds the axis seed = 1..seeds, last (so a point's seeds are adjacent runs).
SweepPlan PlanSweep(const std::vector<std::string>& vary, const std::vector<std::string>& sets,
                    int seeds) {
  if (vary.empty() && seeds == 0) {
    throw InputError("sweep: give at least one --vary KEY=V1,V2,... or --seeds N");
  }
  SweepPlan plan;
  for (const std::string& v : vary) {
    plan.axes.push_back(ParseVary(v));
    for (size_t a = 0; a + 1 < plan.axes.size(); ++a) {
      if (plan.axes[a].key == plan.axes.back().key) {
        throw InputError(
            fmt::format("--vary {}: {} is already varied (--vary {}); give its "
                        "values once, in one list",
                        v, plan.axes.back().key, vary[a]));
      }
    }
    if (plan.axes.back().key == "seed" && seeds > 0) {
      throw InputError("sweep: --seeds and --vary seed=... both give the seeds; use one");
    }
  }
  if (seeds < 0 || static_cast<size_t>(seeds) > kMaxSweepRuns) {
    throw InputError(fmt::format("--seeds {}: expected 1 to {}", seeds, kMaxSweepRuns));
  }
  if (seeds > 0) {
    Axis axis{"seed", {}};
    for (int k = 1; k <= seeds; ++k) axis.values.push_back(std::to_string(k));
    plan.axes.push_back(std::move(axis));
  }
  // Counted before any combination is built: a product of long lists must not exhaust memory.
  size_t run_count = 1;
  for (const Axis& axis : plan.axes) {
    if (run_count > kMaxSweepRuns / axis.values.size()) {
      std::string sizes;
      for (const Axis& a : plan.axes)
        sizes += fmt::format("{}{}", sizes.empty() ? "" : " x ", a.values.size());
      throw InputError(
          fmt::format("--vary: {} values make more than {} runs, the most one sweep "
                      "takes; vary fewer keys or values, or split the sweep",
                      sizes, kMaxSweepRuns));
    }
    run_count *= axis.values.size();
  }
  // Every combination, the first axis varying slowest.
  plan.combos = {{}};
  for (const Axis& axis : plan.axes) {
    std::vector<std::vector<std::string>> next;
    for (const auto& combo : plan.combos) {
      for (const std::string& v : axis.values) {
        next.push_back(combo);
        next.back().push_back(v);
      }
    }
    plan.combos.swap(next);
  }
  for (const auto& combo : plan.combos) {
    std::vector<Override> run_sets(sets.begin(), sets.end());
    std::string suffix;
    for (size_t a = 0; a < plan.axes.size(); ++a) {
      // Its errors name the option that gave the value: --vary, or --seeds for the last axis.
      const std::string text = plan.axes[a].key + "=" + combo[a];
      run_sets.emplace_back(text,
                            a < vary.size() ? "--vary " + text : fmt::format("--seeds {}", seeds));
      std::string value = combo[a];
      for (char& c : value) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '_';
      }
      suffix += fmt::format("{}{}={}", suffix.empty() ? "" : ",", plan.axes[a].key, value);
    }
    plan.run_sets.push_back(std::move(run_sets));
    plan.suffixes.push_back(std::move(suffix));
  }
  return plan;
}

// A digest, so that a resumed sweep whose file changed is refused.
std::string ScenarioDigest(const std::string& bytes) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return fmt::format("{:016x}", h);
}

void ReadScenarioOnce(const std::string& path, SweepPlan& plan) {
  if (path.empty()) return;
  // As LoadScenarioFile: a resolved.toml with millions of flows must load too.
  plan.scenario_text = ReadInputFile(path, "scenario file", size_t{4} << 30);
  plan.scenario_digest = ScenarioDigest(plan.scenario_text);
}

}  // namespace dcqcn
