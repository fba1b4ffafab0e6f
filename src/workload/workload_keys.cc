#include "workload/workload_keys.h"

namespace dcqcn {
namespace {

using K = KeyKind;

// The host range of fanin depends on the topology: the loader gives its max.
constexpr KeyRow<WorkloadConfig> kWorkloadKeys[] = {
    // Required, and what the other keys mean depends on it: read by hand.
    {.doc = {"type", K::kValue, "string", "", "required",
             "`\"incast\"` (senders to one receiver), `\"permutation\"` (every host to a "
             "different host, a random derangement) or `\"poisson\"` (flows arriving at random, "
             "sizes from a CDF)."}},
    // A count or a list of hosts: read by hand.
    {.doc = {"senders", K::kValue, "integer or list of hosts", "hosts",
             "depends on `receiver`: every other host",
             "incast only: how many senders (the first hosts other than the receiver) or which "
             "hosts (indexes or names)."}},
    {.doc = {"receiver", K::kValue, "host", "", "0",
             "incast only: the receiving host, by index or name (\"h0\")."}},
    {.doc = {"size", K::kValue, "size", "", "required for incast and permutation",
             "Bytes each flow sends."},
     .field = &WorkloadConfig::size,
     .min = 1},
    {.doc = {"start", K::kValue, "time", "", "\"0us\"",
             "When every flow starts (poisson: when arrivals begin)."},
     .field = &WorkloadConfig::start},
    {.doc = {"priority", K::kValue, "integer", "802.1p class", "3", "Priority of the flows, 1..7."},
     .field = &WorkloadConfig::priority,
     .min = 1,
     .max = 7,
     .expected = "an 802.1p priority"},
    // A built-in name or a path relative to the scenario: read by hand.
    {.doc = {"cdf", K::kValue, "string", "", "required for poisson with load > 0",
             "poisson only: flow sizes, `\"websearch\"` or `\"hadoop\"` (built in) or an "
             "HPCC-format CDF file (\"<size bytes> <cumulative percent>\" per line) relative to "
             "the scenario's folder."}},
    {.doc = {"load", K::kValue, "number", "fraction of link rate",
             "required for poisson without incast",
             "poisson only: offered load of each host, 0..1: flows arrive at load x rate / (8 x "
             "mean size) per second, each to a uniformly drawn other host (as HPCC's "
             "generator)."},
     .field = &WorkloadConfig::load,
     .expected = "a fraction 0..1 of each host's link rate",
     .valid = [](double v) { return v >= 0 && v <= 1; }},
    {.doc = {"window", K::kValue, "time", "", "required for poisson",
             "poisson only: flows arrive during [start, start + window)."},
     .field = &WorkloadConfig::window,
     .min = 1},
    {.doc = {"incast", K::kTable, "table", "", "none",
             "poisson only: incast events on top of the load."}},
    // A tag's spelling and a default by type: read by hand.
    {.doc = {"tag", K::kValue, "string", "",
             "depends on `type`: `\"incast\"`, `\"permutation\"`, `\"background\"` for poisson",
             "Tag of the generated flows (see `flow.tag`); a poisson workload's incast events are "
             "always tagged `\"incast\"`."}},
};

constexpr KeyRow<WorkloadConfig> kIncastEventKeys[] = {
    {.doc = {"fanin", K::kValue, "integer", "hosts", "required",
             "Senders per event: a random receiver and this many distinct random senders."},
     .field = &WorkloadConfig::incast_fanin,
     .min = 1,
     .expected = "a number of senders per event (hosts other than the receiver)"},
    {.doc = {"size", K::kValue, "size", "", "required",
             "Bytes each sender of an event sends; all its flows start at the same instant."},
     .field = &WorkloadConfig::incast_size,
     .min = 1},
    {.doc = {"rate", K::kValue, "number", "events/s", "required",
             "Events per second (Poisson), during the workload's window."},
     .field = &WorkloadConfig::incast_rate,
     .expected = "a number > 0 of incast events per second",
     .valid = [](double v) { return v > 0; }},
};

constexpr KeyRow<CollectiveConfig> kCollectiveKeys[] = {
    {.doc = {"op", K::kValue, "string", "", "required",
             "`\"allreduce\"`, `\"reducescatter\"`, `\"allgather\"` or `\"alltoall\"`."},
     .field = ByName<&CollectiveConfig::op>(kCollectiveOpNames)},
    // A registry's name whose default depends on op: read and written by hand.
    {.doc = {"algorithm", K::kValue, "string", "", "\"ring\" (alltoall: \"direct\")",
             "How the operation is cut into transfers; without it, the first below that "
             "implements the op."}},
    // "all" or a list of host indices: read and written by hand.
    {.doc = {"ranks", K::kValue, "\"all\" or list of hosts", "", "\"all\"",
             "The hosts taking part (indexes or names), in ring order; `\"all\"`: every host in "
             "index order."}},
    {.doc = {"size", K::kValue, "size", "", "required",
             "nccl-tests' size: each rank's buffer (allreduce, alltoall), the gathered buffer "
             "(allgather: each rank adds size / n) or the buffer reduced (reducescatter: each "
             "keeps size / n)."},
     .field = &CollectiveConfig::size,
     .min = 1},
    {.doc = {"channels", K::kValue, "integer", "", "1",
             "Parallel rings (or queue pairs), each carrying size / channels (NCCL's channels)."},
     .field = &CollectiveConfig::channels,
     .min = 1,
     .max = 64,
     .expected = "an integer number of channels"},
    {.doc = {"qps_per_connection", K::kValue, "integer", "", "host.qps_per_connection",
             "Queue pairs per connection (NCCL_IB_QPS_PER_CONNECTION): each channel's transfer "
             "split evenly over them, each with its own UDP source port (so its own ECMP hash) "
             "and congestion-control state; the transfer is done when all are. Channels are "
             "parallel rings with chunks of their own; queue pairs split one chunk."},
     .field = &CollectiveConfig::qps_per_connection,
     .min = 1,
     .max = 16,
     .expected = "an integer number of queue pairs",
     .written = Written::kUnlessZero},
    {.doc = {"rotate_rings", K::kValue, "boolean", "", "false",
             "ring on a topology of servers: channel c's ring visits each server's ranks rotated "
             "by c (servers in the order of their first rank), as SimAI's MockNccl builds its "
             "channels; false: every channel the same ring."},
     .field = &CollectiveConfig::rotate_rings},
    {.doc = {"iterations", K::kValue, "integer", "", "1", "How many times the operation runs."},
     .field = &CollectiveConfig::iterations,
     .min = 1,
     .max = 1000000,
     .expected = "an integer number of iterations"},
    {.doc = {"gap", K::kValue, "time", "", "\"0ps\"",
             "Compute time between a rank's end of one iteration and its start of the next."},
     .field = &CollectiveConfig::gap},
    {.doc = {"start", K::kValue, "time", "", "\"0ps\"", "When the first iteration starts."},
     .field = &CollectiveConfig::start},
    // A tag's spelling, and a default by index: read and written by hand.
    {.doc = {"tag", K::kValue, "string", "", "\"collectiveN\" (N its index)",
             "The tag of its flows (1 to 64 letters, digits, `_` or `-`)."}},
    {.doc = {"priority", K::kValue, "integer", "802.1p class", "3", "Priority of its data, 1..7."},
     .field = &CollectiveConfig::priority,
     .min = 1,
     .max = 7,
     .expected = "an 802.1p priority"},
    {.doc = {"pxn", K::kValue, "boolean", "", "false",
             "NCCL's PXN, on a topology of servers: a transfer to another server's GPU on another "
             "rail first crosses NVLink to the sender's server's rank on the destination's rail, "
             "whose NIC sends it. For \"direct\" (alltoall, allgather) and \"ring\" (the ring "
             "leaves each server by the NIC it came in by, as NCCL's ring graph gives each "
             "channel one NIC)."},
     .field = &CollectiveConfig::pxn},
    {.doc = {"connection", K::kValue, "string", "", "\"persistent\"",
             "`\"persistent\"`: as NCCL, one queue pair per rank pair and channel for the whole "
             "run: its transfers start in order (each once the one before has sent its last "
             "packet) over one source port and share one congestion-control state. "
             "`\"per_flow\"`: each transfer a queue pair of its own, with a fresh state and "
             "source port, as SimAI's ns-3 backend runs them."},
     .field = ByName<&CollectiveConfig::connection>(kCollectiveConnectionNames)},
};

constexpr KeyRow<JobConfig> kJobKeys[] = {
    // A tag's spelling, and a default by index: read and written by hand.
    {.doc = {"name", K::kValue, "string", "", "\"jobN\" (N its index)",
             "The job's name (1 to 64 letters, digits, `_` or `-`); its flows are tagged "
             "NAME-tp, NAME-dp, NAME-ep, NAME-dp_ep and NAME-pp by the group they serve."}},
    // "all" or a list of host indices: read and written by hand.
    {.doc = {"ranks", K::kValue, "\"all\" or list of hosts", "", "\"all\"",
             "The GPUs (hosts) of the job in rank order; rank g has TP rank g % tp, DP rank (g / "
             "tp) % dp and pipeline stage g / (tp x dp): TP inside a server first, as NCCL and "
             "Megatron place them."}},
    {.doc = {"tp", K::kValue, "integer", "ranks", "1", "Tensor-parallel group size."},
     .field = &JobConfig::tp,
     .min = 1,
     .max = 1 << 20,
     .expected = "a group size"},
    {.doc = {"pp", K::kValue, "integer", "stages", "1",
             "Pipeline stages; each takes a contiguous share of the layers, in order."},
     .field = &JobConfig::pp,
     .min = 1,
     .max = 1 << 20,
     .expected = "a number of stages"},
    {.doc = {"ep", K::kValue, "integer", "ranks", "1",
             "Expert-parallel group size: ep consecutive data-parallel replicas; it divides the "
             "data-parallel size ranks / (tp x pp)."},
     .field = &JobConfig::ep,
     .min = 1,
     .max = 1 << 20,
     .expected = "a group size"},
    {.doc = {"micro_batches", K::kValue, "integer", "", "1",
             "Micro-batches per iteration (gradient accumulation), run 1F1B across the stages; "
             "the weight-gradient collectives run in the last one's backward."},
     .field = &JobConfig::micro_batches,
     .min = 1,
     .max = 1 << 20,
     .expected = "a number of micro-batches"},
    {.doc = {"iterations", K::kValue, "integer", "", "1", "Training iterations."},
     .field = &JobConfig::iterations,
     .min = 1,
     .max = 1000000,
     .expected = "a number of iterations"},
    {.doc = {"pp_size", K::kValue, "size", "", "required when pp > 1",
             "Bytes of one micro-batch's activations each rank sends its peer in the next stage "
             "(and of their gradient sent back)."},
     .field = &JobConfig::pp_size,
     .written = Written::kUnlessZero},
    {.doc = {"start", K::kValue, "time", "", "\"0ps\"", "When the first compute starts."},
     .field = &JobConfig::start},
    {.doc = {"channels", K::kValue, "integer", "", "1",
             "Channels of each collective (as [[collective]] channels); 0: per group, as many as "
             "it has ranks in one server (SimAI's MockNccl; 1 off a topology of servers)."},
     .field = &JobConfig::channels,
     .min = 0,
     .max = 64,
     .expected = "an integer number of channels"},
    {.doc = {"qps_per_connection", K::kValue, "integer", "", "host.qps_per_connection",
             "Queue pairs per connection of each collective (as [[collective]] "
             "qps_per_connection)."},
     .field = &JobConfig::qps_per_connection,
     .min = 1,
     .max = 16,
     .expected = "an integer number of queue pairs",
     .written = Written::kUnlessZero},
    {.doc = {"rotate_rings", K::kValue, "boolean", "", "false", "As [[collective]] rotate_rings."},
     .field = &JobConfig::rotate_rings},
    {.doc = {"pxn", K::kValue, "boolean", "", "false",
             "As [[collective]] pxn, for its collectives whose algorithm is \"ring\" or "
             "\"direct\" (the others' transfers are left as they are)."},
     .field = &JobConfig::pxn},
    {.doc = {"send_latency", K::kValue, "time", "", "\"0ps\"",
             "Each transfer of its collectives starts this long after it is ready (a launch or "
             "proxy latency per transfer; `dcqcn simai` sets SimAI's AS_SEND_LAT plus its MemBus "
             "hop of 10 ns)."},
     .field = &JobConfig::send_latency},
    {.doc = {"compute_gap", K::kValue, "time", "", "\"0ps\"",
             "Each compute of a rank after its first starts this long after what it waits for "
             "(SimAI's 1 ns per state change of its workload loop, which `dcqcn simai` sets)."},
     .field = &JobConfig::compute_gap},
    {.doc = {"processing_latency", K::kValue, "time", "", "\"0ps\"",
             "Added to the transfers of the ring steps SimAI's NcclFlowModel processes (its 30 "
             "ns of memory reads and write, which `dcqcn simai` sets): a ReduceScatter's steps "
             "but the first, and an AllReduce's steps 1 to N - 1 (N ranks) when a rank runs an "
             "odd number of channels (docs/training-jobs.md)."},
     .field = &JobConfig::processing_latency},
    {.doc = {"connection", K::kValue, "string", "", "\"persistent\"",
             "As [[collective]] connection; persistent connections belong to one group "
             "(communicator) and carry all its collectives."},
     .field = ByName<&JobConfig::connection>(kCollectiveConnectionNames)},
    // Registry names: read and written by hand.
    {.doc = {"allreduce_algorithm", K::kValue, "string", "", "\"ring\"",
             "The algorithm of the allreduce, reducescatter and allgather collectives."}},
    {.doc = {"alltoall_algorithm", K::kValue, "string", "", "\"direct\"",
             "The algorithm of the alltoall collectives."}},
    {.doc = {"step_done", K::kValue, "string", "", "\"delivered\"",
             "When a collective's step is done for the rank that waits for it: `\"delivered\"` "
             "(it has the chunk), `\"acked\"` (the sender has the last ACK of it, as SimAI's "
             "ns-3 backend tells both ends: the receiver counts the ACK's flight on an idle path "
             "from its delivery) or `\"ack_arrival\"` (the same, told the instant the ACK "
             "arrives, late where it queued: SimAI's own rule; the run keeps to one thread)."},
     .field = ByName<&JobConfig::step_done>(kStepDoneNames)},
    {.doc = {"weight_grad_order", K::kValue, "string", "", "\"issue\"",
             "The order in which a rank's weight-gradient collectives, issued without blocking, "
             "run, one at a time: `\"issue\"` (as issued, as one NCCL communicator runs its "
             "operations) or `\"newest_first\"` (when one is done for the rank, the last issued "
             "of those waiting runs next: SimAI's LIFO scheduling, which `dcqcn simai` sets)."},
     .field = ByName<&JobConfig::weight_grad_order>(kWeightGradOrderNames)},
    {.doc = {"priority", K::kValue, "integer", "802.1p class", "3", "Priority of its data, 1..7."},
     .field = &JobConfig::priority,
     .min = 1,
     .max = 7,
     .expected = "an 802.1p priority"},
    {.doc = {"blocks", K::kValue, "integer", "", "1",
             "The layers as listed, this many times in a row: a model of identical blocks of "
             "several layers (e.g. attention, then experts), each layer named NAME.k."},
     .field = &JobConfig::blocks,
     .min = 1,
     .max = kMaxJobLayers,
     .expected = "a number of blocks"},
    {.doc = {"layer", K::kFlowArray, "array of tables", "", "required",
             "The model's layers in forward order, `[[job.layer]]` once per layer (or repeated "
             "block)."}},
};

constexpr KeyRow<JobLayer> kJobLayerKeys[] = {
    {.doc = {"name", K::kValue, "string", "", "\"layerN\" (N its index)",
             "Its name in jobs.csv and the job's collectives."},
     .field = &JobLayer::name},
    {.doc = {"repeat", K::kValue, "integer", "", "1", "This many identical layers in a row."},
     .field = &JobLayer::repeat,
     .min = 1,
     .max = 1 << 20,
     .expected = "a number of layers"},
    // The phases' keys: read and written by hand.
    {.doc = {"forward_compute", K::kValue, "time", "", "\"0ps\"",
             "Compute time of the layer's forward pass for one micro-batch."}},
    {.doc = {"forward_comm", K::kValue, "string", "", "\"none\"",
             "The collective after it, blocking: `\"none\"`, `\"allreduce\"`, "
             "`\"reducescatter\"`, `\"allgather\"` or `\"alltoall\"`."}},
    {.doc = {"forward_size", K::kValue, "size", "", "required with forward_comm",
             "nccl-tests' size of that collective (as [[collective]] size)."}},
    {.doc = {"forward_group", K::kValue, "string", "", "\"tp\"",
             "The group it runs over: `\"tp\"`, `\"dp\"`, `\"ep\"` or `\"dp_ep\"`."}},
    {.doc = {"input_grad_compute", K::kValue, "time", "", "\"0ps\"",
             "Compute time of the input gradient (backward) for one micro-batch."}},
    {.doc = {"input_grad_comm", K::kValue, "string", "", "\"none\"",
             "The collective after it, blocking (as forward_comm)."}},
    {.doc = {"input_grad_size", K::kValue, "size", "", "required with input_grad_comm",
             "Its size."}},
    {.doc = {"input_grad_group", K::kValue, "string", "", "\"tp\"", "Its group."}},
    {.doc = {"weight_grad_compute", K::kValue, "time", "", "\"0ps\"",
             "Compute time of the weight gradient for one micro-batch, after the input "
             "gradient's collective."}},
    {.doc = {"weight_grad_comm", K::kValue, "string", "", "\"none\"",
             "The collective after it in the last micro-batch, not blocking: it overlaps the "
             "backward compute that follows (as forward_comm)."}},
    {.doc = {"weight_grad_size", K::kValue, "size", "", "required with weight_grad_comm",
             "Its size."}},
    {.doc = {"weight_grad_group", K::kValue, "string", "", "\"dp\"", "Its group."}},
    {.doc = {"update", K::kValue, "time", "", "\"0ps\"",
             "After each of the layer's collectives, each rank waits this long before the "
             "collective counts as done for it (SimAI's update_time); counted as that "
             "collective's communication."},
     .field = &JobLayer::update},
};

}  // namespace

std::span<const KeyRow<WorkloadConfig>> WorkloadKeys() { return kWorkloadKeys; }
std::span<const KeyRow<WorkloadConfig>> IncastEventKeys() { return kIncastEventKeys; }
std::span<const KeyRow<CollectiveConfig>> CollectiveKeys() { return kCollectiveKeys; }
std::span<const KeyRow<JobConfig>> JobKeys() { return kJobKeys; }
std::span<const KeyRow<JobLayer>> JobLayerKeys() { return kJobLayerKeys; }

}  // namespace dcqcn
