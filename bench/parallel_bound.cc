// How much a conservative parallel engine could gain (docs/parallel.md): runs a case event by
// event, notes where each event executes (which node), and counts the events of every partition
// in every lookahead window, the smallest delay of a link between two partitions. Within a
// window, partitions run in parallel; windows run one after another. With partitions spread over
// P cores (largest first onto the least loaded core), the run takes at least the sum over windows
// of the busiest core's events: total events divided by that is the bound on the speed-up (no
// synchronisation cost counted). Partitions: racks (an edge switch and its hosts; every other
// switch alone) and pods (edge and aggregation switches with their hosts, found as the
// components left when the top tier is removed; every top-tier switch alone).
//   build/dcqcn_parallel_bound reference CONFIG.txt      (HPCC ns-3's fat-tree case, dcqcn ns3)
//   build/dcqcn_parallel_bound scenario SCENARIO.toml [KEY=VALUE...]
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <queue>
#include <unordered_map>
#include <vector>

#include "engine/one_thread_engine.h"
#include "net/network.h"
#include "scenario/hpcc_config.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

// The node at which each event handler's events execute (-1: none, a global event).
std::unordered_map<const EventHandler*, int> NodeOfHandlers(Network& net) {
  std::unordered_map<const EventHandler*, int> node_of;
  const int hosts = static_cast<int>(net.hosts().size());
  for (int h = 0; h < hosts; ++h) {
    RdmaNic& nic = *net.hosts()[h];
    node_of[&nic] = h;
    node_of[&nic.port()] = h;
    node_of[dynamic_cast<const EventHandler*>(&nic.cc())] = h;
  }
  for (size_t s = 0; s < net.switches().size(); ++s) {
    SwitchNode& sw = *net.switches()[s];
    node_of[&sw] = hosts + static_cast<int>(s);
    for (int p = 0; p < sw.num_ports(); ++p) node_of[&sw.port(p)] = hosts + static_cast<int>(s);
  }
  // A link's event is the arrival at its far end.
  for (int n = 0; n < hosts + static_cast<int>(net.switches().size()); ++n) {
    for (int p = 0; p < net.num_ports(n); ++p) node_of[&net.link(n, p)] = net.peer(n, p).first;
  }
  node_of.erase(nullptr);
  return node_of;
}

// Partitions of the nodes: racks or pods, as the file's comment says.
std::vector<int> Partition(const Topology& topo, bool pods) {
  const int n = topo.num_nodes();
  std::vector<std::vector<int>> adj(n);
  for (const LinkSpec& l : topo.links) {
    adj[l.a].push_back(l.b);
    adj[l.b].push_back(l.a);
  }
  // Tier of each switch: 1 next to a host, then one more per hop away from the hosts.
  std::vector<int> tier(n, 0);
  std::queue<int> q;
  for (int h = 0; h < topo.hosts; ++h) q.push(h);
  std::vector<bool> seen(n, false);
  for (int h = 0; h < topo.hosts; ++h) seen[h] = true;
  while (!q.empty()) {
    const int u = q.front();
    q.pop();
    for (int v : adj[u]) {
      if (seen[v]) continue;
      seen[v] = true;
      tier[v] = tier[u] + 1;
      q.push(v);
    }
  }
  const int top = *std::max_element(tier.begin(), tier.end());
  std::vector<int> part(n, -1);
  int next = 0;
  if (!pods) {
    for (int s = topo.hosts; s < n; ++s) part[s] = next++;
    for (int h = 0; h < topo.hosts; ++h) part[h] = part[adj[h][0]];  // its edge switch's
    return part;
  }
  // Pods: components of hosts and switches below the top tier.
  for (int s = topo.hosts; s < n; ++s) {
    if (part[s] >= 0 || tier[s] == top) continue;
    std::vector<int> stack = {s};
    part[s] = next;
    while (!stack.empty()) {
      const int u = stack.back();
      stack.pop_back();
      for (int v : adj[u]) {
        if (part[v] >= 0 || (v >= topo.hosts && tier[v] == top)) continue;
        part[v] = next;
        stack.push_back(v);
      }
    }
    ++next;
  }
  for (int s = topo.hosts; s < n; ++s) {
    if (part[s] < 0) part[s] = next++;
  }
  return part;
}

struct Bound {
  int partitions = 0;
  Time window = 0;
  uint64_t windows = 0;           // windows holding at least one event
  std::map<int, double> speedup;  // by cores
};

void Analyse(const Scenario& s, const char* name) {
  Network net(ToNetworkConfig(s));
  OneThreadEngine engine(net);
  Simulator& sim = net.sim();
  const auto node_of = NodeOfHandlers(net);
  const Topology& topo = s.topology;
  struct Scheme {
    const char* name = "";
    std::vector<int> part;
    Time window = kTimeNever;
    int parts = 0;
    // Per window: events per partition (a map: most partitions are idle in most windows).
    std::vector<std::unordered_map<int, uint64_t>> counts;
    std::vector<uint64_t> global;  // per window: events at no node
    std::vector<uint64_t> per_part;
  };
  std::vector<Scheme> schemes;
  for (bool pods : {false, true}) {
    Scheme sc;
    sc.name = pods ? "pods" : "racks";
    sc.part = Partition(topo, pods);
    sc.parts = *std::max_element(sc.part.begin(), sc.part.end()) + 1;
    for (const LinkSpec& l : topo.links) {
      if (sc.part[l.a] != sc.part[l.b]) sc.window = std::min(sc.window, l.delay);
    }
    sc.per_part.assign(sc.parts, 0);
    schemes.push_back(std::move(sc));
  }
  uint64_t total = 0;
  uint64_t unknown = 0;
  while (!engine.all_done() && sim.pending() > 0 && sim.next_time() <= s.duration) {
    const Event& e = sim.next_event();
    const auto it = node_of.find(e.target);
    const int node = it == node_of.end() ? -1 : it->second;
    unknown += node < 0;
    for (Scheme& sc : schemes) {
      const size_t w = static_cast<size_t>(e.time / sc.window);
      if (w >= sc.counts.size()) {
        sc.counts.resize(w + 1);
        sc.global.resize(w + 1, 0);
      }
      if (node < 0) {
        ++sc.global[w];
      } else {
        ++sc.counts[w][sc.part[node]];
        ++sc.per_part[sc.part[node]];
      }
    }
    ++total;
    sim.Step();
  }
  fmt::print("{}: {} events ({} at no node: flow starts, samplers), {} packet hops\n", name, total,
             unknown, net.stats().packet_hops);
  for (Scheme& sc : schemes) {
    uint64_t busy = 0;
    for (size_t w = 0; w < sc.counts.size(); ++w) busy += !sc.counts[w].empty() || sc.global[w];
    fmt::print(
        "  {}: {} partitions, lookahead window {} ({} windows with events, {:.0f} events "
        "per window)\n",
        sc.name, sc.parts, FormatTime(sc.window), busy,
        static_cast<double>(total) / static_cast<double>(std::max<uint64_t>(busy, 1)));
    for (int cores : {2, 8, 32}) {
      // Largest partitions first, each onto the least loaded core.
      std::vector<int> order(sc.parts);
      std::iota(order.begin(), order.end(), 0);
      std::sort(order.begin(), order.end(),
                [&](int a, int b) { return sc.per_part[a] > sc.per_part[b]; });
      std::vector<uint64_t> load(cores, 0);
      std::vector<int> core_of(sc.parts);
      for (int p : order) {
        const int c = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
        core_of[p] = c;
        load[c] += sc.per_part[p];
      }
      uint64_t critical = 0;
      std::vector<uint64_t> in_window(cores);
      for (size_t w = 0; w < sc.counts.size(); ++w) {
        std::fill(in_window.begin(), in_window.end(), 0);
        for (const auto& [p, n] : sc.counts[w]) in_window[core_of[p]] += n;
        critical += *std::max_element(in_window.begin(), in_window.end()) + sc.global[w];
      }
      fmt::print("    {:>2} cores: speed-up at most {:.2f} (balance alone: {:.2f})\n", cores,
                 static_cast<double>(total) / static_cast<double>(critical),
                 static_cast<double>(total) /
                     static_cast<double>(*std::max_element(load.begin(), load.end())));
    }
  }
}

}  // namespace
}  // namespace dcqcn

int main(int argc, char** argv) {
  using namespace dcqcn;
  if (argc < 3) {
    fmt::print(stderr, "usage: {} reference CONFIG.txt | scenario SCENARIO.toml [KEY=VALUE...]\n",
               argv[0]);
    return 2;
  }
  try {
    const std::string mode = argv[1];
    if (mode == "reference") {
      Analyse(LoadHpccConfig(argv[2]).scenario, argv[2]);
    } else {
      Analyse(LoadScenarioFile(argv[2], std::vector<std::string>(argv + 3, argv + argc)), argv[2]);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  }
  return 0;
}
