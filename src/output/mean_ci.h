// The mean of repeated measurements (runs that differ only in their seed) and the half-width of
// its 95% confidence interval: Student t with n - 1 degrees of freedom. The sweep report
// (python/dcqcn/_report_common.py, mean_ci95) computes the same with the same table.
#pragma once

#include <vector>

namespace dcqcn {

// The 97.5th percentile of Student's t with `df` >= 1 degrees of freedom: a table for df <= 30,
// the Cornish-Fisher expansion beyond (within 1e-4 there).
double T975(int df);

struct MeanCi {
  double mean = 0;
  double half_width = 0;  // NaN with fewer than two values
  int n = 0;
};
// Of the finite values; n = 0 (and a NaN mean) when there are none.
MeanCi MeanCi95(const std::vector<double>& values);

}  // namespace dcqcn
