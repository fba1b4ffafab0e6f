// A switch's buffer, PFC, ECN, ECMP and load-balancing settings (the MMU and the ports read them).
#pragma once

#include <vector>

#include "cc/ecn_config.h"
#include "core/units.h"

namespace dcqcn {

// SONiC's PFC watchdog (pfcwd, SONiC wiki "PFC Watchdog Design"), on every switch port.
struct PfcWatchdogConfig {
  bool enabled = false;
  // SONiC's defaults: 200 ms each.
  Time detection = 200 * kMillisecond;    // a lossless queue paused this long, holding packets
  Time restoration = 200 * kMillisecond;  // the storm ends once no PAUSE for it came this long
  // While stormed, the queue ignores PAUSE and either drops what it holds and what comes to it
  // (SONiC's default) or sends it on.
  enum class Action { kDrop, kForward };
  Action action = Action::kDrop;
};

struct PfcConfig {
  bool enabled = true;
  bool dynamic_threshold = true;  // Broadcom dynamic threshold (paper testbed, Trident II)
  double alpha = 0.125;           // XOFF at alpha * free shared buffer; HPCC shift 3 = 1/8
  Bytes static_threshold = 0;     // when !dynamic_threshold
  // Headroom per (ingress port, lossless priority), from each port's link:
  //  kAuto:  spec 4.5, 2 * one-way BDP + 3 MTU frames + a PFC frame;
  //  kHpcc:  3 * one-way BDP in whole bytes (HPCC ns-3 third.cc: rate * delay / 8 / 1e9 * 3);
  //  kFixed: `headroom` bytes on every port.
  enum class HeadroomRule { kAuto, kHpcc, kFixed };
  HeadroomRule headroom_rule = HeadroomRule::kAuto;
  Bytes headroom = 0;               // when kFixed
  Bytes reserve = 4000;             // guaranteed bytes per (ingress port, priority); HPCC 4 KB
  Bytes xon_offset = 0;             // 0 = 2 MTU frames below XOFF (paper); HPCC uses 3 KB
  int pause_quanta = 65535;         // 802.1Qbb maximum; refreshed before expiry while congested
  bool pause_until_resume = false;  // HPCC semantics: a PAUSE lasts until an explicit RESUME
  // Ports whose link has one of these rates use its alpha instead (HPCC ns-3 halves its
  // threshold shift per doubling of a port's rate over the hosts': 1/2 on 400G with 100G NICs).
  struct ForRate {
    Rate rate = 0;
    double alpha = 0;
  };
  std::vector<ForRate> by_rate;
  PfcWatchdogConfig watchdog;
  // The dynamic-threshold alpha of a port of `rate`.
  double AlphaForRate(Rate rate) const {
    for (const ForRate& r : by_rate) {
      if (r.rate == rate) return r.alpha;
    }
    return alpha;
  }
};

struct SwitchConfig {
  Bytes buffer = 12000000;  // paper testbed: Arista 7050QX32, 12 MB shared
  // How a switch picks among equal-cost next hops for a flow:
  //  kDcqcn: a 64-bit mix of (source, destination, UDP source port) with a per-switch seed
  //          drawn from the run's seed;
  //  kHpcc:  HPCC ns-3's SwitchNode::GetOutDev: murmur3 of (sip, dip, sport | dport << 16)
  //          seeded with the switch's node id, over next hops in that simulator's order, with
  //          its addresses and source ports (docs/validation.md).
  enum class EcmpHash { kDcqcn, kHpcc };
  EcmpHash ecmp_hash = EcmpHash::kDcqcn;
  // How data packets are spread over the equal-cost ports (net/load_balancer.h):
  //  kEcmp:     per flow, by the hash above (every packet of a flow takes one path);
  //  kFlowlet:  per flowlet: a flow's packet after a gap over `flowlet_timeout` starts a new
  //             flowlet on a port drawn at random (LetFlow, NSDI'17);
  //  kAdaptive: per packet, the port with the fewest data bytes queued (Spectrum-X's adaptive
  //             routing), ties to the first from the flow's ECMP port on;
  //  kSpray:    per packet, a port at random or in turn (`spray_order`), blind to load
  //             (oblivious spraying, as UEC's transport allows).
  enum class LoadBalancing { kEcmp, kFlowlet, kAdaptive, kSpray };
  LoadBalancing load_balancing = LoadBalancing::kEcmp;
  // Which switches balance that way; the others hash per flow. kLeaves: those cabled to hosts
  // (a two-tier fabric's only choice, the ToR's uplinks); kAboveLeaves: the others.
  enum class LoadBalancingAt { kAll, kLeaves, kAboveLeaves };
  LoadBalancingAt load_balancing_at = LoadBalancingAt::kAll;
  Time flowlet_timeout = 500 * kMicrosecond;  // CONGA's (SIGCOMM'14) flowlet gap
  enum class SprayOrder { kRandom, kRoundRobin };
  SprayOrder spray_order = SprayOrder::kRandom;
  PfcConfig pfc;
  EcnConfig ecn;
};

}  // namespace dcqcn
