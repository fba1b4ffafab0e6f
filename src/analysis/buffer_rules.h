// The DCQCN paper's switch-buffer rules (SIGCOMM'15 section on buffer settings, spec 4.2): PFC
// headroom, the static PFC threshold bound and the ECN-before-PFC bounds on Kmin.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.h"
#include "scenario/scenario.h"

namespace dcqcn {

// The paper sizes every buffer share for all 8 PFC priorities, whatever is in use (conservative).
inline constexpr int kRulePriorities = 8;

// Signal speed in fibre or copper: about 2/3 of c, 5 ns per metre (the usual cabling figure).
inline constexpr Time kCableDelayPerMetre = 5 * kNanosecond;

// Layer-2 bytes around an MTU-sized packet: Ethernet header 14, 802.1Q tag 4, FCS 4.
inline constexpr Bytes kEthernetFraming = 22;

// Response allowance of a PFC port pair, in bit times (so it scales with the link rate as the
// standard's limits do). IEEE 802.3 upper bounds for 40GBASE-R, the paper's port speed:
//   interface delay (MAC + PHY) 24576 bit times, counted at each end: the PAUSE leaves the
//   downstream port and enters the upstream one;
//   PAUSE reaction (higher-layer delay before the upstream stops) 118 quanta = 60416 bit times.
inline constexpr int64_t kInterfaceDelayBits = 24576;
inline constexpr int64_t kPauseReactionBits = 118 * 512;
inline constexpr int64_t kResponseBits = 2 * kInterfaceDelayBits + kPauseReactionBits;

// t_flight, the headroom one (port, priority) needs so that a PAUSE never loses data, following
// the worst case of 802.1Qbb / Cisco's PFC guideline that the paper uses. From the moment the
// ingress queue crosses XOFF, the upstream keeps sending during:
//   round_trip: the PAUSE travelling up the cable and the last bytes travelling down it,
//               rate * 2 * cable delay;
//   frames:     a maximum frame in transmission at each end: the downstream cannot start the
//               PAUSE until its current frame is out, the upstream cannot abandon the frame it
//               has begun; 2 * (MTU + 22 framing + 20 preamble and gap);
//   pfc_frame:  the PAUSE frame's own time on the wire, 64 + 20 bytes;
//   response:   interface delays and the upstream's reaction time, kResponseBits / 8.
// With 40 Gb/s, 100 m of cable and MTU 1500 this is 21,864 bytes; the paper quotes 22.4 KB for
// its testbed (it does not give its cable lengths; about 110 m gives 22.4 KB).
struct HeadroomTerms {
  Bytes round_trip = 0;
  Bytes frames = 0;
  Bytes pfc_frame = 0;
  Bytes response = 0;
  Bytes total() const { return round_trip + frames + pfc_frame + response; }
};
// `mtu` is the Ethernet MTU (largest IP packet), as in the paper's "1500 byte MTU".
HeadroomTerms EstimateHeadroom(Rate rate, Time cable_delay, Bytes mtu);

// Buffer left to the shared pool once each of `ports` ports reserves `headroom` for every one of
// the 8 priorities: B - 8 * n * t_flight. Negative when the headroom does not fit.
Bytes SharedBufferAfterHeadroom(Bytes buffer, int ports, Bytes headroom);

// The paper's bounds, in bytes, given `shared` = B - 8 * n * t_flight (or, with ports of
// different headroom, B - 8 * sum of t_flight over the ports).
//   Static PFC threshold: t_PFC <= shared / (8 n): every ingress queue can fill to it at once.
double StaticPfcBound(Bytes shared, int ports);
//   ECN before PFC with a static threshold: all n egress queues may be fed by one ingress queue,
//   so t_PFC > n * t_ECN, i.e. t_ECN < t_PFC / n.
double StaticEcnBound(double pfc_threshold, int ports);
//   ECN before PFC with the dynamic threshold t_PFC = beta * (shared - s) / 8: just before ECN
//   acts the ingress queue holds n * t_ECN and the shared occupancy s is at most 8 * n * t_ECN
//   (every egress queue of every priority at t_ECN), so t_ECN < beta * shared / (8 n (beta + 1)).
//   Our XOFF threshold is alpha * free buffer, hence beta = 8 * alpha.
double DynamicEcnBound(Bytes shared, int ports, double beta);

// Cable length "100m", "1.5km" (non-negative) -> one-way propagation delay at 5 ns/m;
// std::nullopt when malformed or negative.
std::optional<Time> ParseCableDelay(std::string_view text);

// Bytes as KB with 2 decimals, rounded down to 10 bytes: a bound printed this way is still a
// safe bound (the paper's 24.475 KB is quoted as 24.47).
std::string KbFloor(double bytes);
// Bytes as KB with 2 decimals, rounded up: for amounts that must be reserved.
std::string KbCeil(double bytes);

// The same rules applied to every switch of a scenario, when PFC is enabled. A switch's ports
// come from topology.links; its headroom per port is switch.pfc.headroom or, when "auto", what
// the simulator reserves (AutoHeadroom of the port's link). Warns when
//   (a) ECN Kmin is not below the t_ECN bound of the PFC threshold in use: PFC can fire before
//       ECN (dynamic: beta = 8 * alpha; static: t_ECN bound = threshold / n; and a static
//       threshold above the t_PFC bound, which lets the shared buffer run out). Only when ECN is
//       enabled and cc.algorithm reacts to it (not "none");
//   (b) a configured headroom is smaller than a port's in-flight bytes (AutoHeadroom): PFC
//       cannot keep that port lossless;
//   (c) DCQCN runs with ECN disabled: only PFC slows the senders.
// Identical warnings of several switches are merged into one that lists them ("s0-s19").
std::vector<std::string> BufferWarnings(const Scenario& s);

}  // namespace dcqcn
