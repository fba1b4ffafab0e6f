// `dcqcn report DIR [--runs]`: PNG figures and one index.html for a run's or a sweep's output
// folder, drawn by python/dcqcn_report.py under Debian's /usr/bin/python3 with matplotlib.
#pragma once

#include <string>

namespace dcqcn {

// Checks that `dir` is a run folder (has summary.json) or a sweep folder (has sweep.csv and no
// summary.json), finds the report script and a Python with matplotlib, runs it and prints where
// the report is. `runs` (sweep folders only) also reports each run, into runs/NNN/report/.
// Returns the exit code: 0 success, 1 bad input or missing Python packages (the message says to
// run scripts/setup.sh), or the script's own code when it fails (3: a bug in the script). Errors
// go to stderr.
int RunReportCommand(const std::string& dir, bool runs = false);

// The folder that should hold dcqcn_report.py: $DCQCN_PYTHON_DIR when set (returned even without
// the script, so the error names it), else the first of python/ next to the binary,
// ../share/dcqcn/python (an installed binary) and the source tree's python/ that has it; empty
// if none has it.
std::string FindReportScriptDir();

}  // namespace dcqcn
