// Progress line: simulated time, flows done, % done, wall time, time left and events per second.
#include "app/progress_line.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace dcqcn {

std::string FormatWallTime(double seconds) {
  if (seconds < 60) return fmt::format("{:.1f}s", seconds);
  const auto whole = static_cast<int64_t>(std::llround(seconds));
  if (whole < 3600) return fmt::format("{}min {:02}s", whole / 60, whole % 60);
  return fmt::format("{}h {:02}min", whole / 3600, whole % 3600 / 60);
}

namespace {

// A simulated time to 4 significant digits in the largest unit it fills ("100ms" for
// 99999.172us): FormatTime is exact, which a bound read in passing need not be.
std::string RoughTime(Time t) {
  constexpr std::pair<Time, const char*> kUnits[] = {
      {kSecond, "s"}, {kMillisecond, "ms"}, {kMicrosecond, "us"}, {kNanosecond, "ns"}};
  for (const auto& [scale, unit] : kUnits) {
    if (t >= scale) return fmt::format("{:.4g}{}", static_cast<double>(t) / scale, unit);
  }
  return FormatTime(t);
}

}  // namespace

std::string ProgressText(const RunProgress& p, double wall_s) {
  // Whole microseconds: the line stays readable as it moves.
  const Time since = std::max<Time>(p.now - p.origin, 0);
  const Time limit = std::max<Time>(p.end - p.origin, 0);
  std::string eta = "-";
  if (p.fraction >= 1) {
    eta = "0s";
  } else if (p.fraction > 0) {
    eta = "~" + FormatWallTime(wall_s * (1 - p.fraction) / p.fraction);
  }
  return fmt::format("sim {} (of <= {})  flows {}/{}  {:.1f}%  wall {}  left {}  {:.2f} M ev/s",
                     FormatTime(since - since % kMicrosecond), RoughTime(limit), p.flows_done,
                     p.flows_total, 100 * p.fraction, FormatWallTime(wall_s), eta,
                     wall_s > 0 ? static_cast<double>(p.events) / wall_s / 1e6 : 0.0);
}

ProgressLine::ProgressLine(bool enabled)
    : enabled_(enabled), start_(std::chrono::steady_clock::now()), last_draw_(start_) {}

void ProgressLine::Update(const RunProgress& p) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(250)) return;
  last_draw_ = now;
  const double wall = std::chrono::duration<double>(now - start_).count();
  fmt::print(stderr, "\r  {} ", ProgressText(p, wall));
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressLine::Finish() {
  if (drawn_) fmt::print(stderr, "\r{:100}\r", "");
  drawn_ = false;
}

}  // namespace dcqcn
