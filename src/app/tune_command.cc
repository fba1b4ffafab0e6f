// `dcqcn tune`: find the Python package (build/python/ beside a build tree's binary, or the
// installed one) and a Python with Optuna, then run the search's command line there.
#include "app/tune_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "app/python_process.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

// The search's process, once started, and the first stop signal this one received.
volatile sig_atomic_t g_child = 0;
volatile sig_atomic_t g_signal = 0;

// SIGINT, SIGTERM and SIGHUP go on to the search, which stops, cleans up and exits 128 + the
// signal; this process waits for it. A terminal's Ctrl-C reaches both: the search takes a
// second copy as the first.
void ForwardSignal(int sig) {
  if (g_signal == 0) g_signal = sig;
  if (g_child > 0) kill(static_cast<pid_t>(g_child), sig);
}

constexpr const char* kSetupHint =
    "`dcqcn tune` needs {} with optuna, scipy, scikit-learn and matplotlib (Debian's "
    "python3-optuna, python3-scipy, python3-sklearn and python3-matplotlib): run "
    "scripts/setup.sh";

// Where the dcqcn package may be: build/python/ next to a build tree's binary, or the installed
// package, found from the binary's own place (`cmake --install build --prefix DIR` puts both
// under DIR, wherever DIR is; the prefix the build was configured for may not be DIR).
std::vector<fs::path> PackageRoots() {
  std::vector<fs::path> candidates;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path() / "python");
#ifdef DCQCN_PY_FROM_BINDIR
    candidates.push_back((exe.parent_path() / DCQCN_PY_FROM_BINDIR).lexically_normal());
#endif
  }
  return candidates;
}

// The first of PackageRoots that holds the package (empty: Python's own path has it, or not).
std::string PackageRoot() {
  std::error_code ec;
  for (const fs::path& dir : PackageRoots()) {
    if (fs::is_regular_file(dir / "dcqcn" / "tune_command.py", ec)) return dir.string();
  }
  return "";
}

}  // namespace

int RunTuneCommand(const std::vector<std::string>& args) {
  const std::string python = PythonInterpreter();
  if (access(python.c_str(), X_OK) != 0) {
    fmt::print(stderr, "error: {} not found. {}\n", python, fmt::format(kSetupHint, python));
    return 1;
  }
  const std::string root = PackageRoot();
  if (!root.empty()) {
    const char* old = std::getenv("PYTHONPATH");
    setenv("PYTHONPATH", (old != nullptr && *old != '\0' ? root + ":" + old : root).c_str(), 1);
  }
  SpawnResult check = Spawn({python, "-c", "import optuna, scipy, sklearn, matplotlib"}, true);
  if (!check.started || check.exit_code != 0) {
    fmt::print(stderr, "error: {} cannot import optuna, scipy, sklearn or matplotlib. {}\n", python,
               fmt::format(kSetupHint, python));
    return 1;
  }
  check = Spawn({python, "-c", "import dcqcn.tune_command"}, true);
  if (!check.started || check.exit_code != 0) {
    if (!root.empty()) {
      fmt::print(stderr,
                 "error: {} cannot import the dcqcn Python module in {} (`PYTHONPATH={} {} -c "
                 "'import dcqcn.tune_command'` says why)\n",
                 python, root, root, python);
    } else {
      std::vector<std::string> looked;
      for (const fs::path& dir : PackageRoots()) looked.push_back(dir.string());
      fmt::print(stderr,
                 "error: cannot import the dcqcn Python module (looked in {}, and on "
                 "PYTHONPATH); build it with pybind11-dev (scripts/setup.sh) or set PYTHONPATH\n",
                 fmt::join(looked, ", "));
    }
    return 1;
  }
  setenv("MPLBACKEND", "Agg", 1);  // no display: render straight to files
  // A handler, not SIG_IGN, which the child would inherit.
  struct sigaction forward {};
  forward.sa_handler = ForwardSignal;
  sigemptyset(&forward.sa_mask);
  forward.sa_flags = SA_RESTART;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &forward, nullptr);
  std::vector<std::string> argv = {python, "-m", "dcqcn.tune_command"};
  argv.insert(argv.end(), args.begin(), args.end());
  SpawnResult run = Spawn(argv, false, [](pid_t pid) {
    g_child = pid;
    // A signal that came while it was being started.
    if (g_signal != 0) kill(pid, g_signal);
  });
  if (!run.started) {
    fmt::print(stderr, "error: cannot run {}: {}\n", python, std::strerror(run.error));
    return 1;
  }
  // Stopped before its handlers were in place (while Python started): the signal's status.
  if (run.signal != 0 && run.signal == g_signal) return 128 + run.signal;
  if (run.signal != 0) {
    fmt::print(stderr, "error: the search was killed by signal {} ({})\n", run.signal,
               strsignal(run.signal));
    return 1;
  }
  return run.exit_code;
}

}  // namespace dcqcn
