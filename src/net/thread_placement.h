// Which thread runs each node of a network split over threads. Partitions are racks (an edge
// switch with its hosts; hosts cabled to each other go together) and every other switch alone, as
// docs/parallel.md measured best; each thread takes a connected region of them holding an equal
// share of the expected load (their ports), so that few packets cross between
// threads. The placement only decides speed: results do not depend on it (Simulator's order).
#pragma once

#include <vector>

#include "core/units.h"
#include "net/topology.h"

namespace dcqcn {

struct ThreadPlacement {
  std::vector<int> thread_of;  // by node id
  int threads = 1;
  // The smallest delay of a link between nodes of two threads: how far one thread may run
  // ahead of the others (kTimeNever: no such link).
  Time lookahead = kTimeNever;
  int partitions = 0;  // racks and lone switches
};

// On `threads` threads, or as many as there are partitions if fewer; with one, every node is on
// thread 0. Hosts h and h' with h / hosts_together == h' / hosts_together share a partition
// (a server's GPUs, whose NVLink crossbar is one model). `node_work` (by node id; empty or all
// 0: unknown) is the work each node did in an earlier run, which the threads then share
// equally instead of the ports: a collective that loads a few racks has them spread over the
// threads, not on the first.
ThreadPlacement PlaceOnThreads(const Topology& topo, int threads, int hosts_together = 1,
                               const std::vector<double>& node_work = {});

}  // namespace dcqcn
