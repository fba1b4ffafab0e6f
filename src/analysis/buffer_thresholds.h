// The paper's switch-buffer threshold rules (spec 4.2) for a given switch, with a verdict on an
// ECN Kmin: what `dcqcn buffer` and dcqcn.buffer() compute.
#pragma once

#include <optional>
#include <string>

#include "analysis/buffer_rules.h"
#include "core/units.h"

namespace dcqcn {

// Options as typed, validated by BufferReport so that a bad value is an InputError (exit 1)
// naming the option. Defaults: the paper's testbed (Arista 7050QX32, 32 x 40G, 12 MB).
struct BufferOptions {
  std::string ports = "32";
  std::string buffer = "12000KB";
  std::string rate = "40Gbps";
  std::string cable = "100m";
  std::string mtu = "1500";
  std::string headroom{};  // empty: estimated from rate, cable and MTU
  std::string beta = "8";
  std::string kmin = "5KB";
};

// The paper's thresholds for a switch (spec 4.2), in bytes, as `dcqcn buffer` computes them.
struct BufferThresholds {
  int ports = 0;
  Bytes buffer = 0;
  Rate rate = 0;
  Time cable_delay = 0;  // one way
  Bytes mtu = 0;
  double beta = 0;
  Bytes kmin = 0;
  Bytes headroom = 0;                  // t_flight per port per priority
  std::optional<HeadroomTerms> terms;  // its estimate, unless --headroom gave it
  Bytes shared = 0;                    // B - 8 n t_flight
  double pfc_static = 0;               // t_PFC bound of a static threshold
  double ecn_static = 0;               // t_ECN bound with the static threshold at t_PFC
  double ecn_dynamic = 0;              // t_ECN bound with the dynamic threshold (beta)
  bool static_feasible() const { return ecn_static >= static_cast<double>(mtu); }
  bool kmin_safe_dynamic() const { return static_cast<double>(kmin) < ecn_dynamic; }
  bool kmin_safe_static() const { return static_cast<double>(kmin) < ecn_static; }
};

// The thresholds for `options`. Throws InputError for a bad option value, naming it.
BufferThresholds ComputeBufferThresholds(const BufferOptions& options);

// The report `dcqcn buffer` prints. Throws InputError for a bad option value.
std::string BufferReport(const BufferOptions& options);

}  // namespace dcqcn
