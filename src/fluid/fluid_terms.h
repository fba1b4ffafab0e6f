// The fluid model's rate terms (spec 5), shared by the integrator and the fixed-point solver:
// everything in packets and seconds.
#pragma once

#include <cmath>

#include "fluid/fluid_model.h"

namespace dcqcn::fluid {

struct ModelConstants {
  double cap = 0;                       // C [packets/s]
  double packet = 0;                    // bytes per packet
  double kmin = 0, kmax = 0, pmax = 0;  // [packets]
  double g = 0;
  double tau = 0, tau_alpha = 0, timer = 0;  // [s]
  double byte_counter = 0;                   // B [packets]; 0 = none
  int f = 0;
  double rai = 0;       // [packets/s]
  double min_rate = 0;  // [packets/s]
  double delay = 0;     // tau* [s]

  static ModelConstants From(const FluidParams& p) {
    ModelConstants c;
    c.packet = static_cast<double>(p.packet);
    c.cap = static_cast<double>(p.capacity) / 8 / c.packet;
    c.kmin = static_cast<double>(p.kmin) / c.packet;
    c.kmax = static_cast<double>(p.kmax) / c.packet;
    c.pmax = p.pmax;
    c.g = p.g;
    c.tau = static_cast<double>(p.cnp_interval) / kSecond;
    c.tau_alpha = static_cast<double>(p.alpha_period) / kSecond;
    c.timer = static_cast<double>(p.timer) / kSecond;
    c.byte_counter = static_cast<double>(p.byte_counter) / c.packet;
    c.f = p.f;
    c.rai = static_cast<double>(p.rai) / 8 / c.packet;
    c.min_rate = static_cast<double>(p.min_rate) / 8 / c.packet;
    c.delay = static_cast<double>(p.delay) / kSecond;
    return c;
  }
};

// The terms that depend on the delayed marking probability P alone.
struct MarkTerms {
  double p = 0;
  double l = 0;  // -ln(1 - P)
  double b = 0;  // P / ((1-P)^-B - 1): byte-counter events per packet
  double c = 0;  // b (1-P)^(F B): byte-counter events past fast recovery

  static MarkTerms From(const ModelConstants& k, double p) {
    MarkTerms m;
    m.p = p;
    if (p <= 0) {
      m.b = m.c = k.byte_counter > 0 ? 1 / k.byte_counter : 0;
      return m;
    }
    if (p >= 1) {
      m.l = INFINITY;
      return m;
    }
    m.l = -std::log1p(-p);
    if (k.byte_counter > 0) {
      const double bl = k.byte_counter * m.l;
      m.b = p / std::expm1(bl);
      m.c = m.b * std::exp(-k.f * bl);
    }
    return m;
  }
};

// One flow's terms at delayed rate r [packets/s]. a: probability of a CNP in tau; alpha_target:
// of a mark in tau'; rb, rc: R b, R c; rd, re: R d, R e (the timer's events per second).
struct FlowTerms {
  double a, alpha_target, rb, rc, rd, re;
};

inline FlowTerms ComputeFlowTerms(const ModelConstants& k, const MarkTerms& m, double r) {
  FlowTerms t;
  if (m.p <= 0) {
    t.a = t.alpha_target = 0;
    t.rd = t.re = 1 / k.timer;
  } else if (m.p >= 1) {
    t.a = t.alpha_target = 1;
    t.rd = t.re = 0;
  } else {
    const double x = r * m.l;
    t.a = -std::expm1(-k.tau * x);
    const double em = std::expm1(-k.timer * x);  // (1-P)^(T R) - 1
    t.alpha_target = k.tau_alpha == k.timer ? -em : -std::expm1(-k.tau_alpha * x);
    const double tx = k.timer * x;
    // R P / ((1-P)^(-T R) - 1), whose limit at R -> 0 is P / (T l).
    t.rd = tx < 1e-12 ? m.p / (k.timer * m.l) : r * m.p * (1 + em) / -em;
    double pf = 1;  // (1-P)^(F T R)
    for (int i = 0; i < k.f; ++i) pf *= 1 + em;
    t.re = t.rd * pf;
  }
  t.rb = r * m.b;
  t.rc = r * m.c;
  return t;
}

}  // namespace dcqcn::fluid
