#include "output/output_keys.h"

namespace dcqcn {
namespace {

using K = KeyKind;

constexpr KeyRow<OutputConfig> kOutputKeys[] = {
    // A list of series names into one flag each: read and written by hand.
    {.doc = {"timeseries", K::kValue, "list of strings", "", "[]",
             "Which of `\"rate\"`, `\"queue\"`, `\"pfc\"`, `\"throughput\"` to write to "
             "timeseries/*.csv."}},
    {.doc = {"interval", K::kValue, "time", "", "\"10us\"",
             "Sampling interval of the queue, throughput and rate series."},
     .field = &OutputConfig::interval,
     .min = 1},
    {.doc = {"warmup", K::kValue, "time", "", "\"0us\"",
             "Queue statistics in summary.json (\"bottleneck\") count from this long after the "
             "first flow's start, so a start-up transient does not dominate them."},
     .field = &OutputConfig::warmup},
    // Written last and only when set, so a resolved.toml from before deadlock detection stays
    // the same text.
    {.doc = {"deadlock_time", K::kValue, "time", "", "\"1ms\"",
             "A cycle of PFC-paused switch queues, each holding data and waiting on the next "
             "one's PAUSE, stuck this long is a deadlock: summary.json lists it under "
             "pfc.deadlocks (when, the cycle, the flows stuck in it). \"0us\": not looked for; "
             "else at least \"1us\" (it is looked for once per deadlock_time)."},
     .field = &OutputConfig::deadlock_time,
     .written = Written::kByHand},
    {.doc = {"convergence_window", K::kValue, "time", "", "\"5ms\"",
             "Convergence time (summary.json): the length of the sliding windows over which each "
             "active flow's throughput is measured. Earlier docs/paper.md runs: 5 ms."},
     .field = &OutputConfig::convergence_window,
     .min = 1},
    {.doc = {"pcap", K::kTable, "table", "", "no capture",
             "A packet capture (capture.pcap) Wireshark reads: the RoCEv2 bytes of the packets "
             "seen at some ports."}},
    {.doc = {"convergence_tolerance", K::kValue, "number", "fraction", "0.15",
             "Convergence time: a window is fair when every flow's throughput in it is within "
             "this fraction of the flows' mean, in (0, 1). Earlier docs/paper.md runs: 15%."},
     .field = &OutputConfig::convergence_tolerance,
     .expected = "a fraction in (0, 1) such as 0.15",
     .valid = [](double v) { return v > 0 && v < 1; }},
};

constexpr KeyRow<PcapConfig> kPcapKeys[] = {
    // Node and port names, checked against the topology: read and written by hand.
    {.doc = {"points", K::kValue, "list of strings", "", "[] (no capture)",
             "Where to capture: `\"h1\"` is what host h1's NIC sends and receives, `\"s0:3\"` "
             "what port 3 of switch s0 sends and receives (ports numbered in cabling order, as in "
             "links.csv)."}},
    // Names into bits: read and written by hand.
    {.doc = {"kinds", K::kValue, "list of strings", "",
             "[\"data\", \"ack\", \"nack\", \"cnp\", \"pfc\"]", "Which packets to capture."}},
    {.doc = {"from", K::kValue, "time", "", "\"0us\"", "Capture packets seen from this time on."},
     .field = &PcapConfig::from},
    // Written only when given (kMaxTime: the end of the run).
    {.doc = {"until", K::kValue, "time", "", "the end of the run",
             "Capture packets seen before this time."},
     .field = &PcapConfig::until,
     .min = 1,
     .written = Written::kByHand},
    {.doc = {"max_packets", K::kValue, "integer", "packets", "1000000",
             "The capture stops after this many packets (the run goes on)."},
     .field = &PcapConfig::max_packets,
     .min = 1,
     .max = 1000000000,
     .expected = "an integer number of packets"},
    {.doc = {"snaplen", K::kValue, "integer", "bytes", "65535",
             "Bytes kept of each frame, from 64 (every header) to 65535 (whole frames); the "
             "payload is cut beyond (Wireshark then calls RoCE frames malformed: \"Invalid Packet "
             "Length\")."},
     .field = &PcapConfig::snaplen,
     .min = 64,
     .max = 65535,
     .expected = "an integer number of bytes"},
};

}  // namespace

std::span<const KeyRow<OutputConfig>> OutputKeys() { return kOutputKeys; }
std::span<const KeyRow<PcapConfig>> PcapKeys() { return kPcapKeys; }

}  // namespace dcqcn
