// `dcqcn tune SCENARIO --param ... --minimize ...`: the settings to deploy, searched with real
// runs. The search is Python's (the dcqcn.tune module, with Optuna); this runs it under
// Debian's /usr/bin/python3 with the package found beside the binary, and passes on its exit
// code.
#pragma once

#include <string>
#include <vector>

namespace dcqcn {

// Runs `python3 -m dcqcn.tune_command ARGS`. Returns its exit code: 0 success, 1 bad input or
// missing Python packages (the message says to run scripts/setup.sh), 130 interrupted (the
// search resumes with --resume).
int RunTuneCommand(const std::vector<std::string>& args);

}  // namespace dcqcn
