// Route computation: one breadth-first search per group of hosts (from its switches at once).
#include "net/routing.h"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

namespace dcqcn {

RouteTable::RouteTable(int hosts, const std::vector<std::vector<std::pair<int, int>>>& adjacency,
                       const std::vector<int>* visit_rank) {
  const int nodes = static_cast<int>(adjacency.size());
  const int switches = nodes - hosts;
  host_switch_.assign(hosts, -1);
  host_port_.assign(hosts, 0);
  group_of_host_.assign(hosts, -1);
  // A switch carries transit when it is cabled to another switch.
  std::vector<char> transit(switches, 0);
  for (int s = 0; s < switches; ++s) {
    for (auto [v, _] : adjacency[hosts + s]) transit[s] = transit[s] || v >= hosts;
  }
  bool several_ports = false;
  for (int h = 0; h < hosts; ++h) several_ports = several_ports || adjacency[h].size() > 1;
  if (several_ports) extra_begin_.assign(1, 0);
  // Groups: hosts cabled to the same transit switches; each group's switches (its sources).
  std::map<std::vector<int>, int> group_index;
  std::vector<std::vector<int>> group_switches;
  for (int h = 0; h < hosts; ++h) {
    std::vector<int> key;
    for (size_t p = 0; p < adjacency[h].size(); ++p) {
      auto [peer, peer_port] = adjacency[h][p];
      if (peer < hosts) continue;  // cabled straight to another host
      const int sw = peer - hosts;
      if (host_switch_[h] < 0) {
        host_switch_[h] = sw;
        host_port_[h] = static_cast<uint16_t>(peer_port);
      } else if (sw != host_switch_[h]) {
        extra_attachments_.emplace_back(sw, static_cast<uint16_t>(peer_port));
      }
      if (transit[sw]) key.push_back(sw);
    }
    if (several_ports) extra_begin_.push_back(static_cast<uint32_t>(extra_attachments_.size()));
    if (key.empty()) continue;
    std::sort(key.begin(), key.end());
    key.erase(std::unique(key.begin(), key.end()), key.end());
    const auto [it, added] = group_index.emplace(key, static_cast<int>(group_switches.size()));
    if (added) group_switches.push_back(std::move(key));
    group_of_host_[h] = it->second;
  }
  num_groups_ = static_cast<int>(group_switches.size());

  // dist[s] from each group's switch over switch-to-switch links; next hops are the ports
  // towards a neighbour one step closer. Stored group-major so each search appends in order.
  // Each switch's neighbours (their switch indices) in the order the search visits them.
  std::vector<std::vector<int>> neighbours(switches);
  for (int s = 0; s < switches; ++s) {
    for (auto [v, _] : adjacency[hosts + s]) {
      if (v >= hosts) neighbours[s].push_back(v - hosts);
    }
    if (visit_rank != nullptr) {
      std::stable_sort(neighbours[s].begin(), neighbours[s].end(), [&](int a, int b) {
        return (*visit_rank)[hosts + a] < (*visit_rank)[hosts + b];
      });
    }
  }
  std::vector<int> dist(switches);
  std::vector<int> reached(switches);  // position in the search order
  std::vector<int> frontier;
  std::vector<uint16_t> hops;
  // Each distinct list once, found by its bytes; list 0 is the empty one.
  std::unordered_map<std::string, uint32_t> list_index;
  list_begin_.assign(1, 0);
  auto list_of = [&](const std::vector<uint16_t>& list) {
    std::string key(reinterpret_cast<const char*>(list.data()), list.size() * sizeof(uint16_t));
    auto [it, added] =
        list_index.emplace(std::move(key), static_cast<uint32_t>(list_begin_.size() - 1));
    if (added) {
      ports_.insert(ports_.end(), list.begin(), list.end());
      list_begin_.push_back(static_cast<uint32_t>(ports_.size()));
    }
    return it->second;
  };
  list_of({});
  list_of_slot_.reserve(static_cast<size_t>(switches) * num_groups_);
  if (several_ports) dist_of_slot_.reserve(static_cast<size_t>(switches) * num_groups_);
  for (int g = 0; g < num_groups_; ++g) {
    std::fill(dist.begin(), dist.end(), -1);
    frontier.clear();
    for (const int sw : group_switches[g]) {
      dist[sw] = 0;
      reached[sw] = static_cast<int>(frontier.size());
      frontier.push_back(sw);
    }
    for (size_t i = 0; i < frontier.size(); ++i) {
      int u = frontier[i];
      for (int v : neighbours[u]) {
        if (dist[v] >= 0) continue;
        dist[v] = dist[u] + 1;
        reached[v] = static_cast<int>(frontier.size());
        frontier.push_back(v);
      }
    }
    for (int s = 0; s < switches; ++s) {
      hops.clear();
      if (several_ports) dist_of_slot_.push_back(static_cast<uint16_t>(dist[s] + 1));
      if (dist[s] <= 0) {
        list_of_slot_.push_back(0);
        continue;
      }
      const auto& ports = adjacency[hosts + s];
      for (size_t p = 0; p < ports.size(); ++p) {
        int v = ports[p].first;
        if (v >= hosts && dist[v - hosts] == dist[s] - 1) hops.push_back(static_cast<uint16_t>(p));
      }
      if (visit_rank != nullptr) {
        std::stable_sort(hops.begin(), hops.end(), [&](uint16_t a, uint16_t b) {
          return reached[ports[a].first - hosts] < reached[ports[b].first - hosts];
        });
      }
      list_of_slot_.push_back(list_of(hops));
    }
  }
  num_switches_ = switches;
}

int RouteTable::Distance(int sw, int dst) const {
  if (CabledPort(sw, dst) != nullptr) return 0;
  const int group = group_of_host_[dst];
  if (group < 0) return -1;
  const size_t slot = static_cast<size_t>(group) * num_switches_ + sw;
  if (!dist_of_slot_.empty()) return dist_of_slot_[slot] - 1;
  // One port per host: the next-hop lists tell reachability, not distance; every host's single
  // port is its only choice, so any reachable switch will do.
  return list_of_slot_[slot] != 0 ? 1 : -1;
}

void RouteTable::Override(int sw, int dst, const std::vector<uint16_t>& ports) {
  overrides_[OverrideKey(sw, dst)] = {static_cast<uint32_t>(ports_.size()),
                                      static_cast<uint32_t>(ports.size())};
  ports_.insert(ports_.end(), ports.begin(), ports.end());
}

size_t RouteTable::bytes() const {
  return host_switch_.size() * sizeof(int32_t) + host_port_.size() * sizeof(uint16_t) +
         extra_begin_.size() * sizeof(uint32_t) +
         extra_attachments_.size() * sizeof(std::pair<int32_t, uint16_t>) +
         group_of_host_.size() * sizeof(int32_t) + list_of_slot_.size() * sizeof(uint32_t) +
         dist_of_slot_.size() * sizeof(uint16_t) + list_begin_.size() * sizeof(uint32_t) +
         ports_.size() * sizeof(uint16_t);
}

}  // namespace dcqcn
