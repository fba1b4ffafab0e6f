#include "app/exit_codes.h"

#include <fmt/format.h>

namespace dcqcn {

int SweepExitCode(const SweepResult& r, const std::function<void(const std::string&)>& note) {
  if (r.cancelled) return 1;
  if (r.failed == 0) return 0;
  if (note) {
    note(fmt::format("{} of {} runs failed (their error is in sweep.csv's error column)", r.failed,
                     r.runs));
  }
  return r.invariant_broken ? 3 : 1;
}

}  // namespace dcqcn
