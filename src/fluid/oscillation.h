// Statistics of a sampled fluid-model trace over a window, and whether it settles or keeps
// oscillating (a limit cycle).
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace dcqcn::fluid {

struct WindowStats {
  double mean = 0, min = 0, max = 0, stddev = 0;
  double peak_to_peak() const { return max - min; }
};

// Over the samples whose time is in [from, to].
WindowStats Stats(std::span<const double> t, std::span<const double> x, double from, double to);

enum class Verdict { kSteady, kDecaying, kOscillating };
std::string_view VerdictName(Verdict v);  // "steady", "decaying", "oscillating"

struct OscillationReport {
  Verdict verdict = Verdict::kSteady;
  std::optional<double> period_s;  // mean time between upward crossings of the mean
  double peak_to_peak = 0;         // over the window's last quarter
};

// Over [from, to]: steady when the last quarter's peak-to-peak is at most `tolerance`;
// oscillating (a limit cycle, which keeps its amplitude) when it is larger and at least 85% of
// the third quarter's; decaying otherwise (run longer to see where it settles).
OscillationReport Oscillation(std::span<const double> t, std::span<const double> x, double from,
                              double to, double tolerance);

}  // namespace dcqcn::fluid
