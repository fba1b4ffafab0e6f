// Progress line: simulated time, % done, wall time, ETA and events per second.
#include "run/progress.h"

#include <fmt/format.h>

#include <cstdio>

namespace dcqcn {

double ProgressFraction(Time origin, Time end, Time now) {
  if (end <= origin) return 1;
  const double f = static_cast<double>(now - origin) / static_cast<double>(end - origin);
  return f < 0 ? 0 : (f > 1 ? 1 : f);
}

ProgressLine::ProgressLine(bool enabled, Time origin, Time end)
    : enabled_(enabled),
      origin_(origin),
      end_(end),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void ProgressLine::Update(Time sim_now, uint64_t events, int flows_done, int flows_total) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(250)) return;
  last_draw_ = now;
  double wall = std::chrono::duration<double>(now - start_).count();
  double frac = ProgressFraction(origin_, end_, sim_now);
  double eta = frac > 0 ? wall * (1 - frac) / frac : 0;
  fmt::print(stderr,
             "\r  sim {:>10} / {} ({:5.1f}%)  flows done {}/{}  wall {:6.1f}s  ETA <= {:6.1f}s  "
             "{:6.2f} M ev/s ",
             FormatTime(sim_now - sim_now % kNanosecond), FormatTime(end_), 100 * frac, flows_done,
             flows_total, wall, eta, wall > 0 ? static_cast<double>(events) / wall / 1e6 : 0.0);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressLine::Finish() {
  if (drawn_) fmt::print(stderr, "\r{:80}\r", "");
}

}  // namespace dcqcn
