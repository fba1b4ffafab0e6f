// Building a topology through its type's builder (topology/types/), the checks every cable list
// passes, and the connectivity check the scenario loader uses to reject flows that could never
// be delivered.
#include "topology/builders.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "topology/fabric_shape.h"
#include "topology/topology_type.h"

namespace dcqcn {
namespace {

// Checks a finished cable list; for custom topologies it is the only line of defence when the
// config did not come through the loader (which reports the same problems with line numbers).
void CheckLinks(const TopologyConfig& topo, const std::string& source) {
  std::vector<int> host_links(topo.hosts, 0);
  for (size_t i = 0; i < topo.links.size(); ++i) {
    const LinkSpec& l = topo.links[i];
    for (int end : {l.a, l.b}) {
      if (end < 0 || end >= topo.num_nodes()) {
        TopologyFail(source, fmt::format("link {} names node id {}, but there are only {} nodes "
                                         "({} hosts and {} switches)",
                                         i, end, topo.num_nodes(), topo.hosts, topo.switches));
      }
    }
    if (l.a == l.b) {
      TopologyFail(source, fmt::format("link {} joins {} to itself", i, topo.node_name(l.a)));
    }
    if (l.rate <= 0)
      TopologyFail(source, fmt::format("link {} has rate {}, expected > 0", i, l.rate));
    if (l.delay <= 0)
      TopologyFail(source, fmt::format("link {} has delay {}, expected > 0", i, l.delay));
    if (topo.is_host(l.a)) ++host_links[l.a];
    if (topo.is_host(l.b)) ++host_links[l.b];
  }
  for (int h = 0; h < topo.hosts; ++h) {
    if (host_links[h] < 1 || host_links[h] > kMaxHostPorts) {
      TopologyFail(source, fmt::format("host h{} has {} links, expected 1..{} (one per port of its "
                                       "NIC)",
                                       h, host_links[h], kMaxHostPorts));
    }
  }
}

void CheckHosts(const TopologyConfig& topo, const std::string& source) {
  if (topo.hosts < 2 || topo.hosts > kMaxTopologyNodes) {
    TopologyFail(source, fmt::format("hosts = {}, expected 2..{}", topo.hosts, kMaxTopologyNodes));
  }
}

}  // namespace

void BuildTopology(TopologyConfig& topo, const std::string& source) {
  const TopologyType* type = FindTopologyType(topo.type);
  if (type == nullptr || type->build == nullptr) {
    TopologyFail(source, fmt::format("unknown type \"{}\", expected {}", topo.type,
                                     fmt::join(TopologyTypeNames(), ", ")));
  }
  // A fabric's hosts follow from its shape, which its builder checks first.
  if (!type->hosts_from_shape) CheckHosts(topo, source);
  if (topo.link_rate <= 0) TopologyFail(source, "link_rate must be > 0");
  if (topo.link_delay <= 0) TopologyFail(source, "link_delay must be > 0");
  type->build(topo, source);
  CheckHosts(topo, source);
  CheckLinks(topo, source);
}

std::vector<int> ConnectedComponents(const TopologyConfig& topo) {
  const int n = topo.num_nodes();
  std::vector<std::vector<int>> adjacent(n);
  for (const LinkSpec& l : topo.links) {
    if (l.a < 0 || l.b < 0 || l.a >= n || l.b >= n) continue;  // CheckLinks reports these
    adjacent[l.a].push_back(l.b);
    adjacent[l.b].push_back(l.a);
  }
  std::vector<int> label(n, -1);
  std::vector<int> queue;
  int next_label = 0;
  for (int start = 0; start < n; ++start) {
    if (label[start] >= 0) continue;
    label[start] = next_label;
    queue.assign(1, start);
    for (size_t head = 0; head < queue.size(); ++head) {
      for (int v : adjacent[queue[head]]) {
        if (label[v] < 0) {
          label[v] = next_label;
          queue.push_back(v);
        }
      }
    }
    ++next_label;
  }
  return label;
}

}  // namespace dcqcn
