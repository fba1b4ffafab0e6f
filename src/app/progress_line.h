// A one-line progress display on stderr for long runs (only when stderr is a terminal), drawn
// from the run's progress reports (RunOptions::on_progress).
#pragma once

#include <chrono>

#include "run/run_scenario.h"

namespace dcqcn {

class ProgressLine {
 public:
  explicit ProgressLine(bool enabled);
  ~ProgressLine() { Finish(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  // Called often; redraws at most a few times per second.
  void Update(const RunProgress& p);
  // Clears the line (once drawn).
  void Finish();

 private:
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
  bool drawn_ = false;
};

}  // namespace dcqcn
