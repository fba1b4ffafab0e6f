// The scenario format's tables and keys with their types, defaults and meanings: the top
// level's, [cc]'s and [[route]]'s here, the rest from the rows each part declares beside its
// options (net/switch_keys.h, net/host_keys.h, net/wire_keys.h, net/flow_keys.h,
// net/event_keys.h, output/output_keys.h, workload/workload_keys.h, the topology types).
// Defaults are written as a user would write them; their values live in the options' member
// initializers and tests/scenario/key_reference_test.cc checks that the two agree.
#include "scenario/scenario_schema.h"

#include "net/event_keys.h"
#include "net/flow_keys.h"
#include "net/host_keys.h"
#include "net/switch_keys.h"
#include "net/wire_keys.h"
#include "output/output_keys.h"
#include "topology/topology_type.h"
#include "workload/workload_keys.h"

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
     "ports): a run is a deterministic function of it. 0 to 18446744073709551615; above "
     "9223372036854775807 (TOML's largest integer) as a string of digits."},
    {"model", K::kValue, "string", "", "\"packet\"",
     "How flows cross the fabric: `\"packet\"` (packet by packet, with queues, ECN, PFC and "
     "congestion control) or `\"flow\"` (each flow a fluid stream at its max-min fair share of "
     "the ports its packets would cross, recomputed whenever a flow starts or stops: no queues, "
     "PFC or congestion-control dynamics; fast enough for thousands of GPUs). "
     "docs/flow-level.md."},
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
    {"job", K::kFlowArray, "array of tables", "", "none",
     "Training jobs, `[[job]]` once per job: ranks in TP/PP/DP/EP groups, layers with compute "
     "and collectives, micro-batches run 1F1B, iterations; expanded into flows and compute "
     "after the collectives. docs/training-jobs.md."},
    {"route", K::kFlowArray, "array of tables", "", "none",
     "Static routes, `[[route]]` once per route: at `switch`, packets to `dst` leave towards "
     "`next` instead of the computed shortest paths (how the classic PFC deadlocks are built)."},
    {"event", K::kFlowArray, "array of tables", "", "none",
     "Things that happen during the run, `[[event]]` once per event: a NIC's pause storm "
     "(docs/pfc-pathologies.md)."},
    {"output", K::kTable, "table", "", "no time series",
     "What a run records besides flows.csv and summary.json."},
};

constexpr KeySchema kCcKeys[] = {
    {"algorithm", K::kValue, "string", "", "\"dcqcn\"",
     "The congestion-control algorithm; `\"none\"`: every flow at line rate, PFC alone."},
    {"profile", K::kValue, "string", "", "depends on `cc.algorithm`: its first profile",
     "The algorithm's parameter set. DCQCN: `\"paper\"` (default), `\"mlx5\"`, `\"hpcc\"`, "
     "`\"cx3pro\"` (paper with a ConnectX-3 Pro CNP generator) or `\"cx4\"` (mlx5 with a "
     "ConnectX-4 one); DCTCP, TIMELY and HPCC: `\"hpcc\"`. Any parameter below overrides it."},
};

// The documentation of a part's rows (net/switch_keys.h, ...), kept for the table's lifetime.
template <auto kRows>
std::span<const KeySchema> Docs() {
  static const std::vector<KeySchema> docs = DocsOf(kRows());
  return docs;
}

}  // namespace

constexpr TableSchema kRootSchema{"", "The top level of a scenario file.", kRootKeys};
// Its rows come from the topology types (topology/topology_type.h), each declaring its own keys.
const TableSchema kTopologySchema{"topology", "The network: hosts, switches and links.",
                                  TopologySchemaRows()};
const TableSchema kSwitchSchema{"switch", "Every switch's buffer.", Docs<SwitchKeys>()};
const TableSchema kPfcSchema{
    "switch.pfc",
    "PFC and the MMU: every data packet is accounted to its (ingress port, priority) as reserve, "
    "shared or headroom bytes.",
    Docs<PfcKeys>()};
const TableSchema kWatchdogSchema{
    "switch.pfc.watchdog",
    "A PFC watchdog on every switch port, as SONiC's pfcwd: detection, mitigation, restoration.",
    Docs<PfcWatchdogKeys>()};
const TableSchema kEcnSchema{"switch.ecn", "ECN/RED marking at every switch egress queue.",
                             Docs<EcnKeys>()};
const TableSchema kHostSchema{"host", "Every host's RDMA NIC (reliable connected transport).",
                              Docs<HostKeys>()};
const TableSchema kWireSchema{"wire", "Frame sizes and transmit timing on every link.",
                              Docs<WireKeys>()};
constexpr TableSchema kCcSchema{
    "cc",
    "Congestion control. Every other key is a parameter of the algorithm, checked when the "
    "network is built: for DCQCN, the table below.",
    kCcKeys};
constexpr KeySchema kRouteKeys[] = {
    {"switch", K::kValue, "string", "", "required", "The switch whose route it sets, `\"s3\"`."},
    {"dst", K::kValue, "host or list of hosts", "", "required",
     "The destination host or hosts, by name or index: `\"h5\"`, `5` or `[\"h4\", \"h5\"]`; one "
     "[[route]] per switch and destination."},
    {"next", K::kValue, "string or list of strings", "", "required",
     "The next hops, nodes cabled to `switch` (every cable to them is used; several: ECMP among "
     "them); a host only if it is the destination of every packet the route sends there. A route "
     "into a loop is allowed (`dcqcn check` warns): the packets of a flow sent "
     "round one are dropped when their TTL (64 switches) runs out."},
};

const TableSchema kFlowSchema{"flow[]", "One flow (one queue pair): repeat the table per flow.",
                              Docs<FlowKeys>()};
const TableSchema kCollectiveSchema{"collective[]",
                                    "One collective operation: repeat the table per operation.",
                                    Docs<CollectiveKeys>()};
const TableSchema kJobSchema{"job[]", "One training job: repeat the table per job.",
                             Docs<JobKeys>()};
const TableSchema kJobLayerSchema{"job[].layer[]",
                                  "One layer (or repeated block) of a job, in forward order.",
                                  Docs<JobLayerKeys>()};
constexpr TableSchema kRouteSchema{
    "route[]", "A static route: repeat the table per (switch, destinations).", kRouteKeys};
const TableSchema kEventSchema{"event[]",
                               "Something that happens during the run: repeat the table per event.",
                               Docs<EventKeys>()};
const TableSchema kWorkloadSchema{"workload", "A generated set of flows.", Docs<WorkloadKeys>()};
const TableSchema kIncastEventSchema{
    "workload.incast", "poisson only: incast events at random times (every key is required).",
    Docs<IncastEventKeys>()};
const TableSchema kOutputSchema{"output", "Time series and the settings of summary.json.",
                                Docs<OutputKeys>()};

const TableSchema kPcapSchema{
    "output.pcap", "A packet capture, written to capture.pcap with nanosecond time stamps.",
    Docs<PcapKeys>()};

std::span<const TableSchema* const> ScenarioTables() {
  static constexpr const TableSchema* kTables[] = {
      &kRootSchema,       &kTopologySchema,    &kSwitchSchema,   &kPfcSchema,   &kWatchdogSchema,
      &kEcnSchema,        &kHostSchema,        &kWireSchema,     &kCcSchema,    &kFlowSchema,
      &kCollectiveSchema, &kJobSchema,         &kJobLayerSchema, &kRouteSchema, &kEventSchema,
      &kWorkloadSchema,   &kIncastEventSchema, &kOutputSchema,   &kPcapSchema};
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
