// `dcqcn report DIR [--runs] [--format F] [--flows IDS] [--tags TAGS]`: figures and one
// index.html for a run's or a sweep's output folder, drawn by python/dcqcn_report.py under
// Debian's /usr/bin/python3 with matplotlib.
#pragma once

#include <string>

namespace dcqcn {

// What `dcqcn report` was asked for; the option strings are passed to the script as given (it
// checks them: a bad value is exit code 1).
struct ReportOptions {
  std::string dir;
  bool runs = false;    // sweep folders only: also report each run, into runs/NNN/report/
  std::string formats;  // --format: "png,svg,pdf" or a part of it; empty = the script's png
  std::string flows;    // --flows: flow ids such as "0,3,7" for the rate and throughput figures
  std::string tags;     // --tags: flow tags such as "victim,incast", likewise
};

// Checks that `dir` is a run folder (has summary.json) or a sweep folder (has sweep.csv and no
// summary.json), finds the report script and a Python with matplotlib, runs it and prints where
// the report is. Returns the exit code: 0 success, 1 bad input or missing Python packages (the
// message says to run scripts/setup.sh), or the script's own code when it fails (3: a bug in the
// script). Errors go to stderr.
int RunReportCommand(const ReportOptions& options);
// The same for `dir` with the default options.
int RunReportCommand(const std::string& dir);

// The folder that should hold dcqcn_report.py: $DCQCN_PYTHON_DIR when set (returned even without
// the script, so the error names it), else the first of python/ next to the binary,
// ../share/dcqcn/python (an installed binary) and the source tree's python/ that has it; empty
// if none has it.
std::string FindReportScriptDir();

}  // namespace dcqcn
