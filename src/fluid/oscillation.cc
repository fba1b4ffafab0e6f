// Window statistics and the oscillation verdict of a fluid-model trace.
#include "fluid/oscillation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace dcqcn::fluid {

WindowStats Stats(std::span<const double> t, std::span<const double> x, double from, double to) {
  WindowStats s;
  double sum = 0, sum2 = 0;
  long n = 0;
  s.min = std::numeric_limits<double>::infinity();
  s.max = -s.min;
  for (size_t i = 0; i < t.size() && i < x.size(); ++i) {
    if (t[i] < from || t[i] > to) continue;
    sum += x[i];
    sum2 += x[i] * x[i];
    s.min = std::min(s.min, x[i]);
    s.max = std::max(s.max, x[i]);
    ++n;
  }
  if (n == 0) return WindowStats{};
  s.mean = sum / static_cast<double>(n);
  s.stddev = std::sqrt(std::max(0.0, sum2 / static_cast<double>(n) - s.mean * s.mean));
  return s;
}

std::string_view VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kSteady:
      return "steady";
    case Verdict::kDecaying:
      return "decaying";
    case Verdict::kOscillating:
      return "oscillating";
  }
  return "?";
}

OscillationReport Oscillation(std::span<const double> t, std::span<const double> x, double from,
                              double to, double tolerance) {
  OscillationReport r;
  const double q = (to - from) / 4;
  const WindowStats third = Stats(t, x, from + 2 * q, from + 3 * q);
  const WindowStats last = Stats(t, x, from + 3 * q, to);
  r.peak_to_peak = last.peak_to_peak();
  if (r.peak_to_peak <= tolerance) {
    r.verdict = Verdict::kSteady;
  } else if (r.peak_to_peak >= 0.85 * third.peak_to_peak()) {
    r.verdict = Verdict::kOscillating;
  } else {
    r.verdict = Verdict::kDecaying;
  }
  if (r.verdict == Verdict::kSteady) return r;
  // Upward crossings of the window's mean, with a hysteresis of a tenth of the swing so that
  // noise on a flat stretch does not count.
  const WindowStats all = Stats(t, x, from, to);
  const double band = 0.1 * all.peak_to_peak();
  std::vector<double> ups;
  bool below = false;
  for (size_t i = 0; i < t.size() && i < x.size(); ++i) {
    if (t[i] < from || t[i] > to) continue;
    if (x[i] < all.mean - band) below = true;
    if (below && x[i] > all.mean) {
      ups.push_back(t[i]);
      below = false;
    }
  }
  if (ups.size() >= 2) {
    r.period_s = (ups.back() - ups.front()) / static_cast<double>(ups.size() - 1);
  }
  return r;
}

}  // namespace dcqcn::fluid
