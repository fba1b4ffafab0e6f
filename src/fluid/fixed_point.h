// The fluid model's fixed point for N identical flows (spec 5): the exact root of its
// steady-state condition, and the CoNEXT'16 cube-root approximation beside it.
#pragma once

#include <optional>

#include "fluid/fluid_model.h"

namespace dcqcn::fluid {

struct FixedPoint {
  double p = 0;                       // marking probability p*
  std::optional<double> queue_bytes;  // q* on the RED curve; none where p* > Pmax
  double alpha = 0;                   // alpha* = 1 - (1 - p*)^(tau' C / N)
  double rc_bps = 0;                  // Rc* = C / N
  double rt_bps = 0;                  // Rt* (not clamped at C)
  bool on_curve() const { return queue_bytes.has_value(); }
};

// Solves alpha a^2 = R_AI R tau^2 (b + d)(c + e) at R = C/N (from dRc/dt = dRt/dt = 0) for p by
// bisection. Kmin == Kmax leaves no linear part, so no queue.
FixedPoint ExactFixedPoint(const FluidParams& params, int n);

// p* ~ cbrt(R_AI N^2 / (tau' C^2) (1/B + N/(T C))^2), valid for small p; Rt* from the same
// small-p expansion.
FixedPoint ApproxFixedPoint(const FluidParams& params, int n);

}  // namespace dcqcn::fluid
