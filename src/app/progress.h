// A one-line progress display on stderr for long runs (only when stderr is a terminal).
#pragma once

#include <chrono>
#include <cstdint>

#include "core/units.h"

namespace dcqcn {

class ProgressLine {
 public:
  ProgressLine(bool enabled, Time end);
  // Called often; redraws at most a few times per second.
  // `flows_done` of `flows_total`: the run also ends when every flow has finished.
  void Update(Time sim_now, uint64_t events, int flows_done, int flows_total);
  void Finish();

 private:
  bool enabled_;
  Time end_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
  bool drawn_ = false;
};

}  // namespace dcqcn
