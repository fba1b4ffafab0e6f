// Route computation: one breadth-first search per switch that has hosts.
#include "net/routing.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace dcqcn {

RouteTable::RouteTable(int hosts, const std::vector<std::vector<std::pair<int, int>>>& adjacency,
                       const std::vector<int>* visit_rank) {
  const int nodes = static_cast<int>(adjacency.size());
  const int switches = nodes - hosts;
  host_switch_.assign(hosts, -1);
  host_port_.assign(hosts, 0);
  group_of_switch_.assign(switches, -1);
  std::vector<int> group_switch;
  for (int h = 0; h < hosts; ++h) {
    if (adjacency[h].empty()) continue;
    auto [peer, peer_port] = adjacency[h][0];
    if (peer < hosts) continue;  // cabled straight to another host
    int sw = peer - hosts;
    host_switch_[h] = sw;
    host_port_[h] = static_cast<uint16_t>(peer_port);
    if (group_of_switch_[sw] < 0) {
      group_of_switch_[sw] = static_cast<int>(group_switch.size());
      group_switch.push_back(sw);
    }
  }
  num_groups_ = static_cast<int>(group_switch.size());

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
  for (int g = 0; g < num_groups_; ++g) {
    std::fill(dist.begin(), dist.end(), -1);
    dist[group_switch[g]] = 0;
    frontier.assign(1, group_switch[g]);
    reached[group_switch[g]] = 0;
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

void RouteTable::Override(int sw, int dst, const std::vector<uint16_t>& ports) {
  overrides_[OverrideKey(sw, dst)] = {static_cast<uint32_t>(ports_.size()),
                                      static_cast<uint32_t>(ports.size())};
  ports_.insert(ports_.end(), ports.begin(), ports.end());
}

size_t RouteTable::bytes() const {
  return host_switch_.size() * sizeof(int32_t) + host_port_.size() * sizeof(uint16_t) +
         group_of_switch_.size() * sizeof(int32_t) + list_of_slot_.size() * sizeof(uint32_t) +
         list_begin_.size() * sizeof(uint32_t) + ports_.size() * sizeof(uint16_t);
}

}  // namespace dcqcn
