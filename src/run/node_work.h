// The work each node did in an earlier run, read back from its run folder for the thread
// placement (NetworkConfig::node_work, net/thread_placement.h): a node's work is the wire bytes
// its ports sent and took in (links.csv's `bytes`), a packet hop's cost standing on both ends.
#pragma once

#include <string>
#include <vector>

#include "net/topology.h"

namespace dcqcn {

// By node id of `topo`. Throws InputError naming the file and line when `run_dir` has no
// links.csv of this topology (a node or port it does not have, a port it lacks, no `bytes`).
std::vector<double> ReadNodeWork(const std::string& run_dir, const Topology& topo);

}  // namespace dcqcn
