// Fixed points of the DCQCN fluid model.
#include "fluid/fixed_point.h"

#include <cmath>
#include <stdexcept>

#include "fluid/fluid_terms.h"

namespace dcqcn::fluid {
namespace {

std::optional<double> QueueOnCurve(const ModelConstants& k, double p) {
  if (k.kmax <= k.kmin || p > k.pmax) return std::nullopt;
  return (k.kmin + p / k.pmax * (k.kmax - k.kmin)) * k.packet;
}

// dRc/dt = 0 and dRt/dt = 0 with Rc = C/N give Rt - Rc = R_AI (Rc + Re) tau / a and
// alpha a^2 = R_AI tau^2 (Rb + Rd)(Rc + Re) / R; this is the difference of the two sides, which
// grows with p.
double Residual(const ModelConstants& k, double r, double p) {
  const MarkTerms m = MarkTerms::From(k, p);
  const FlowTerms t = ComputeFlowTerms(k, m, r);
  return t.alpha_target * t.a * t.a - k.rai * k.tau * k.tau * (t.rb + t.rd) * (t.rc + t.re) / r;
}

}  // namespace

FixedPoint ExactFixedPoint(const FluidParams& params, int n) {
  if (n < 1) throw std::invalid_argument("fixed point: need at least one flow");
  const ModelConstants k = ModelConstants::From(params);
  const double r = k.cap / n;
  // Bisection on log p: the residual is negative as p -> 0 and positive at p -> 1.
  double lo = std::log(1e-300), hi = std::log1p(-1e-15);
  if (Residual(k, r, std::exp(lo)) >= 0) hi = lo;
  for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
    const double mid = 0.5 * (lo + hi);
    (Residual(k, r, std::exp(mid)) < 0 ? lo : hi) = mid;
  }
  FixedPoint fp;
  fp.p = std::exp(0.5 * (lo + hi));
  const MarkTerms m = MarkTerms::From(k, fp.p);
  const FlowTerms t = ComputeFlowTerms(k, m, r);
  fp.queue_bytes = QueueOnCurve(k, fp.p);
  fp.alpha = t.alpha_target;
  fp.rc_bps = r * 8 * k.packet;
  fp.rt_bps = (r + k.rai * (t.rc + t.re) * k.tau / t.a) * 8 * k.packet;
  return fp;
}

FixedPoint ApproxFixedPoint(const FluidParams& params, int n) {
  if (n < 1) throw std::invalid_argument("fixed point: need at least one flow");
  const ModelConstants k = ModelConstants::From(params);
  const double r = k.cap / n;
  const double inv_b = k.byte_counter > 0 ? 1 / k.byte_counter : 0;
  const double s = inv_b + n / (k.timer * k.cap);
  FixedPoint fp;
  fp.p = std::cbrt(k.rai * n * n / (k.tau_alpha * k.cap * k.cap) * s * s);
  fp.queue_bytes = QueueOnCurve(k, fp.p);
  fp.alpha = -std::expm1(k.tau_alpha * r * std::log1p(-std::min(fp.p, 1.0)));
  fp.rc_bps = r * 8 * k.packet;
  // Small p: a ~ tau R p and R c + R e ~ R s, so Rt - Rc ~ R_AI s / p.
  fp.rt_bps = (r + k.rai * s / fp.p) * 8 * k.packet;
  return fp;
}

}  // namespace dcqcn::fluid
