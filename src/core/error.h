// Error types that map to the CLI's exit codes: bad user input (1), broken invariants (3) and an
// interrupted run (130).
#pragma once

#include <atomic>
#include <stdexcept>
#include <string>

namespace dcqcn {

// Invalid user input. The message names the file, the line where known, the key and what was
// expected, e.g. "scen.toml:12: switch.ecn.kmin: expected a size such as \"5KB\", got \"5\"".
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The simulation broke one of its own invariants (a bug in dcqcn, never the user's fault).
class InvariantError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The user stopped the run (Ctrl-C, SIGTERM); nothing was written.
class Interrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws Interrupted when `stop` (a stop request set by a signal handler; may be null) is set.
// RunScenario calls it before it writes, StagedFolder::Commit before it puts results in place:
// a stop that comes after a run's own last check (while it writes) still stops it.
inline void ThrowIfStopped(const std::atomic<bool>* stop) {
  if (stop != nullptr && stop->load()) throw Interrupted("interrupted: no results written");
}

}  // namespace dcqcn
