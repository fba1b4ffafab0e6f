// `dcqcn report`: find python/dcqcn_report.py and a Python with matplotlib, run the script on a
// run or sweep folder and pass its exit code on. The figures themselves are drawn in Python.
#include "app/report_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "app/python_process.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

constexpr const char* kScript = "dcqcn_report.py";
constexpr const char* kSetupHint =
    "`dcqcn report` needs {} with matplotlib, numpy and pandas (Debian's python3-matplotlib, "
    "python3-numpy and python3-pandas): run scripts/setup.sh";

bool HasScript(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / kScript, ec);
}

}  // namespace

std::string FindReportScriptDir() {
  if (const char* env = std::getenv("DCQCN_PYTHON_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  std::vector<fs::path> candidates;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path() / "python");
    candidates.push_back(exe.parent_path().parent_path() / "share" / "dcqcn" / "python");
  }
#ifdef DCQCN_SOURCE_DIR
  candidates.push_back(fs::path(DCQCN_SOURCE_DIR) / "python");
#endif
  for (const fs::path& dir : candidates) {
    if (HasScript(dir)) return dir.string();
  }
  return "";
}

int RunReportCommand(const ReportOptions& options) {
  const std::string& dir = options.dir;
  const bool runs = options.runs;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    fmt::print(stderr,
               "error: {}: no such folder (expected the output folder of `dcqcn run` or "
               "`dcqcn sweep`)\n",
               dir);
    return 1;
  }
  // A run folder has summary.json; a sweep folder has sweep.csv (its runs' summaries are below).
  bool is_run = fs::is_regular_file(fs::path(dir) / "summary.json", ec);
  bool is_sweep = !is_run && fs::is_regular_file(fs::path(dir) / "sweep.csv", ec);
  if (!is_run && !is_sweep) {
    fmt::print(stderr,
               "error: {}: no summary.json or sweep.csv (expected the output folder of `dcqcn "
               "run` or `dcqcn sweep`)\n",
               dir);
    return 1;
  }
  if (runs && !is_sweep) {
    fmt::print(stderr,
               "error: {}: --runs is for a sweep folder (with sweep.csv); this is a run "
               "folder\n",
               dir);
    return 1;
  }

  std::string script_dir = FindReportScriptDir();
  if (script_dir.empty()) {
    fmt::print(stderr,
               "error: cannot find python/{} (looked next to the dcqcn binary and in the source "
               "tree); set DCQCN_PYTHON_DIR to the folder that holds it\n",
               kScript);
    return 1;
  }
  if (!HasScript(script_dir)) {
    fmt::print(stderr, "error: DCQCN_PYTHON_DIR={}: no {} there\n", script_dir, kScript);
    return 1;
  }

  const std::string python = PythonInterpreter();
  if (access(python.c_str(), X_OK) != 0) {
    fmt::print(stderr, "error: {} not found. {}\n", python, fmt::format(kSetupHint, python));
    return 1;
  }
  // No separate check that matplotlib, numpy and pandas import: the script says so itself
  // (dcqcn/_report_common.py, exit 1, naming scripts/setup.sh), and a check would import them
  // a second time, about a second of every report.

  setenv("MPLBACKEND", "Agg", 1);  // no display: render straight to files
  std::string script = (fs::path(script_dir) / kScript).string();
  std::vector<std::string> args = {python, script, "--quiet"};
  if (runs) args.push_back("--runs");
  // FLAG=VALUE and "--" before the folder: a value or folder name starting with '-' stays one.
  const std::pair<const char*, std::string> passed[] = {
      {"--format", options.formats}, {"--flows", options.flows}, {"--tags", options.tags}};
  for (const auto& [flag, value] : passed) {
    if (!value.empty()) args.push_back(fmt::format("{}={}", flag, value));
  }
  args.push_back("--");
  args.push_back(dir);
  SpawnResult run = Spawn(args, false);
  if (!run.started) {
    fmt::print(stderr, "error: cannot run {} {}: {}\n", python, script, std::strerror(run.error));
    return 1;
  }
  if (run.signal != 0) {
    fmt::print(stderr, "error: {} was killed by signal {} ({})\n", script, run.signal,
               strsignal(run.signal));
    return 1;
  }
  if (run.exit_code != 0) {
    // The script printed the reason; 1 is bad input, 3 a bug in the script.
    if (run.exit_code != 1 && run.exit_code != 3) {
      fmt::print(stderr, "error: {} failed (exit code {})\n", script, run.exit_code);
      return 1;
    }
    return run.exit_code;
  }
  fmt::print("report in {}{}\n", (fs::path(dir) / "report" / "index.html").string(),
             runs ? " (and each run's in runs/NNN/report/)" : "");
  return 0;
}

int RunReportCommand(const std::string& dir) {
  ReportOptions options;
  options.dir = dir;
  return RunReportCommand(options);
}

}  // namespace dcqcn
