// The paper's buffer-threshold arithmetic and its per-switch application to a scenario.
#include "analysis/buffer_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_map>
#include <utility>

#include "cc/registry.h"
#include "net/headers.h"
#include "net/network.h"

namespace dcqcn {

HeadroomTerms EstimateHeadroom(Rate rate, Time cable_delay, Bytes mtu) {
  HeadroomTerms t;
  // Rounded up: a byte short of headroom is a drop.
  const __int128 round_trip_bits = static_cast<__int128>(2 * cable_delay) * rate;
  const __int128 per_byte = 8 * static_cast<__int128>(kSecond);
  t.round_trip = static_cast<Bytes>((round_trip_bits + per_byte - 1) / per_byte);
  t.frames = 2 * WireBytes(mtu + kEthernetFraming);
  t.pfc_frame = WireBytes(kPauseFrameBytes);
  t.response = (kResponseBits + 7) / 8;
  return t;
}

Bytes SharedBufferAfterHeadroom(Bytes buffer, int ports, Bytes headroom) {
  return buffer - static_cast<Bytes>(kRulePriorities) * ports * headroom;
}

double StaticPfcBound(Bytes shared, int ports) {
  return static_cast<double>(shared) / (static_cast<double>(kRulePriorities) * ports);
}

double StaticEcnBound(double pfc_threshold, int ports) { return pfc_threshold / ports; }

double DynamicEcnBound(Bytes shared, int ports, double beta) {
  return beta * static_cast<double>(shared) /
         (static_cast<double>(kRulePriorities) * ports * (beta + 1));
}

std::optional<Time> ParseCableDelay(std::string_view text) {
  double scale = 0;  // metres per unit
  if (text.size() > 2 && text.substr(text.size() - 2) == "km") {
    scale = 1000;
    text.remove_suffix(2);
  } else if (text.size() > 1 && text.back() == 'm') {
    scale = 1;
    text.remove_suffix(1);
  } else {
    return std::nullopt;
  }
  double number = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(number) ||
      number < 0) {
    return std::nullopt;
  }
  const double delay = number * scale * static_cast<double>(kCableDelayPerMetre);
  if (delay > 1e18) return std::nullopt;  // beyond int64 picoseconds: not a cable
  return static_cast<Time>(std::llround(delay));
}

std::string KbFloor(double bytes) {
  // The epsilon keeps exact decimal values such as 24470.0 / 10 from flooring one step low.
  return fmt::format("{:.2f} KB", std::floor(bytes / 10 + 1e-9) / 100);
}

std::string KbCeil(double bytes) {
  return fmt::format("{:.2f} KB", std::ceil(bytes / 10 - 1e-9) / 100 + 0.0);  // no "-0.00"
}

namespace {

// "s3", or "s0-s7, s9 (9 switches)" for several; long lists end in "...".
std::string SwitchList(const std::vector<int>& switches) {
  if (switches.size() == 1) return fmt::format("s{}", switches[0]);
  constexpr int kMaxRanges = 6;
  std::string text;
  int ranges = 0;
  for (size_t i = 0; i < switches.size();) {
    size_t j = i;
    while (j + 1 < switches.size() && switches[j + 1] == switches[j] + 1) ++j;
    if (ranges == kMaxRanges) {
      text += ", ...";
      break;
    }
    text += ranges ? ", " : "";
    text +=
        i == j ? fmt::format("s{}", switches[i]) : fmt::format("s{}-s{}", switches[i], switches[j]);
    ++ranges;
    i = j + 1;
  }
  return fmt::format("{} ({} switches)", text, switches.size());
}

struct PortLink {
  Rate rate;
  Time delay;
};

}  // namespace

std::vector<std::string> BufferWarnings(const Scenario& s) {
  std::vector<std::string> warnings;
  const SwitchConfig& sw = s.sw;
  if (!sw.pfc.enabled) return warnings;
  const CcAlgorithm* algorithm = FindCcAlgorithm(s.cc.algorithm);
  // ECN marks only matter when a congestion control reacts to them.
  const bool reacts_to_ecn = algorithm != nullptr && algorithm->reacts_to_ecn;
  if (!sw.ecn.enabled && reacts_to_ecn) {
    warnings.push_back(fmt::format(
        "PFC is enabled but switch.ecn is disabled with cc.algorithm = \"{}\": no packet is "
        "ever marked, so {} never slows a sender and only PFC controls congestion",
        algorithm->name, algorithm->label));
  }
  const bool check_ecn = sw.ecn.enabled && reacts_to_ecn;
  // A PAUSE that ends before its refresh can arrive lets the upstream send between refreshes,
  // which no headroom absorbs: losslessness needs a pause longer than the refresh's lead.
  const int min_quanta = MinRefreshablePauseQuanta(s.wire.DataFrame(s.host.mtu));
  if (!sw.pfc.pause_until_resume && sw.pfc.pause_quanta < min_quanta) {
    warnings.push_back(fmt::format(
        "switch.pfc.pause_quanta = {} is too short to keep a PAUSE in force: a refresh may wait "
        "for a {}-byte data frame and takes a PAUSE frame's time itself, {} quanta with one "
        "PAUSE between refreshes, so the upstream resumes between refreshes and PFC can drop "
        "packets; use pause_quanta >= {} (or pause_until_resume = true)",
        sw.pfc.pause_quanta, s.wire.DataFrame(s.host.mtu), min_quanta, min_quanta));
  }

  const TopologyConfig& topo = s.topology;
  std::vector<std::vector<PortLink>> ports(std::max(topo.switches, 0));
  for (const LinkSpec& l : topo.links) {
    for (int end : {l.a, l.b}) {
      if (end >= topo.hosts && end < topo.num_nodes()) {
        ports[end - topo.hosts].push_back({l.rate, l.delay});
      }
    }
  }
  const Bytes mtu_frame = DataFrameBytes(s.host.mtu);

  // Message -> switches that have it, in order of first appearance.
  std::vector<std::pair<std::string, std::vector<int>>> groups;
  std::unordered_map<std::string, size_t> group_of;
  auto warn = [&](int switch_index, std::string text) {
    auto [it, inserted] = group_of.try_emplace(text, groups.size());
    if (inserted) groups.emplace_back(std::move(text), std::vector<int>());
    groups[it->second].second.push_back(switch_index);
  };

  for (int i = 0; i < topo.switches; ++i) {
    const std::vector<PortLink>& links = ports[i];
    if (links.empty()) continue;
    const int n = static_cast<int>(links.size());
    Bytes total_headroom = 0;
    Bytes min_headroom = INT64_MAX;
    Bytes max_headroom = 0;
    int short_ports = 0;
    Bytes worst_need = 0;
    PortLink worst{};
    for (const PortLink& p : links) {
      const Bytes need = AutoHeadroom(p.rate, p.delay, mtu_frame);
      const Bytes headroom = PortHeadroom(sw.pfc, p.rate, p.delay, mtu_frame);
      total_headroom += headroom;
      min_headroom = std::min(min_headroom, headroom);
      max_headroom = std::max(max_headroom, headroom);
      if (headroom < need) {
        ++short_ports;
        if (need > worst_need) {
          worst_need = need;
          worst = p;
        }
      }
    }
    if (short_ports > 0) {
      warn(i, fmt::format("switch.pfc.headroom {} is smaller than the in-flight bytes of {} of "
                          "its {} ports (up to {} on {}, {} links: two one-way delays of data, "
                          "3 frames and a PAUSE): PFC can drop packets",
                          FormatSize(sw.pfc.headroom), short_ports, n, KbCeil(worst_need),
                          FormatRate(worst.rate), FormatTime(worst.delay)));
    }
    if (!check_ecn) continue;

    const Bytes shared = sw.buffer - kRulePriorities * total_headroom;
    const std::string headroom_text =
        min_headroom == max_headroom
            ? fmt::format("headroom {}", KbCeil(min_headroom))
            : fmt::format("headroom {} to {}", KbCeil(min_headroom), KbCeil(max_headroom));
    const std::string setting = fmt::format("{} ports, buffer {}, {} per port and priority", n,
                                            FormatSize(sw.buffer), headroom_text);
    if (shared <= 0) {
      warn(i, fmt::format("the paper's rule sets headroom aside for all {} priorities, which on "
                          "its ports ({}) takes the whole buffer ({}, where a run sets it aside "
                          "only for the priorities that carry data): the paper's ECN-before-PFC "
                          "rule cannot hold",
                          kRulePriorities, setting, KbCeil(kRulePriorities * total_headroom)));
      continue;
    }
    const double kmin = static_cast<double>(sw.ecn.kmin);
    if (sw.pfc.dynamic_threshold) {
      const double beta = 8 * sw.pfc.alpha;
      const double bound = DynamicEcnBound(shared, n, beta);
      if (kmin >= bound) {
        warn(i, fmt::format("ECN Kmin {} is not below the t_ECN bound {} of the dynamic PFC "
                            "threshold (beta = 8 x alpha = {}; {}): PFC can fire before ECN",
                            FormatSize(sw.ecn.kmin), KbFloor(bound), beta, setting));
      }
    } else {
      const double bound = StaticEcnBound(static_cast<double>(sw.pfc.static_threshold), n);
      if (kmin >= bound) {
        warn(i, fmt::format("ECN Kmin {} is not below the t_ECN bound {} of the static PFC "
                            "threshold {} (threshold / {} ports): PFC can fire before ECN",
                            FormatSize(sw.ecn.kmin), KbFloor(bound),
                            FormatSize(sw.pfc.static_threshold), n));
      }
      const double pfc_bound = StaticPfcBound(shared, n);
      if (static_cast<double>(sw.pfc.static_threshold) > pfc_bound) {
        warn(i, fmt::format("static PFC threshold {} is above the t_PFC bound {} = (B - 8 n "
                            "t_flight) / (8 n) ({}): the shared buffer can run out before every "
                            "queue pauses",
                            FormatSize(sw.pfc.static_threshold), KbFloor(pfc_bound), setting));
      }
    }
  }

  for (const auto& [text, switches] : groups) {
    warnings.push_back(fmt::format("{}: {}", SwitchList(switches), text));
  }
  return warnings;
}

}  // namespace dcqcn
