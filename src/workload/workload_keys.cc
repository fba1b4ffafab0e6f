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
             "alltoall on a rail topology: data for another server's GPU on another rail first "
             "crosses NVLink to the sender's GPU on the destination's rail (NCCL's PXN)."},
     .field = &CollectiveConfig::pxn},
    {.doc = {"connection", K::kValue, "string", "", "\"persistent\"",
             "`\"persistent\"`: as NCCL, one queue pair per rank pair and channel for the whole "
             "run: its transfers start in order (each once the one before has sent its last "
             "packet) over one source port and share one congestion-control state. "
             "`\"per_flow\"`: each transfer a queue pair of its own, with a fresh state and "
             "source port, as SimAI's ns-3 backend runs them."},
     .field = ByName<&CollectiveConfig::connection>(kCollectiveConnectionNames)},
};

}  // namespace

std::span<const KeyRow<WorkloadConfig>> WorkloadKeys() { return kWorkloadKeys; }
std::span<const KeyRow<WorkloadConfig>> IncastEventKeys() { return kIncastEventKeys; }
std::span<const KeyRow<CollectiveConfig>> CollectiveKeys() { return kCollectiveKeys; }

}  // namespace dcqcn
