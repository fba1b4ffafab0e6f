// Racks onto threads: longest processing time first.
#include "net/thread_placement.h"

#include <algorithm>
#include <numeric>

namespace dcqcn {

namespace {

int Root(std::vector<int>& parent, int n) {
  while (parent[n] != n) n = parent[n] = parent[parent[n]];
  return n;
}

}  // namespace

ThreadPlacement PlaceOnThreads(const Topology& topo, int threads) {
  const int nodes = topo.num_nodes();
  ThreadPlacement placement;
  placement.threads = std::max(1, threads);
  placement.thread_of.assign(nodes, 0);
  // Partitions: a host joins what it is cabled to (its edge switch, or another host).
  std::vector<int> parent(nodes);
  std::iota(parent.begin(), parent.end(), 0);
  for (const LinkSpec& l : topo.links) {
    if (topo.is_host(l.a) || topo.is_host(l.b)) {
      const int a = Root(parent, l.a);
      const int b = Root(parent, l.b);
      parent[std::max(a, b)] = std::min(a, b);
    }
  }
  // Each partition's load: the capacity of its nodes' ports, in Gb/s.
  std::vector<double> load(nodes, 0);
  for (const LinkSpec& l : topo.links) {
    const double gbps = static_cast<double>(l.rate) / 1e9;
    load[Root(parent, l.a)] += gbps;
    load[Root(parent, l.b)] += gbps;
  }
  std::vector<int> partitions;
  for (int n = 0; n < nodes; ++n) {
    if (Root(parent, n) == n) partitions.push_back(n);
  }
  placement.partitions = static_cast<int>(partitions.size());
  std::stable_sort(partitions.begin(), partitions.end(),
                   [&](int a, int b) { return load[a] > load[b]; });
  std::vector<double> thread_load(placement.threads, 0);
  std::vector<int> thread_of_root(nodes, 0);
  for (const int root : partitions) {
    const int t = static_cast<int>(std::min_element(thread_load.begin(), thread_load.end()) -
                                   thread_load.begin());
    thread_load[t] += load[root];
    thread_of_root[root] = t;
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
