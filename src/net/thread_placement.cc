// Racks onto threads: regions grown breadth first to an equal share of the load each.
#include "net/thread_placement.h"

#include <algorithm>
#include <deque>
#include <numeric>

namespace dcqcn {

namespace {

int Root(std::vector<int>& parent, int n) {
  while (parent[n] != n) n = parent[n] = parent[parent[n]];
  return n;
}

}  // namespace

ThreadPlacement PlaceOnThreads(const Topology& topo, int threads, int hosts_together,
                               const std::vector<double>& node_work) {
  const int nodes = topo.num_nodes();
  ThreadPlacement placement;
  placement.threads = std::max(1, threads);
  placement.thread_of.assign(nodes, 0);
  // Partitions: a host joins what it is cabled to (its edge switch, or another host), and the
  // other hosts of its server.
  std::vector<int> parent(nodes);
  std::iota(parent.begin(), parent.end(), 0);
  const auto join = [&](int x, int y) {
    const int a = Root(parent, x);
    const int b = Root(parent, y);
    parent[std::max(a, b)] = std::min(a, b);
  };
  if (hosts_together > 1) {
    for (int h = 0; h < topo.hosts; ++h) join(h, h - h % hosts_together);
  }
  for (const LinkSpec& l : topo.links) {
    if (topo.is_host(l.a) || topo.is_host(l.b)) join(l.a, l.b);
  }
  // Each partition's load: its ports, each a stream of packets to send and to take in. (The
  // capacity of its links instead, or a host's port counted twice, balanced events less well on
  // HPCC's fat tree: a host's events cost more than a switch's; docs/parallel.md.)
  std::vector<double> load(nodes, 0);
  for (const LinkSpec& l : topo.links) {
    for (const int end : {l.a, l.b}) load[Root(parent, end)] += 1;
  }
  // An earlier run's work instead, where known: what the ports stood for. (Each port still
  // weighs a millionth of the mean port's work, so that idle partitions are placed by ports.)
  double work = 0;
  for (const double w : node_work) work += w;
  if (static_cast<int>(node_work.size()) == nodes && work > 0) {
    const double per_port = work / (2.0 * static_cast<double>(topo.links.size()));
    for (double& l : load) l *= 1e-6 * per_port;
    for (int n = 0; n < nodes; ++n) load[Root(parent, n)] += node_work[n];
  }
  std::vector<int> partitions;
  for (int n = 0; n < nodes; ++n) {
    if (Root(parent, n) == n) partitions.push_back(n);
  }
  placement.partitions = static_cast<int>(partitions.size());
  placement.threads = std::min(placement.threads, std::max(1, placement.partitions));
  // Which partitions are cabled to which.
  std::vector<std::vector<int>> neighbours(nodes);
  for (const LinkSpec& l : topo.links) {
    const int a = Root(parent, l.a);
    const int b = Root(parent, l.b);
    if (a == b) continue;
    neighbours[a].push_back(b);
    neighbours[b].push_back(a);
  }
  // Each thread grows a region breadth first from the lowest partition not yet placed, until it
  // holds its share of the load: neighbours stay together (a pod's racks and its aggregation
  // switches), so fewer packets cross between threads than under a placement by load alone.
  double total = 0;
  for (const int root : partitions) total += load[root];
  std::vector<int> thread_of_root(nodes, -1);
  std::deque<int> frontier;
  size_t next_seed = 0;
  double placed = 0;
  for (int t = 0; t < placement.threads; ++t) {
    const double share_end = total * (t + 1) / placement.threads;
    while (t == placement.threads - 1 || placed < share_end) {
      if (frontier.empty()) {
        while (next_seed < partitions.size() && thread_of_root[partitions[next_seed]] != -1) {
          ++next_seed;
        }
        if (next_seed == partitions.size()) break;
        frontier.push_back(partitions[next_seed]);
      }
      const int root = frontier.front();
      frontier.pop_front();
      if (thread_of_root[root] != -1) continue;
      thread_of_root[root] = t;
      placed += load[root];
      for (const int n : neighbours[root]) {
        if (thread_of_root[n] == -1) frontier.push_back(n);
      }
    }
    frontier.clear();
  }
  for (int n = 0; n < nodes; ++n) placement.thread_of[n] = thread_of_root[Root(parent, n)];
  for (const LinkSpec& l : topo.links) {
    if (placement.thread_of[l.a] != placement.thread_of[l.b]) {
      placement.lookahead = std::min(placement.lookahead, l.delay);
    }
  }
  return placement;
}

}  // namespace dcqcn
