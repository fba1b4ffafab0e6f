// A collective algorithm ([[collective]] algorithm = NAME): the ops it implements, what it needs
// of the ranks, how one channel of one iteration expands into transfers, and how many flows that
// makes. Each lives in workload/collective/<name>.cc and has one line in collective_registry.cc;
// the loader, the key reference and the expansion read them from there. The ideal time of an
// iteration needs nothing of the algorithm: it follows from the flows and waits it expands into
// (run/collective_metrics.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.h"
#include "workload/collective_config.h"

namespace dcqcn {

class CollectiveBuilder;

// Where ranks live: `hosts` hosts; on a rail topology, servers of `gpus_per_server` hosts each
// (host = server x gpus_per_server + gpu), otherwise 0.
struct CollectiveHosts {
  int hosts = 0;
  int gpus_per_server = 0;
};

// The first thing wrong with a collective: the key it is about ("ranks", "algorithm", "pxn")
// and why; an empty key when nothing is.
struct CollectiveProblem {
  std::string key;
  std::string message;
};

struct CollectiveAlgorithm {
  std::string_view name;
  // One line for the key reference and docs/collectives.md: the scheme and its source.
  std::string_view description;
  bool (*implements)(CollectiveOp op);
  // What this algorithm needs beyond the checks every collective passes (at least 2 ranks, each
  // a host once); `hosts` is the host of each rank.
  CollectiveProblem (*check)(const CollectiveConfig& c, const std::vector<int>& hosts,
                             const CollectiveHosts& where);
  // One channel of one iteration carrying `data` bytes per rank, into `b`.
  void (*expand)(const CollectiveConfig& c, Bytes data, CollectiveBuilder& b);
  // The flows that makes (counted, not built: an all-to-all of a large fabric is billions).
  uint64_t (*flows_per_channel)(const CollectiveConfig& c, Bytes data,
                                const std::vector<int>& hosts, const CollectiveHosts& where);
};

// Every algorithm, in the order messages list them.
const std::vector<const CollectiveAlgorithm*>& CollectiveAlgorithms();
// nullptr when no algorithm has that name.
const CollectiveAlgorithm* FindCollectiveAlgorithm(std::string_view name);
// What `op` runs when [[collective]] names no algorithm: the first that implements it.
const CollectiveAlgorithm& DefaultCollectiveAlgorithm(CollectiveOp op);
std::vector<std::string_view> CollectiveAlgorithmNames();

}  // namespace dcqcn
