// Checking a sweep's finished run folders.
#include "run/sweep_run_folder.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "core/input_file.h"
#include "scenario/resolved_toml.h"

namespace dcqcn {
namespace {

// The `name = "..."` line of a resolved.toml ("" when there is none before its first table).
std::string NameLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("name = ", 0) == 0) return line;
    if (line.rfind('[', 0) == 0) break;
  }
  return "";
}

}  // namespace

const std::vector<std::string>& RunFolderFiles() {
  static const std::vector<std::string> files = {"summary.json", "resolved.toml", "flows.csv",
                                                 "links.csv"};
  return files;
}

nlohmann::json ReadRunFolder(const std::string& run_dir, const SweepPlan& plan, size_t i) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const std::string& file : RunFolderFiles()) {
    if (!fs::is_regular_file(run_dir + "/" + file, ec)) {
      throw InputError(
          fmt::format("{}: not a finished run: it has no {} (remove the folder to run it again)",
                      run_dir, file));
    }
  }
  const std::string path = run_dir + "/summary.json";
  nlohmann::json summary;
  try {
    summary = nlohmann::json::parse(ReadInputFile(path, "a run's summary", 1 << 30));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: not a run's summary ({})", path, e.what()));
  }
  // What every summary has; a folder without them is not one of our runs.
  if (!summary.is_object() || !summary.contains("scenario") || !summary["scenario"].is_string()) {
    throw InputError(fmt::format("{}: not a run's summary (no scenario name)", path));
  }
  for (const char* key : {"flows_total", "flows_finished", "sim_time_ns"}) {
    if (!summary.contains(key) || !summary[key].is_number()) {
      throw InputError(fmt::format("{}: not a run's summary ({} is not a number)", path, key));
    }
  }
  // Sweeps name each run after its values: the folder must hold this run, not another's.
  const std::string name = summary["scenario"].get<std::string>();
  const std::string suffix = "_" + plan.suffixes[i];
  if (name.size() < suffix.size() ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    throw InputError(fmt::format("{}: holds the run \"{}\", but run {} of this sweep is {}",
                                 run_dir, name, i, plan.suffixes[i]));
  }
  const std::string resolved = run_dir + "/resolved.toml";
  if (NameLine(resolved) != "name = " + TomlQuote(name)) {
    throw InputError(fmt::format("{}: its resolved.toml is not the run \"{}\" of its summary.json",
                                 run_dir, name));
  }
  return summary;
}

}  // namespace dcqcn
