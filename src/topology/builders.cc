// Builders for the star, dumbbell, custom, leaf-spine and fat-tree topologies, and the
// connectivity check the scenario loader uses to reject flows that could never be delivered.
#include "topology/builders.h"

#include <fmt/format.h>

#include <cmath>
#include <string_view>

#include "core/error.h"

namespace dcqcn {
namespace {

[[noreturn]] void Fail(const std::string& source, const std::string& what) {
  throw InputError(fmt::format("{}: topology: {}", source, what));
}

// Checks a finished cable list; for custom topologies it is the only line of defence when the
// config did not come through the loader (which reports the same problems with line numbers).
void CheckLinks(const TopologyConfig& topo, const std::string& source) {
  std::vector<int> host_links(topo.hosts, 0);
  for (size_t i = 0; i < topo.links.size(); ++i) {
    const LinkSpec& l = topo.links[i];
    for (int end : {l.a, l.b}) {
      if (end < 0 || end >= topo.num_nodes()) {
        Fail(source, fmt::format("link {} names node id {}, but there are only {} nodes "
                                 "({} hosts and {} switches)",
                                 i, end, topo.num_nodes(), topo.hosts, topo.switches));
      }
    }
    if (l.a == l.b) {
      Fail(source, fmt::format("link {} joins {} to itself", i, topo.node_name(l.a)));
    }
    if (l.rate <= 0) Fail(source, fmt::format("link {} has rate {}, expected > 0", i, l.rate));
    if (l.delay <= 0) Fail(source, fmt::format("link {} has delay {}, expected > 0", i, l.delay));
    if (topo.is_host(l.a)) ++host_links[l.a];
    if (topo.is_host(l.b)) ++host_links[l.b];
  }
  for (int h = 0; h < topo.hosts; ++h) {
    if (host_links[h] != 1) {
      Fail(source, fmt::format("host h{} has {} links, expected exactly 1 (a NIC has one port)", h,
                               host_links[h]));
    }
  }
}

}  // namespace

int RailLeaves(const TopologyConfig& topo) {
  return (topo.servers + topo.servers_per_leaf - 1) / topo.servers_per_leaf;
}

namespace {

bool IsFabric(const TopologyConfig& topo) {
  return topo.type == "leaf_spine" || topo.type == "rail" || topo.type == "fat_tree";
}

// Checks the shape of a leaf-spine or fat tree and derives hosts, switches and fabric_rate from
// it, before the checks every topology gets. Counts are multiplied in 64 bits so that a huge
// shape is reported rather than overflowed.
void DeriveFabric(TopologyConfig& topo, const std::string& source) {
  auto check_count = [&](std::string_view what, int64_t count) {
    if (count > kMaxTopologyNodes) {
      Fail(source, fmt::format("{} would have {} {}, more than the {} supported", topo.type, count,
                               what, kMaxTopologyNodes));
    }
  };
  auto check_ports = [&](std::string_view node, int64_t ports) {
    if (ports > kMaxSwitchPorts) {
      Fail(source, fmt::format("a {} switch would have {} ports, more than the {} a switch's "
                               "16-bit port index allows",
                               node, ports, kMaxSwitchPorts));
    }
  };
  if (topo.fabric_rate < 0) Fail(source, "fabric_rate must be > 0 (or 0 = link_rate)");
  // fabric_rate from oversubscription: a leaf's `downlinks` host links over its uplinks.
  auto derive_fabric_rate = [&](int downlinks, std::string_view per_leaf) {
    if (!(topo.oversubscription >= 0) || !std::isfinite(topo.oversubscription)) {
      Fail(source, fmt::format("oversubscription = {}, expected a number > 0 (or 0 = not given)",
                               topo.oversubscription));
    }
    if (topo.oversubscription == 0) return;
    const double derived = static_cast<double>(downlinks) * static_cast<double>(topo.link_rate) /
                           (topo.spines * topo.oversubscription);
    if (!(derived >= 1) || derived > 1e15) {
      Fail(source, fmt::format("oversubscription = {} gives a fabric_rate of {} bps, expected "
                               "1bps..1Pbps",
                               topo.oversubscription, derived));
    }
    // An explicit rate may be the derived one rounded as the user wrote it ("53.33Gbps").
    if (topo.fabric_rate > 0 &&
        std::abs(static_cast<double>(topo.fabric_rate) - derived) > 1e-3 * derived) {
      Fail(source, fmt::format("fabric_rate = {} conflicts with oversubscription = {}, which gives "
                               "{} x link_rate / (spines x oversubscription) = {} x {} / ({} x "
                               "{}) = {}; give one of them",
                               FormatRate(topo.fabric_rate), topo.oversubscription, per_leaf,
                               downlinks, FormatRate(topo.link_rate), topo.spines,
                               topo.oversubscription, FormatRate(std::llround(derived))));
    }
    if (topo.fabric_rate == 0) topo.fabric_rate = std::llround(derived);
  };
  if (topo.type == "leaf_spine") {
    if (topo.leaves < 1) Fail(source, fmt::format("leaves = {}, expected >= 1", topo.leaves));
    if (topo.spines < 1) Fail(source, fmt::format("spines = {}, expected >= 1", topo.spines));
    if (topo.hosts_per_leaf < 1) {
      Fail(source, fmt::format("hosts_per_leaf = {}, expected >= 1", topo.hosts_per_leaf));
    }
    const int64_t hosts = static_cast<int64_t>(topo.leaves) * topo.hosts_per_leaf;
    check_count("hosts", hosts);
    check_count("switches", static_cast<int64_t>(topo.leaves) + topo.spines);
    check_ports("leaf", static_cast<int64_t>(topo.hosts_per_leaf) + topo.spines);
    check_ports("spine", topo.leaves);
    if (hosts < 2) {
      Fail(source, fmt::format("leaves x hosts_per_leaf = {} x {} = {} hosts, expected >= 2",
                               topo.leaves, topo.hosts_per_leaf, hosts));
    }
    topo.hosts = static_cast<int>(hosts);
    topo.switches = topo.leaves + topo.spines;
    derive_fabric_rate(topo.hosts_per_leaf, "hosts_per_leaf");
  } else if (topo.type == "rail") {
    for (const auto& [name, value] : {std::pair<std::string_view, int>{"servers", topo.servers},
                                      {"gpus_per_server", topo.gpus_per_server},
                                      {"servers_per_leaf", topo.servers_per_leaf},
                                      {"spines", topo.spines}}) {
      if (value < 1) Fail(source, fmt::format("{} = {}, expected >= 1", name, value));
    }
    const int64_t hosts = static_cast<int64_t>(topo.servers) * topo.gpus_per_server;
    const int64_t leaves = RailLeaves(topo) * int64_t{topo.gpus_per_server};
    check_count("hosts", hosts);
    check_count("switches", leaves + topo.spines);
    check_ports("leaf",
                static_cast<int64_t>(std::min(topo.servers_per_leaf, topo.servers)) + topo.spines);
    check_ports("spine", leaves);
    if (hosts < 2) {
      Fail(source, fmt::format("servers x gpus_per_server = {} x {} = {} hosts, expected >= 2",
                               topo.servers, topo.gpus_per_server, hosts));
    }
    topo.hosts = static_cast<int>(hosts);
    topo.switches = static_cast<int>(leaves) + topo.spines;
    derive_fabric_rate(std::min(topo.servers_per_leaf, topo.servers), "servers_per_leaf");
  } else {
    if (topo.k < 2 || topo.k % 2 != 0) {
      Fail(source, fmt::format("k = {}, expected an even number >= 2 (ports per switch)", topo.k));
    }
    check_ports("fat-tree", topo.k);
    const int64_t k = topo.k;
    check_count("hosts", k * k * k / 4);
    check_count("switches", 5 * k * k / 4);
    topo.hosts = static_cast<int>(k * k * k / 4);
    topo.switches = static_cast<int>(5 * k * k / 4);
  }
  if (topo.fabric_rate == 0) topo.fabric_rate = topo.link_rate;
}

// Hosts first (host h on leaf h / hosts_per_leaf), then leaves, then spines. Links: host h's
// cable is link h, then every leaf to every spine, leaf by leaf.
void BuildLeafSpine(TopologyConfig& topo) {
  const int leaf0 = topo.hosts;
  const int spine0 = topo.hosts + topo.leaves;
  topo.links.clear();
  topo.links.reserve(topo.hosts + static_cast<size_t>(topo.leaves) * topo.spines);
  for (int h = 0; h < topo.hosts; ++h) {
    topo.links.push_back({h, leaf0 + h / topo.hosts_per_leaf, topo.link_rate, topo.link_delay});
  }
  for (int l = 0; l < topo.leaves; ++l) {
    for (int s = 0; s < topo.spines; ++s) {
      topo.links.push_back({leaf0 + l, spine0 + s, topo.fabric_rate, topo.link_delay});
    }
  }
}

// Hosts first (host = server x gpus_per_server + gpu), then the leaves rail by rail (rail g's
// leaves are g x RailLeaves .. g x RailLeaves + RailLeaves - 1; server s is on its rails' leaf
// s / servers_per_leaf), then the spines. Links: host h's cable is link h, then every leaf to
// every spine, leaf by leaf.
void BuildRail(TopologyConfig& topo) {
  const int per_rail = RailLeaves(topo);
  const int leaves = per_rail * topo.gpus_per_server;
  const int leaf0 = topo.hosts;
  const int spine0 = topo.hosts + leaves;
  topo.links.clear();
  topo.links.reserve(topo.hosts + static_cast<size_t>(leaves) * topo.spines);
  for (int h = 0; h < topo.hosts; ++h) {
    const int server = h / topo.gpus_per_server;
    const int rail = h % topo.gpus_per_server;
    topo.links.push_back({h, leaf0 + rail * per_rail + server / topo.servers_per_leaf,
                          topo.link_rate, topo.link_delay});
  }
  for (int l = 0; l < leaves; ++l) {
    for (int s = 0; s < topo.spines; ++s) {
      topo.links.push_back({leaf0 + l, spine0 + s, topo.fabric_rate, topo.link_delay});
    }
  }
}

// Hosts first (k/2 per edge switch, host h on edge h / (k/2)), then the k^2/2 edge switches
// (pod p has edges p*k/2 .. p*k/2 + k/2-1), the k^2/2 aggregation switches (same numbering) and
// the k^2/4 cores. Aggregation switch j of every pod connects to cores j*k/2 .. j*k/2 + k/2-1,
// so between pods there are (k/2)^2 shortest paths, one per core.
void BuildFatTree(TopologyConfig& topo) {
  const int half = topo.k / 2;
  const int pods = topo.k;
  const int edge0 = topo.hosts;
  const int agg0 = edge0 + pods * half;
  const int core0 = agg0 + pods * half;
  topo.links.clear();
  topo.links.reserve(3 * static_cast<size_t>(topo.hosts));
  for (int h = 0; h < topo.hosts; ++h) {
    topo.links.push_back({h, edge0 + h / half, topo.link_rate, topo.link_delay});
  }
  for (int p = 0; p < pods; ++p) {
    for (int e = 0; e < half; ++e) {
      for (int a = 0; a < half; ++a) {
        topo.links.push_back(
            {edge0 + p * half + e, agg0 + p * half + a, topo.fabric_rate, topo.link_delay});
      }
    }
  }
  for (int p = 0; p < pods; ++p) {
    for (int a = 0; a < half; ++a) {
      for (int c = 0; c < half; ++c) {
        topo.links.push_back(
            {agg0 + p * half + a, core0 + a * half + c, topo.fabric_rate, topo.link_delay});
      }
    }
  }
}

}  // namespace

void BuildTopology(TopologyConfig& topo, const std::string& source) {
  if (IsFabric(topo)) DeriveFabric(topo, source);
  if (topo.hosts < 2 || topo.hosts > kMaxTopologyNodes) {
    Fail(source, fmt::format("hosts = {}, expected 2..{}", topo.hosts, kMaxTopologyNodes));
  }
  if (topo.link_rate <= 0) Fail(source, "link_rate must be > 0");
  if (topo.link_delay <= 0) Fail(source, "link_delay must be > 0");
  auto cable = [&](int a, int b, Rate rate) {
    topo.links.push_back(LinkSpec{a, b, rate, topo.link_delay});
  };
  if (topo.type == "star") {
    topo.switches = 1;
    topo.links.clear();
    topo.links.reserve(topo.hosts);
    const int s0 = topo.hosts;
    for (int h = 0; h < topo.hosts; ++h) cable(h, s0, topo.link_rate);
  } else if (topo.type == "dumbbell") {
    if (topo.bottleneck_rate < 0) Fail(source, "bottleneck_rate must be > 0 (or 0 = link_rate)");
    topo.switches = 2;
    topo.links.clear();
    topo.links.reserve(topo.hosts + 1);
    const int s0 = topo.hosts;
    const int s1 = topo.hosts + 1;
    const int left = (topo.hosts + 1) / 2;  // ceil(H/2): the odd host goes to the left side
    for (int h = 0; h < topo.hosts; ++h) cable(h, h < left ? s0 : s1, topo.link_rate);
    cable(s0, s1, topo.bottleneck_rate > 0 ? topo.bottleneck_rate : topo.link_rate);
  } else if (topo.type == "custom") {
    if (topo.switches < 0 || topo.switches > kMaxTopologyNodes) {
      Fail(source, fmt::format("switches = {}, expected 0..{}", topo.switches, kMaxTopologyNodes));
    }
  } else if (topo.type == "leaf_spine") {
    BuildLeafSpine(topo);
  } else if (topo.type == "rail") {
    BuildRail(topo);
  } else if (topo.type == "fat_tree") {
    BuildFatTree(topo);
  } else {
    Fail(source, fmt::format("unknown type \"{}\", expected star, dumbbell, custom, leaf_spine, "
                             "rail or fat_tree",
                             topo.type));
  }
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
