#include "net/switch_keys.h"

namespace dcqcn {
namespace {

using K = KeyKind;

constexpr std::string_view kEcmpHashNames[] = {"dcqcn", "hpcc"};  // by SwitchConfig::EcmpHash
constexpr std::string_view kWatchdogActionNames[] = {"drop", "forward"};  // by Action
// By SwitchConfig::LoadBalancing, LoadBalancingAt and SprayOrder.
constexpr std::string_view kLoadBalancingNames[] = {"ecmp", "flowlet", "adaptive", "spray"};
constexpr std::string_view kLoadBalancingAtNames[] = {"all", "leaves", "above_leaves"};
constexpr std::string_view kSprayOrderNames[] = {"random", "round_robin"};

constexpr KeyRow<SwitchConfig> kSwitchKeys[] = {
    {.doc = {"buffer", K::kValue, "size", "", "\"12MB\"",
             "Shared packet buffer of each switch. Paper testbed: Arista 7050QX32, 12 MB."},
     .field = &SwitchConfig::buffer,
     .min = 1},
    {.doc = {"pfc", K::kTable, "table", "", "PFC on, dynamic threshold",
             "Priority flow control (802.1Qbb) and the buffer accounting behind it."}},
    {.doc = {"ecn", K::kTable, "table", "", "the paper's RED at 40G",
             "ECN marking at egress: DCQCN's congestion point."}},
    {.doc = {"ecmp_hash", K::kValue, "string", "", "\"dcqcn\"",
             "How a switch picks among equal-cost next hops for a flow: \"dcqcn\" (a 64-bit mix "
             "of source, destination and UDP source port with a per-switch seed from the run's "
             "seed) or \"hpcc\" (HPCC ns-3: murmur3 of source IP, destination IP and the UDP "
             "ports, seeded with the switch's node id, over next hops in that simulator's order; "
             "source ports count from 10000 per host pair)."},
     .field = ByName<&SwitchConfig::ecmp_hash>(kEcmpHashNames)},
    {.doc = {"load_balancing", K::kValue, "string", "", "\"ecmp\"",
             "How a switch spreads data packets over the equal-cost ports: \"ecmp\" (per flow, "
             "by ecmp_hash: a flow keeps one path), \"flowlet\" (a flow's packet after a gap "
             "over flowlet_timeout starts a new flowlet on a port drawn at random, LetFlow's "
             "rule; a 16K-slot table indexed by the 5-tuple hash), \"adaptive\" (per packet, the "
             "port with the fewest data bytes queued, ties to the first from the flow's ECMP port "
             "on: NVIDIA Spectrum-X's adaptive routing) or \"spray\" (per packet, blind to load, "
             "in spray_order: UEC's oblivious spraying). ACKs, NACKs and CNPs keep their flow's "
             "ECMP path. Packets that overtake each other are losses to a go-back-N NIC."},
     .field = ByName<&SwitchConfig::load_balancing>(kLoadBalancingNames)},
    {.doc = {"load_balancing_at", K::kValue, "string", "", "\"all\"",
             "The switches that balance as load_balancing says; the others hash per flow: "
             "\"all\", \"leaves\" (those cabled to hosts: a two-tier fabric's only choice is "
             "there, the ToR's uplinks) or \"above_leaves\" (a fat tree's aggregation and core)."},
     .field = ByName<&SwitchConfig::load_balancing_at>(kLoadBalancingAtNames)},
    {.doc = {"flowlet_timeout", K::kValue, "time", "", "\"500us\"",
             "The gap after which a flow's next packet starts a new flowlet "
             "(load_balancing = \"flowlet\"). CONGA (SIGCOMM'14): 500 us."},
     .field = &SwitchConfig::flowlet_timeout,
     .min = 1},
    {.doc = {"spray_order", K::kValue, "string", "", "\"random\"",
             "load_balancing = \"spray\": each packet's port \"random\" (uniform among the "
             "equal-cost ports) or \"round_robin\" (the switch's ports in turn)."},
     .field = ByName<&SwitchConfig::spray_order>(kSprayOrderNames)},
};

constexpr KeyRow<PfcConfig> kPfcKeys[] = {
    {.doc = {"enabled", K::kValue, "boolean", "", "true",
             "Send PAUSE when an (ingress port, priority) holds too many bytes; without it a full "
             "buffer drops."},
     .field = &PfcConfig::enabled},
    // A size or "dynamic": read and written by hand.
    {.doc = {"threshold", K::kValue, "size or \"dynamic\"", "", "\"dynamic\"",
             "XOFF point of the shared bytes of one (ingress port, priority): a fixed size, or "
             "alpha x the free shared buffer (Broadcom's dynamic threshold, the paper testbed's "
             "Trident II)."}},
    {.doc = {"alpha", K::kValue, "number", "", "0.125",
             "Factor of the dynamic threshold. HPCC: shift 3 = 1/8."},
     .field = &PfcConfig::alpha,
     .expected = "a number > 0 (the dynamic-threshold factor)",
     .valid = [](double v) { return v > 0; },
     .shows_number = true},
    // A size, "auto" or "hpcc": read and written by hand.
    {.doc = {"headroom", K::kValue, "size, \"auto\" or \"hpcc\"", "", "\"auto\"",
             "Bytes reserved per (ingress port, priority) for what arrives after XOFF; \"auto\": "
             "two one-way BDPs of the port's link plus three MTU frames and a PFC frame, which "
             "keeps PFC lossless; \"hpcc\": three one-way BDPs in whole bytes (HPCC ns-3's "
             "rule)."}},
    {.doc = {"reserve", K::kValue, "size", "", "\"4KB\"",
             "Guaranteed bytes per (ingress port, priority) before the shared buffer is used. "
             "HPCC: 4 KB."},
     .field = &PfcConfig::reserve},
    // 0 until the loader resolves it from host.mtu and [wire].
    {.doc = {"xon_offset", K::kValue, "size", "", "depends on `host.mtu`: 2 data frames",
             "RESUME once headroom is empty and the shared bytes are this far below XOFF. Paper: "
             "2 MTU frames; HPCC uses 3KB."},
     .field = &PfcConfig::xon_offset},
    {.doc = {"pause_quanta", K::kValue, "integer", "512-bit times", "65535",
             "Pause time a PAUSE frame asks for (802.1Qbb maximum); refreshed at half of it while "
             "congested, or sooner when a refresh waiting behind a data frame would arrive late. "
             "`check` warns below about 20 (1000-byte payloads), which no refresh keeps in "
             "force."},
     .field = &PfcConfig::pause_quanta,
     .min = 1,
     .max = 65535,
     .expected = "an integer number of 512-bit quanta"},
    {.doc = {"pause_until_resume", K::kValue, "boolean", "", "false",
             "A PAUSE lasts until an explicit RESUME (HPCC's semantics) instead of its quanta."},
     .field = &PfcConfig::pause_until_resume},
    // A list of tables: read and written by hand.
    {.doc = {"by_rate", K::kValue, "list of tables", "", "[]",
             "Dynamic-threshold alpha for ports of a given link rate, e.g. `[{rate = "
             "\"400Gbps\", alpha = 0.5}]`; other ports use alpha. HPCC ns-3 halves its shift per "
             "doubling of a port's rate over the hosts' (1/8 at 100G, 1/2 at 400G)."}},
    {.doc = {"watchdog", K::kTable, "table", "", "none",
             "A PFC watchdog on every switch port (SONiC's pfcwd); present: on."}},
};

constexpr KeyRow<PfcWatchdogConfig> kPfcWatchdogKeys[] = {
    // The table's presence turns it on: it is written as the table, not as this key.
    {.doc = {"enabled", K::kValue, "boolean", "", "true",
             "The watchdog runs (the table alone turns it on)."},
     .field = &PfcWatchdogConfig::enabled,
     .written = Written::kByHand},
    {.doc = {"detection", K::kValue, "time", "", "\"200ms\"",
             "A lossless egress queue that holds packets and has been paused without a break this "
             "long is declared stormed. SONiC: detection_time, 200 ms by default."},
     .field = &PfcWatchdogConfig::detection,
     .min = 1},
    {.doc = {"restoration", K::kValue, "time", "", "\"200ms\"",
             "A stormed queue is restored once no PAUSE for it has arrived for this long (counted "
             "from the storm at the earliest). SONiC: restoration_time, 200 ms by default."},
     .field = &PfcWatchdogConfig::restoration,
     .min = 1},
    {.doc = {"action", K::kValue, "string", "", "\"drop\"",
             "While stormed the queue ignores PAUSE and \"drop\" discards what it holds and what "
             "is routed to it (SONiC's default), or \"forward\" sends it on."},
     .field = ByName<&PfcWatchdogConfig::action>(kWatchdogActionNames)},
};

constexpr KeyRow<EcnConfig> kEcnKeys[] = {
    {.doc = {"enabled", K::kValue, "boolean", "", "true",
             "Mark ECN at egress (RED on the queue length)."},
     .field = &EcnConfig::enabled},
    {.doc = {"kmin", K::kValue, "size", "", "\"5KB\"",
             "Queue length above which packets are marked with a probability. Paper at 40G: "
             "5 KB."},
     .field = &EcnConfig::kmin},
    {.doc = {"kmax", K::kValue, "size", "", "\"200KB\"",
             "Queue length at which the probability reaches pmax; above it every packet is "
             "marked. Paper at 40G: 200 KB."},
     .field = &EcnConfig::kmax,
     .min = 1},
    {.doc = {"pmax", K::kValue, "number", "probability", "0.01",
             "Marking probability at kmax, in (0, 1]. Paper: 1%."},
     .field = &EcnConfig::pmax,
     .expected = "a marking probability in (0, 1]",
     .valid = [](double v) { return v > 0 && v <= 1; },
     .shows_number = true},
    // A list of tables: read and written by hand.
    {.doc = {"by_rate", K::kValue, "list of tables", "", "[]",
             "Thresholds for ports of a given link rate, e.g. `[{rate = \"400Gbps\", kmin = "
             "\"1600KB\", kmax = \"6400KB\", pmax = 0.2}]`; other ports use kmin/kmax/pmax. HPCC: "
             "KMIN_MAP, KMAX_MAP and PMAX_MAP. `--set switch.ecn.by_rate.0.kmin=800KB` sets one "
             "entry's key."}},
};

}  // namespace

std::span<const KeyRow<SwitchConfig>> SwitchKeys() { return kSwitchKeys; }
std::span<const KeyRow<PfcConfig>> PfcKeys() { return kPfcKeys; }
std::span<const KeyRow<PfcWatchdogConfig>> PfcWatchdogKeys() { return kPfcWatchdogKeys; }
std::span<const KeyRow<EcnConfig>> EcnKeys() { return kEcnKeys; }

}  // namespace dcqcn
