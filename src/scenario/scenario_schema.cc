// The scenario format's tables and keys with their types, defaults and meanings. Defaults are
// written as a user would write them; their values live in scenario.h's member initializers and
// tests/scenario/key_reference_test.cc checks that the two agree.
#include "scenario/scenario_schema.h"

#include "topology/topology_type.h"

namespace dcqcn {
namespace {

using K = KeyKind;

constexpr KeySchema kRootKeys[] = {
    {"name", K::kValue, "string", "", "depends on the file: its name without `.toml`",
     "Names the run in summaries and the default output folder `results/<name>/` (no `/`)."},
    {"duration", K::kValue, "time", "", "\"10ms\"",
     "Upper bound of simulated time; the run ends earlier once every flow has finished."},
    {"seed", K::kValue, "integer", "", "1",
     "Seed of every random choice (generated workloads, ECN marking, ECMP hashing, UDP source "
     "ports): a run is a deterministic function of it."},
    {"topology", K::kTable, "table", "", "a 9-host star", "Hosts, switches and links."},
    {"switch", K::kTable, "table", "", "the paper's testbed switch",
     "Shared buffer, PFC and ECN of every switch."},
    {"host", K::kTable, "table", "", "HPCC's NIC settings", "RDMA NIC transport settings."},
    {"wire", K::kTable, "table", "", "RoCEv2 over Ethernet",
     "How frames are sized and timed on every link; `dcqcn ns3` sets HPCC ns-3's format."},
    {"cc", K::kOpenTable, "table", "", "DCQCN, paper profile",
     "Congestion control: the algorithm, its profile and any parameter override."},
    {"flow", K::kFlowArray, "array of tables", "", "none",
     "Explicit flows, `[[flow]]` once per flow; `--set flow.N.KEY=...` changes the N-th (from 0)."},
    {"workload", K::kTable, "table", "", "none",
     "Flows generated from a pattern, added after the explicit ones."},
    {"collective", K::kFlowArray, "array of tables", "", "none",
     "Collective operations (AllReduce, ...), `[[collective]]` once per operation, each expanded "
     "into flows that wait for each other, after every other flow; `--set collective.N.KEY=...` "
     "changes the N-th (from 0). docs/collectives.md."},
    {"route", K::kFlowArray, "array of tables", "", "none",
     "Static routes, `[[route]]` once per route: at `switch`, packets to `dst` leave towards "
     "`next` instead of the computed shortest paths (how the classic PFC deadlocks are built)."},
    {"event", K::kFlowArray, "array of tables", "", "none",
     "Things that happen during the run, `[[event]]` once per event: a NIC's pause storm "
     "(docs/pfc-pathologies.md)."},
    {"output", K::kTable, "table", "", "no time series",
     "What a run records besides flows.csv and summary.json."},
};

constexpr KeySchema kSwitchKeys[] = {
    {"buffer", K::kValue, "size", "", "\"12MB\"",
     "Shared packet buffer of each switch. Paper testbed: Arista 7050QX32, 12 MB."},
    {"pfc", K::kTable, "table", "", "PFC on, dynamic threshold",
     "Priority flow control (802.1Qbb) and the buffer accounting behind it."},
    {"ecn", K::kTable, "table", "", "the paper's RED at 40G",
     "ECN marking at egress: DCQCN's congestion point."},
    {"ecmp_hash", K::kValue, "string", "", "\"dcqcn\"",
     "How a switch picks among equal-cost next hops for a flow: \"dcqcn\" (a 64-bit mix of "
     "source, destination and UDP source port with a per-switch seed from the run's seed) or "
     "\"hpcc\" (HPCC ns-3: murmur3 of source IP, destination IP and the UDP ports, seeded with "
     "the switch's node id, over next hops in that simulator's order; source ports count from "
     "10000 per host pair)."},
};

constexpr KeySchema kPfcKeys[] = {
    {"enabled", K::kValue, "boolean", "", "true",
     "Send PAUSE when an (ingress port, priority) holds too many bytes; without it a full buffer "
     "drops."},
    {"threshold", K::kValue, "size or \"dynamic\"", "", "\"dynamic\"",
     "XOFF point of the shared bytes of one (ingress port, priority): a fixed size, or alpha x "
     "the free shared buffer (Broadcom's dynamic threshold, the paper testbed's Trident II)."},
    {"alpha", K::kValue, "number", "", "0.125",
     "Factor of the dynamic threshold. HPCC: shift 3 = 1/8."},
    {"headroom", K::kValue, "size, \"auto\" or \"hpcc\"", "", "\"auto\"",
     "Bytes reserved per (ingress port, priority) for what arrives after XOFF; \"auto\": two "
     "one-way BDPs of the port's link plus three MTU frames and a PFC frame, which keeps PFC "
     "lossless; \"hpcc\": three one-way BDPs in whole bytes (HPCC ns-3's rule)."},
    {"reserve", K::kValue, "size", "", "\"4KB\"",
     "Guaranteed bytes per (ingress port, priority) before the shared buffer is used. HPCC: 4 KB."},
    {"xon_offset", K::kValue, "size", "", "depends on `host.mtu`: 2 data frames",
     "RESUME once headroom is empty and the shared bytes are this far below XOFF. Paper: 2 MTU "
     "frames; HPCC uses 3KB."},
    {"pause_quanta", K::kValue, "integer", "512-bit times", "65535",
     "Pause time a PAUSE frame asks for (802.1Qbb maximum); refreshed at half of it while "
     "congested, or sooner when a refresh waiting behind a data frame would arrive late. "
     "`check` warns below about 20 (1000-byte payloads), which no refresh keeps in force."},
    {"pause_until_resume", K::kValue, "boolean", "", "false",
     "A PAUSE lasts until an explicit RESUME (HPCC's semantics) instead of its quanta."},
    {"by_rate", K::kValue, "list of tables", "", "[]",
     "Dynamic-threshold alpha for ports of a given link rate, e.g. `[{rate = \"400Gbps\", "
     "alpha = 0.5}]`; other ports use alpha. HPCC ns-3 halves its shift per doubling of a port's "
     "rate over the hosts' (1/8 at 100G, 1/2 at 400G)."},
    {"watchdog", K::kTable, "table", "", "none",
     "A PFC watchdog on every switch port (SONiC's pfcwd); present: on."},
};

constexpr KeySchema kWatchdogKeys[] = {
    {"enabled", K::kValue, "boolean", "", "true",
     "The watchdog runs (the table alone turns it on)."},
    {"detection", K::kValue, "time", "", "\"200ms\"",
     "A lossless egress queue that holds packets and has been paused without a break this long is "
     "declared stormed. SONiC: detection_time, 200 ms by default."},
    {"restoration", K::kValue, "time", "", "\"200ms\"",
     "A stormed queue is restored once no PAUSE for it has arrived for this long (counted from "
     "the storm at the earliest). SONiC: restoration_time, 200 ms by default."},
    {"action", K::kValue, "string", "", "\"drop\"",
     "While stormed the queue ignores PAUSE and \"drop\" discards what it holds and what is "
     "routed to it (SONiC's default), or \"forward\" sends it on."},
};

constexpr KeySchema kEcnKeys[] = {
    {"enabled", K::kValue, "boolean", "", "true", "Mark ECN at egress (RED on the queue length)."},
    {"kmin", K::kValue, "size", "", "\"5KB\"",
     "Queue length above which packets are marked with a probability. Paper at 40G: 5 KB."},
    {"kmax", K::kValue, "size", "", "\"200KB\"",
     "Queue length at which the probability reaches pmax; above it every packet is marked. "
     "Paper at 40G: 200 KB."},
    {"pmax", K::kValue, "number", "probability", "0.01",
     "Marking probability at kmax, in (0, 1]. Paper: 1%."},
    {"by_rate", K::kValue, "list of tables", "", "[]",
     "Thresholds for ports of a given link rate, e.g. `[{rate = \"400Gbps\", kmin = \"1600KB\", "
     "kmax = \"6400KB\", pmax = 0.2}]`; other ports use kmin/kmax/pmax. HPCC: KMIN_MAP, "
     "KMAX_MAP and PMAX_MAP. `--set switch.ecn.by_rate.0.kmin=800KB` sets one entry's key."},
};

constexpr KeySchema kHostKeys[] = {
    {"mtu", K::kValue, "integer", "bytes", "1000",
     "Payload bytes per data packet, 64..9000 (the frame adds 66 bytes of RoCEv2 headers). HPCC: "
     "PACKET_PAYLOAD_SIZE 1000."},
    {"ack_interval", K::kValue, "integer", "packets", "1",
     "The receiver ACKs every N data packets. HPCC: L2_ACK_INTERVAL 1."},
    {"rto", K::kValue, "time", "", "\"4ms\"",
     "Go-back-N retransmission timeout. InfiniBand: 4.096 us x 2^10."},
    {"ack_in_data_class", K::kValue, "boolean", "", "false",
     "ACKs and NACKs cross switches in their flow's data class (queued behind data, counted in "
     "the shared buffer, paused by PFC) instead of the strict-priority control queue. HPCC ns-3's "
     "switches do so (true in `dcqcn ns3`); CNPs always use the control queue."},
    {"pause_acks", K::kValue, "boolean", "", "false",
     "The NIC's ACK queue waits while PFC pauses the data class of the ACK at its head, instead "
     "of always going first. HPCC ns-3 with ACK_HIGH_PRIO 0 (its ACK queue obeys the pause of "
     "priority 3)."},
    {"window", K::kValue, "boolean", "", "false",
     "Each flow may have at most its bandwidth-delay product (base_rtt) in flight, in any "
     "congestion control. HPCC ns-3: HAS_WIN."},
    {"window_scales_with_rate", K::kValue, "boolean", "", "false",
     "The window is the BDP times the flow's rate over the line rate (whole bytes, at least 1). "
     "HPCC ns-3: VAR_WIN."},
    {"base_rtt", K::kValue, "string", "", "\"max\"",
     "Which base RTT and BDP a flow's window and HPCC's T use: `\"max\"`, the largest over all "
     "host pairs (HPCC ns-3 GLOBAL_T 1), or `\"pair\"`, its own pair's. Base RTT as HPCC ns-3: "
     "propagation both ways plus one payload's serialization per link; BDP: that times the "
     "slowest link's rate."},
};

constexpr KeySchema kWireKeys[] = {
    {"data_headers", K::kValue, "size", "", "\"66B\"",
     "Bytes around every data payload: RoCEv2's Ethernet 14 + 802.1Q 4 + IPv4 20 + UDP 8 + BTH 12 "
     "+ ICRC 4 + FCS 4. HPCC ns-3: 48 (PPP 14, IPv4 20, UDP 8, SeqTs 6)."},
    {"ack_frame", K::kValue, "size", "", "\"70B\"",
     "Bytes of an ACK or NACK frame (RoCEv2 headers + AETH 4). HPCC ns-3: 60 (padded)."},
    {"ack_headers", K::kValue, "size", "", "\"70B\"",
     "Bytes of an ACK before padding to ack_frame: with congestion control that adds a header to "
     "data and ACKs (HPCC's INT 42 B, TIMELY's time stamp 8 B), an ACK is the larger of "
     "ack_frame and ack_headers + that header. HPCC ns-3: 46 (PPP 14, IPv4 20, qbb 12)."},
    {"cnp_frame", K::kValue, "size", "", "\"82B\"",
     "Bytes of a CNP frame (RoCEv2 headers + 16 reserved bytes). HPCC ns-3 sends none: its CNP is "
     "a bit on the ACK (`cc.cnp_on_ack`)."},
    {"min_frame", K::kValue, "size", "", "\"64B\"",
     "Data frames are padded up to this (Ethernet's minimum). HPCC ns-3: 60."},
    {"gap", K::kValue, "size", "", "\"20B\"",
     "Wire bytes per frame that no buffer holds: preamble 8 + inter-frame gap 12. HPCC ns-3: 0."},
    {"whole_ns", K::kValue, "boolean", "", "false",
     "Truncate every transmit time to whole nanoseconds, as ns-3's Time does (HPCC ns-3: true; "
     "1048 B at 100 Gb/s then take 83 ns instead of 83.84)."},
};

constexpr KeySchema kCcKeys[] = {
    {"algorithm", K::kValue, "string", "", "\"dcqcn\"",
     "The congestion-control algorithm; `\"none\"`: every flow at line rate, PFC alone."},
    {"profile", K::kValue, "string", "", "depends on `cc.algorithm`: its first profile",
     "The algorithm's parameter set. DCQCN: `\"paper\"` (default), `\"mlx5\"`, `\"hpcc\"`, "
     "`\"cx3pro\"` (paper with a ConnectX-3 Pro CNP generator) or `\"cx4\"` (mlx5 with a "
     "ConnectX-4 one); DCTCP, TIMELY and HPCC: `\"hpcc\"`. Any parameter below overrides it."},
};

constexpr KeySchema kFlowKeys[] = {
    {"src", K::kValue, "integer", "host index", "required", "Sending host."},
    {"dst", K::kValue, "integer", "host index", "required", "Receiving host, other than src."},
    {"size", K::kValue, "size", "", "required", "Bytes the flow sends."},
    {"start", K::kValue, "time", "", "\"0us\"", "When the flow starts."},
    {"priority", K::kValue, "integer", "802.1p class", "3",
     "Priority of the data, 1..7 (0 is the control queue)."},
    {"dport", K::kValue, "integer", "UDP port", "4791",
     "UDP destination port (RoCEv2: 4791; HPCC flow files: 100). Only the \"hpcc\" ECMP hash "
     "reads it."},
    {"tag", K::kValue, "string", "", "none",
     "A label for the flow (1 to 64 letters, digits, `_` or `-`); summary.json and sweep.csv "
     "report per tag."},
    {"rate", K::kValue, "rate", "", "none",
     "The flow's own sending rate, for algorithms that pin rates (see `[cc]` algorithm); "
     "at most the line rate. Other algorithms refuse it."},
    {"id", K::kValue, "string", "", "none",
     "A name for the flow (1 to 64 letters, digits, `_`, `-`, `.` or `:`), unique, for `after` "
     "and flows.csv."},
    {"after", K::kValue, "list of strings", "flow ids", "[]",
     "The flows this one waits for: it starts `after_delay` after the last of them completes, "
     "and not before `start`. Each must be received by this flow's source host (complete when "
     "its last byte is delivered) or sent by it (complete when its last byte is acknowledged)."},
    {"after_delay", K::kValue, "time", "", "\"0ps\"",
     "With `after`: the time from the last prerequisite's completion to this flow's start (e.g. "
     "compute time)."},
};

constexpr KeySchema kCollectiveKeys[] = {
    {"op", K::kValue, "string", "", "required",
     "`\"allreduce\"`, `\"reducescatter\"`, `\"allgather\"` or `\"alltoall\"`."},
    {"algorithm", K::kValue, "string", "", "\"ring\" (alltoall: \"direct\")",
     "How the operation is cut into transfers; without it, the first below that implements "
     "the op."},
    {"ranks", K::kValue, "\"all\" or list of integers", "host indices", "\"all\"",
     "The hosts taking part, in ring order; `\"all\"`: every host in index order."},
    {"size", K::kValue, "size", "", "required",
     "nccl-tests' size: each rank's buffer (allreduce, alltoall), the gathered buffer "
     "(allgather: each rank adds size / n) or the buffer reduced (reducescatter: each keeps "
     "size / n)."},
    {"channels", K::kValue, "integer", "", "1",
     "Parallel rings (or queue pairs), each carrying size / channels (NCCL's channels)."},
    {"iterations", K::kValue, "integer", "", "1", "How many times the operation runs."},
    {"gap", K::kValue, "time", "", "\"0ps\"",
     "Compute time between a rank's end of one iteration and its start of the next."},
    {"start", K::kValue, "time", "", "\"0ps\"", "When the first iteration starts."},
    {"tag", K::kValue, "string", "", "\"collectiveN\" (N its index)",
     "The tag of its flows (1 to 64 letters, digits, `_` or `-`)."},
    {"priority", K::kValue, "integer", "802.1p class", "3", "Priority of its data, 1..7."},
    {"pxn", K::kValue, "boolean", "", "false",
     "alltoall on a rail topology: data for another server's GPU on another rail first crosses "
     "NVLink to the sender's GPU on the destination's rail (NCCL's PXN)."},
};

constexpr KeySchema kWorkloadKeys[] = {
    {"type", K::kValue, "string", "", "required",
     "`\"incast\"` (senders to one receiver), `\"permutation\"` (every host to a different host, "
     "a random derangement) or `\"poisson\"` (flows arriving at random, sizes from a CDF)."},
    {"senders", K::kValue, "integer or list of integers", "hosts",
     "depends on `receiver`: every other host",
     "incast only: how many senders (the first hosts other than the receiver) or which hosts."},
    {"receiver", K::kValue, "integer", "host index", "0", "incast only: the receiving host."},
    {"size", K::kValue, "size", "", "required for incast and permutation",
     "Bytes each flow sends."},
    {"start", K::kValue, "time", "", "\"0us\"",
     "When every flow starts (poisson: when arrivals begin)."},
    {"priority", K::kValue, "integer", "802.1p class", "3", "Priority of the flows, 1..7."},
    {"cdf", K::kValue, "string", "", "required for poisson with load > 0",
     "poisson only: flow sizes, `\"websearch\"` or `\"hadoop\"` (built in) or an HPCC-format CDF "
     "file (\"<size bytes> <cumulative percent>\" per line) relative to the scenario's folder."},
    {"load", K::kValue, "number", "fraction of link rate", "required for poisson without incast",
     "poisson only: offered load of each host, 0..1: flows arrive at load x rate / (8 x mean "
     "size) per second, each to a uniformly drawn other host (as HPCC's generator)."},
    {"window", K::kValue, "time", "", "required for poisson",
     "poisson only: flows arrive during [start, start + window)."},
    {"incast", K::kTable, "table", "", "none", "poisson only: incast events on top of the load."},
    {"tag", K::kValue, "string", "",
     "depends on `type`: `\"incast\"`, `\"permutation\"`, `\"background\"` for poisson",
     "Tag of the generated flows (see `flow.tag`); a poisson workload's incast events are always "
     "tagged `\"incast\"`."},
};

constexpr KeySchema kIncastEventKeys[] = {
    {"fanin", K::kValue, "integer", "hosts", "required",
     "Senders per event: a random receiver and this many distinct random senders."},
    {"size", K::kValue, "size", "", "required",
     "Bytes each sender of an event sends; all its flows start at the same instant."},
    {"rate", K::kValue, "number", "events/s", "required",
     "Events per second (Poisson), during the workload's window."},
};

constexpr KeySchema kPcapKeys[] = {
    {"points", K::kValue, "list of strings", "", "[] (no capture)",
     "Where to capture: `\"h1\"` is what host h1's NIC sends and receives, `\"s0:3\"` what "
     "port 3 of switch s0 sends and receives (ports numbered in cabling order, as in links.csv)."},
    {"kinds", K::kValue, "list of strings", "", "[\"data\", \"ack\", \"nack\", \"cnp\", \"pfc\"]",
     "Which packets to capture."},
    {"from", K::kValue, "time", "", "\"0us\"", "Capture packets seen from this time on."},
    {"until", K::kValue, "time", "", "the end of the run",
     "Capture packets seen before this time."},
    {"max_packets", K::kValue, "integer", "packets", "1000000",
     "The capture stops after this many packets (the run goes on)."},
    {"snaplen", K::kValue, "integer", "bytes", "65535",
     "Bytes kept of each frame, from 64 (every header) to 65535 (whole frames); the payload is "
     "cut beyond (Wireshark then calls RoCE frames malformed: \"Invalid Packet Length\")."},
};

constexpr KeySchema kOutputKeys[] = {
    {"timeseries", K::kValue, "list of strings", "", "[]",
     "Which of `\"rate\"`, `\"queue\"`, `\"pfc\"`, `\"throughput\"` to write to timeseries/*.csv."},
    {"interval", K::kValue, "time", "", "\"10us\"",
     "Sampling interval of the queue, throughput and rate series."},
    {"warmup", K::kValue, "time", "", "\"0us\"",
     "Queue statistics in summary.json (\"bottleneck\") count from this long after the first "
     "flow's start, so a start-up transient does not dominate them."},
    {"deadlock_time", K::kValue, "time", "", "\"1ms\"",
     "A cycle of PFC-paused switch queues, each holding data and waiting on the next one's "
     "PAUSE, stuck this long is a deadlock: summary.json lists it under pfc.deadlocks (when, the "
     "cycle, the flows stuck in it). \"0us\": not looked for."},
    {"convergence_window", K::kValue, "time", "", "\"5ms\"",
     "Convergence time (summary.json): the length of the sliding windows over which each active "
     "flow's throughput is measured. Earlier docs/paper.md runs: 5 ms."},
    {"pcap", K::kTable, "table", "", "no capture",
     "A packet capture (capture.pcap) Wireshark reads: the RoCEv2 bytes of the packets seen "
     "at some ports."},
    {"convergence_tolerance", K::kValue, "number", "fraction", "0.15",
     "Convergence time: a window is fair when every flow's throughput in it is within this "
     "fraction of the flows' mean, in (0, 1). Earlier docs/paper.md runs: 15%."},
};

}  // namespace

constexpr TableSchema kRootSchema{"", "The top level of a scenario file.", kRootKeys};
// Its rows come from the topology types (topology/topology_type.h), each declaring its own keys.
const TableSchema kTopologySchema{"topology", "The network: hosts, switches and links.",
                                  TopologySchemaRows()};
constexpr TableSchema kSwitchSchema{"switch", "Every switch's buffer.", kSwitchKeys};
constexpr TableSchema kPfcSchema{
    "switch.pfc",
    "PFC and the MMU: every data packet is accounted to its (ingress port, priority) as reserve, "
    "shared or headroom bytes.",
    kPfcKeys};
constexpr TableSchema kWatchdogSchema{
    "switch.pfc.watchdog",
    "A PFC watchdog on every switch port, as SONiC's pfcwd: detection, mitigation, restoration.",
    kWatchdogKeys};
constexpr TableSchema kEcnSchema{"switch.ecn", "ECN/RED marking at every switch egress queue.",
                                 kEcnKeys};
constexpr TableSchema kHostSchema{"host", "Every host's RDMA NIC (reliable connected transport).",
                                  kHostKeys};
constexpr TableSchema kWireSchema{"wire", "Frame sizes and transmit timing on every link.",
                                  kWireKeys};
constexpr TableSchema kCcSchema{
    "cc",
    "Congestion control. Every other key is a parameter of the algorithm, checked when the "
    "network is built: for DCQCN, the table below.",
    kCcKeys};
constexpr KeySchema kRouteKeys[] = {
    {"switch", K::kValue, "string", "", "required", "The switch whose route it sets, `\"s3\"`."},
    {"dst", K::kValue, "string or list of strings", "", "required",
     "The destination host or hosts, `\"h5\"` or `[\"h4\", \"h5\"]`."},
    {"next", K::kValue, "string or list of strings", "", "required",
     "The next hops, nodes cabled to `switch` (every cable to them is used; several: ECMP among "
     "them). A route into a loop is allowed (`dcqcn check` warns): the packets of a flow sent "
     "round one are dropped when their TTL (64 switches) runs out."},
};

constexpr KeySchema kEventKeys[] = {
    {"at", K::kValue, "time", "", "required", "When it happens, within the run's duration."},
    {"kind", K::kValue, "string", "", "required",
     "\"pause_storm\": a malfunctioning NIC stops draining what it receives and sends PAUSE for "
     "every data class without pause until `until`, then recovers (what it held is received). "
     "\"link_down\" / \"link_up\": the cables of `link` fail or come back; what is on them or "
     "sent into them while down is lost, PFC state across them is cleared, and the switches "
     "route around them (or back) `topology.reconvergence` later."},
    {"host", K::kValue, "string", "", "required (pause_storm)", "The NIC that storms, `\"h3\"`."},
    {"until", K::kValue, "time", "", "required (pause_storm)",
     "When the NIC recovers, after `at` (beyond the duration: it never does)."},
    {"link", K::kValue, "list of two strings", "", "required (link_down, link_up)",
     "The two cabled nodes, `[\"s0\", \"s4\"]`: every cable between them."},
    {"cable", K::kValue, "integer", "", "every cable",
     "link_down and link_up only: one of the cables between the two nodes, counted from 0 in "
     "the topology's order."},
};

constexpr TableSchema kFlowSchema{"flow[]", "One flow (one queue pair): repeat the table per flow.",
                                  kFlowKeys};
constexpr TableSchema kCollectiveSchema{
    "collective[]", "One collective operation: repeat the table per operation.", kCollectiveKeys};
constexpr TableSchema kRouteSchema{
    "route[]", "A static route: repeat the table per (switch, destinations).", kRouteKeys};
constexpr TableSchema kEventSchema{
    "event[]", "Something that happens during the run: repeat the table per event.", kEventKeys};
constexpr TableSchema kWorkloadSchema{"workload", "A generated set of flows.", kWorkloadKeys};
constexpr TableSchema kIncastEventSchema{
    "workload.incast", "poisson only: incast events at random times (every key is required).",
    kIncastEventKeys};
constexpr TableSchema kOutputSchema{"output", "Time series and the settings of summary.json.",
                                    kOutputKeys};

constexpr TableSchema kPcapSchema{
    "output.pcap", "A packet capture, written to capture.pcap with nanosecond time stamps.",
    kPcapKeys};

std::span<const TableSchema* const> ScenarioTables() {
  static constexpr const TableSchema* kTables[] = {
      &kRootSchema,       &kTopologySchema, &kSwitchSchema, &kPfcSchema,      &kWatchdogSchema,
      &kEcnSchema,        &kHostSchema,     &kWireSchema,   &kCcSchema,       &kFlowSchema,
      &kCollectiveSchema, &kRouteSchema,    &kEventSchema,  &kWorkloadSchema, &kIncastEventSchema,
      &kOutputSchema,     &kPcapSchema};
  return kTables;
}

const TableSchema* SchemaOf(std::string_view path) {
  for (const TableSchema* t : ScenarioTables()) {
    if (t->path == path) return t;
  }
  return nullptr;
}

const KeySchema* FindKey(const TableSchema& schema, std::string_view key) {
  for (const KeySchema& k : schema) {
    if (k.name == key) return &k;
  }
  return nullptr;
}

}  // namespace dcqcn
