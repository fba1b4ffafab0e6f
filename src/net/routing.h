// Shortest-path routes with every equal-cost next hop (for ECMP), stored compactly: hosts have
// one link, so all hosts behind the same switch share their routes everywhere else, and the
// table is kept per (switch, destination switch) rather than per (switch, destination host).
// Each distinct list of next-hop ports is stored once (a fat tree's switches mostly repeat
// "all up ports"): a slot holds only the list's index, 4 bytes, which keeps a k = 64 fat tree's
// 10.5 M slots at 42 MB instead of the lists themselves (about 1 GB).
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dcqcn {

class RouteTable {
 public:
  // `adjacency[node]` lists (peer node, peer port) per local port; nodes 0..hosts-1 are hosts,
  // the rest switches (switch index = node - hosts).
  // `visit_rank` (optional, per node): the route search visits a switch's neighbours in
  // increasing rank, and each set of next hops is listed in the order the search reached them
  // (HPCC ns-3's CalculateRoute); without it, next hops are listed in port order.
  RouteTable(int hosts, const std::vector<std::vector<std::pair<int, int>>>& adjacency,
             const std::vector<int>* visit_rank = nullptr);

  // Replaces the ports at switch `sw` towards host `dst` by `ports` (a static route).
  void Override(int sw, int dst, const std::vector<uint16_t>& ports);
  bool has_overrides() const { return !overrides_.empty(); }

  // Equal-cost egress ports at switch `sw` towards host `dst` (empty if unreachable).
  std::pair<const uint16_t*, uint32_t> Ports(int sw, int dst) const {
    if (!overrides_.empty()) {
      const auto it = overrides_.find(OverrideKey(sw, dst));
      if (it != overrides_.end()) return {ports_.data() + it->second.first, it->second.second};
    }
    int tor = host_switch_[dst];
    if (tor == sw) return {&host_port_[dst], 1};
    if (tor < 0) return {nullptr, 0};
    const size_t slot = static_cast<size_t>(group_of_switch_[tor]) * num_switches_ + sw;
    const uint32_t list = list_of_slot_[slot];
    return {ports_.data() + list_begin_[list], list_begin_[list + 1] - list_begin_[list]};
  }
  // Distinct next-hop lists stored (for memory reports and tests).
  size_t distinct_lists() const { return list_begin_.size() - 1; }
  // Bytes the table occupies (for memory reports).
  size_t bytes() const;

 private:
  int num_groups_ = 0;
  int num_switches_ = 0;
  std::vector<int32_t> host_switch_;      // per host: the switch it hangs off (-1: none)
  std::vector<uint16_t> host_port_;       // per host: its port at that switch
  std::vector<int32_t> group_of_switch_;  // per switch: index among switches with hosts, or -1
  std::vector<uint32_t> list_of_slot_;    // per (group, switch): its next-hop list
  std::vector<uint32_t> list_begin_;      // per list: start in ports_; one extra at the end
  std::vector<uint16_t> ports_;           // the lists, each once
  // Static routes: (switch, host) -> (start in ports_, count); empty without [[route]].
  static uint64_t OverrideKey(int sw, int dst) {
    return static_cast<uint64_t>(static_cast<uint32_t>(sw)) << 32 | static_cast<uint32_t>(dst);
  }
  std::unordered_map<uint64_t, std::pair<uint32_t, uint32_t>> overrides_;
};

}  // namespace dcqcn
