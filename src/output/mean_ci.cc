// Mean and 95% confidence interval over seeds.
#include "output/mean_ci.h"

#include <array>
#include <cmath>
#include <limits>

namespace dcqcn {

double T975(int df) {
  static constexpr std::array<double, 30> kTable = {
      12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
      2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
      2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (df <= static_cast<int>(kTable.size())) return kTable[df - 1];
  const double z = 1.959964;
  const double d = df;
  return z + (z * z * z + z) / (4 * d) +
         (5 * std::pow(z, 5) + 16 * std::pow(z, 3) + 3 * z) / (96 * d * d) +
         (3 * std::pow(z, 7) + 19 * std::pow(z, 5) + 17 * std::pow(z, 3) - 15 * z) /
             (384 * d * d * d);
}

MeanCi MeanCi95(const std::vector<double>& values) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  int n = 0;
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    sum += v;
    ++n;
  }
  if (n == 0) return {nan, nan, 0};
  const double mean = sum / n;
  if (n == 1) return {mean, nan, 1};
  double squares = 0;
  for (double v : values) {
    if (std::isfinite(v)) squares += (v - mean) * (v - mean);
  }
  const double sd = std::sqrt(squares / (n - 1));
  return {mean, T975(n - 1) * sd / std::sqrt(static_cast<double>(n)), n};
}

}  // namespace dcqcn
