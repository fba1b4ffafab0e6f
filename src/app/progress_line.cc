// Progress line: simulated time, % done, wall time, ETA and events per second.
#include "app/progress_line.h"

#include <fmt/format.h>

#include <cstdio>

namespace dcqcn {

ProgressLine::ProgressLine(bool enabled)
    : enabled_(enabled), start_(std::chrono::steady_clock::now()), last_draw_(start_) {}

void ProgressLine::Update(const RunProgress& p) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(250)) return;
  last_draw_ = now;
  double wall = std::chrono::duration<double>(now - start_).count();
  double eta = p.fraction > 0 ? wall * (1 - p.fraction) / p.fraction : 0;
  fmt::print(stderr,
             "\r  sim {:>10} / {} ({:5.1f}%)  flows done {}/{}  wall {:6.1f}s  ETA <= {:6.1f}s  "
             "{:6.2f} M ev/s ",
             FormatTime(p.now - p.now % kNanosecond), FormatTime(p.end), 100 * p.fraction,
             p.flows_done, p.flows_total, wall, eta,
             wall > 0 ? static_cast<double>(p.events) / wall / 1e6 : 0.0);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressLine::Finish() {
  if (drawn_) fmt::print(stderr, "\r{:80}\r", "");
  drawn_ = false;
}

}  // namespace dcqcn
