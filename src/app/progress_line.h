// A one-line progress display on stderr for long runs (only when stderr is a terminal), drawn
// from the run's progress reports (RunOptions::on_progress).
#pragma once

#include <chrono>
#include <string>

#include "run/run_scenario.h"

namespace dcqcn {

// "4.4s", "2min 17s", "1h 05min": a wall time to read at a glance.
std::string FormatWallTime(double seconds);

// The line's text after `wall_s` seconds of wall time: simulated time since the first flow's
// start (the summary line's and the report's origin) and the most the run may last, the flows
// done, the share done (RunProgress::fraction: by flows or by time, whichever is further), wall
// time, the time left at the pace so far, and events per second.
std::string ProgressText(const RunProgress& p, double wall_s);

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
