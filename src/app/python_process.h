// Running a Python helper of the command line (`dcqcn report`'s script, `dcqcn tune`'s module)
// under Debian's /usr/bin/python3 (or $DCQCN_PYTHON), with its exit code passed on.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace dcqcn {

struct SpawnResult {
  bool started = false;
  int error = 0;       // errno-style code when it could not be started or waited for
  int exit_code = -1;  // when it exited normally
  int signal = 0;      // when a signal ended it
};

// Runs args[0] (a path, not searched in PATH) with `args`; stdout and stderr are inherited, or
// discarded when `silent`. `on_started` is told the child's pid before it is waited for.
SpawnResult Spawn(const std::vector<std::string>& args, bool silent,
                  const std::function<void(pid_t)>& on_started = nullptr);

// $DCQCN_PYTHON, else /usr/bin/python3: the interpreter Debian's python3-matplotlib and
// python3-optuna install into (the python3 on PATH may be a pyenv without them).
std::string PythonInterpreter();

}  // namespace dcqcn
