// `dcqcn buffer`: option parsing and the printed report; the arithmetic is analysis/buffer_rules.
#include "analysis/buffer_thresholds.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

#include "analysis/buffer_rules.h"
#include "core/error.h"

namespace dcqcn {
namespace {

[[noreturn]] void Bad(std::string_view option, std::string_view expected, std::string_view got) {
  throw InputError(fmt::format("{}: expected {}, got \"{}\"", option, expected, got));
}

int64_t IntOption(std::string_view option, const std::string& text, int64_t lo, int64_t hi,
                  std::string_view what) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < lo ||
      value > hi) {
    Bad(option, fmt::format("{} {}..{}", what, lo, hi), text);
  }
  return value;
}

double PositiveNumber(std::string_view option, const std::string& text, std::string_view what) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(value) || value <= 0) {
    Bad(option, what, text);
  }
  return value;
}

// Parses with ParseSize/ParseRate and requires a positive value.
template <typename Parse>
int64_t PositiveQuantity(std::string_view option, const std::string& text, Parse parse,
                         std::string_view what) {
  std::string beyond;
  const std::optional<int64_t> value = parse(text, &beyond);
  if (!value || *value <= 0) Bad(option, beyond.empty() ? std::string(what) : beyond, text);
  return *value;
}

std::string Percent(double part, double whole) {
  return fmt::format("{:.1f}%", 100 * part / whole);
}

}  // namespace

BufferThresholds ComputeBufferThresholds(const BufferOptions& o) {
  BufferThresholds t;
  t.ports = static_cast<int>(
      IntOption("--ports", o.ports, 1, 65535, "an integer number of switch ports"));
  t.buffer = PositiveQuantity("--buffer", o.buffer, ParseSize,
                              "a positive size such as \"12MB\" (units: B KB MB GB KiB "
                              "MiB GiB)");
  t.rate = PositiveQuantity("--rate", o.rate, ParseRate,
                            "a positive rate such as \"40Gbps\" (units: bps Kbps Mbps "
                            "Gbps Tbps)");
  const std::optional<Time> cable = ParseCableDelay(o.cable);
  if (!cable || *cable <= 0) {
    Bad("--cable", "a positive cable length such as \"100m\" or \"1.5km\"", o.cable);
  }
  t.cable_delay = *cable;
  t.mtu = IntOption("--mtu", o.mtu, 68, 9216, "an Ethernet MTU in bytes");
  t.beta = PositiveNumber("--beta", o.beta, "a positive number such as 8");
  t.kmin = PositiveQuantity("--kmin", o.kmin, ParseSize,
                            "a positive size such as \"5KB\" (units: B KB MB GB KiB "
                            "MiB GiB)");
  if (!o.headroom.empty()) {
    t.headroom = PositiveQuantity("--headroom", o.headroom, ParseSize,
                                  "a positive size such as \"22.4KB\" (units: B KB MB GB KiB MiB "
                                  "GiB)");
  } else {
    t.terms = EstimateHeadroom(t.rate, *cable, t.mtu);
    t.headroom = t.terms->total();
  }
  // In 128 bits: a typo such as --headroom 1000GB must be an error message, not an overflow.
  const __int128 all_headroom = static_cast<__int128>(kRulePriorities) * t.ports * t.headroom;
  if (all_headroom >= t.buffer) {
    throw InputError(fmt::format(
        "--buffer: {} cannot hold the headroom of {} priorities x {} ports x {} = {}; expected a "
        "larger buffer, fewer ports or less headroom",
        o.buffer, kRulePriorities, t.ports, KbCeil(static_cast<double>(t.headroom)),
        KbCeil(static_cast<double>(all_headroom))));
  }
  t.shared = SharedBufferAfterHeadroom(t.buffer, t.ports, t.headroom);
  t.pfc_static = StaticPfcBound(t.shared, t.ports);
  t.ecn_static = StaticEcnBound(t.pfc_static, t.ports);
  t.ecn_dynamic = DynamicEcnBound(t.shared, t.ports, t.beta);
  return t;
}

std::string BufferReport(const BufferOptions& o) {
  const BufferThresholds t = ComputeBufferThresholds(o);
  const int ports = t.ports;
  const Bytes buffer = t.buffer;
  const Rate rate = t.rate;
  const Bytes mtu = t.mtu;
  const double beta = t.beta;
  const Bytes kmin = t.kmin;
  std::string out = fmt::format("switch: {} ports of {}, buffer {} ({}), MTU {} B, beta {}\n",
                                ports, FormatRate(rate), KbFloor(static_cast<double>(buffer)),
                                FormatSize(buffer), mtu, beta);
  const Bytes headroom = t.headroom;
  if (!t.terms) {
    out += fmt::format("headroom t_flight            {:>10} per port per priority (--headroom)\n",
                       KbCeil(static_cast<double>(headroom)));
  } else {
    const HeadroomTerms& h = *t.terms;
    out += fmt::format(
        "headroom t_flight            {:>10} per port per priority ({} B), the sum of:\n",
        KbCeil(static_cast<double>(headroom)), headroom);
    out += fmt::format("  cable round trip           {:>7} B  2 x {} ({} of cable) at {}\n",
                       h.round_trip, FormatTime(t.cable_delay), o.cable, FormatRate(rate));
    out += fmt::format(
        "  frames in transmission     {:>7} B  one {} B frame on the wire at each end\n", h.frames,
        h.frames / 2);
    out += fmt::format("  PFC frame                  {:>7} B  the PAUSE itself on the wire\n",
                       h.pfc_frame);
    out += fmt::format(
        "  response allowance         {:>7} B  2 x {} + {} bit times (802.3, 40GBASE-R)\n",
        h.response, kInterfaceDelayBits, kPauseReactionBits);
  }
  const Bytes carved = buffer - t.shared;
  out += fmt::format("headroom, all priorities     {:>10} = 8 x n x t_flight ({} of the buffer)\n",
                     KbCeil(static_cast<double>(carved)),
                     Percent(static_cast<double>(carved), static_cast<double>(buffer)));
  const double t_pfc = t.pfc_static;
  const double ecn_static = t.ecn_static;
  const double ecn_dynamic = t.ecn_dynamic;
  const bool static_feasible = t.static_feasible();
  out += fmt::format("t_PFC, static threshold   <= {:>10} = (B - 8 n t_flight) / (8 n)\n",
                     KbFloor(t_pfc));
  out += fmt::format("t_ECN, static threshold   <  {:>10} = t_PFC / n{}\n", KbFloor(ecn_static),
                     static_feasible ? ""
                                     : fmt::format(": below one MTU ({}), infeasible",
                                                   KbFloor(static_cast<double>(mtu))));
  out += fmt::format(
      "t_ECN, dynamic threshold  <  {:>10} = beta (B - 8 n t_flight) / (8 n (beta + 1))\n",
      KbFloor(ecn_dynamic));

  const double k = static_cast<double>(kmin);
  out += fmt::format("Kmin {}:\n", FormatSize(kmin));
  out += k < ecn_dynamic ? fmt::format("  dynamic threshold (beta {}): safe, below {}\n", beta,
                                       KbFloor(ecn_dynamic))
                         : fmt::format(
                               "  dynamic threshold (beta {}): UNSAFE, not below {}: PFC can fire "
                               "before ECN\n",
                               beta, KbFloor(ecn_dynamic));
  out += k < ecn_static
             ? fmt::format("  static threshold at t_PFC: safe, below {}\n", KbFloor(ecn_static))
             : fmt::format(
                   "  static threshold at t_PFC: UNSAFE, not below {}: PFC can fire "
                   "before ECN\n",
                   KbFloor(ecn_static));
  return out;
}

}  // namespace dcqcn
