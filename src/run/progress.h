// A one-line progress display on stderr for long runs (only when stderr is a terminal).
#pragma once

#include <chrono>
#include <cstdint>

#include "core/units.h"

namespace dcqcn {

// How much of the active interval [origin, end] lies before `now`, in 0..1.
double ProgressFraction(Time origin, Time end, Time now);

class ProgressLine {
 public:
  // The run's active interval is [origin, end]: from the first flow's start to the duration.
  ProgressLine(bool enabled, Time origin, Time end);
  // Called often; redraws at most a few times per second.
  // `flows_done` of `flows_total`: the run also ends when every flow has finished.
  void Update(Time sim_now, uint64_t events, int flows_done, int flows_total);
  void Finish();

 private:
  bool enabled_;
  Time origin_;
  Time end_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
  bool drawn_ = false;
};

}  // namespace dcqcn
