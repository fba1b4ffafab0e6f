// The command line's exit codes for what the run layer returns: 0 success; 1 bad input, a failed
// run or an interrupted one; 2 a command-line usage error (CLI11); 3 a broken invariant (a bug).
#pragma once

#include <functional>
#include <string>

#include "run/sweep.h"

namespace dcqcn {

// A sweep exits as `dcqcn run` would have on its worst run, saying how many failed through
// `note` (stderr on the command line).
int SweepExitCode(const SweepResult& r, const std::function<void(const std::string&)>& note);

}  // namespace dcqcn
