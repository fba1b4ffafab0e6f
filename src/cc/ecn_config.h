// DCQCN's congestion point: the RED curve a switch marks ECN with at egress (spec 3). The
// switches (net/) and the fluid model (fluid/) read the same parameters.
#pragma once

#include <vector>

#include "core/units.h"

namespace dcqcn {

struct EcnConfig {
  bool enabled = true;
  Bytes kmin = 5000;    // paper 40G: 5 KB
  Bytes kmax = 200000;  // paper 40G: 200 KB
  double pmax = 0.01;   // paper: 1%
  // Ports whose link has one of these rates use its thresholds instead (HPCC's KMIN_MAP,
  // KMAX_MAP and PMAX_MAP: a fabric's 400G ports need other thresholds than its 100G ones).
  struct ForRate {
    Rate rate = 0;
    Bytes kmin = 0;
    Bytes kmax = 0;
    double pmax = 0;
  };
  std::vector<ForRate> by_rate;
  // The thresholds of a port of `rate`.
  EcnConfig ForPortRate(Rate rate) const {
    EcnConfig e = *this;
    for (const ForRate& r : by_rate) {
      if (r.rate == rate) {
        e.kmin = r.kmin;
        e.kmax = r.kmax;
        e.pmax = r.pmax;
      }
    }
    e.by_rate.clear();
    return e;
  }
};

}  // namespace dcqcn
