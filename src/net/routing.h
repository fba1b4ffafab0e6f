// Shortest-path routes with every equal-cost next hop (for ECMP), stored compactly: all hosts
// behind the same switches share their routes everywhere else, so the table is kept per
// (switch, group of hosts) rather than per (switch, destination host). A host's group is the set
// of switches it is cabled to that reach other switches: one ToR for most hosts, two for a
// dual-ToR host; a switch of hosts only (a server's NVSwitch) carries no transit, so a GPU cabled
// to its NVSwitch and its rail's leaf groups with the leaf's other hosts.
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
    if (const uint16_t* port = CabledPort(sw, dst)) return {port, 1};
    const int group = group_of_host_[dst];
    if (group < 0) return {nullptr, 0};
    const uint32_t list = list_of_slot_[static_cast<size_t>(group) * num_switches_ + sw];
    return {ports_.data() + list_begin_[list], list_begin_[list + 1] - list_begin_[list]};
  }
  // Switches from switch `sw` to the last switch before host `dst` (0: `sw` is cabled to it;
  // -1: unreachable). A host with several ports sends on those whose switch is nearest.
  int Distance(int sw, int dst) const;
  // Switch `sw`'s port cabled to host `dst`, or nullptr when none is.
  const uint16_t* CabledPort(int sw, int dst) const {
    if (host_switch_[dst] == sw) return &host_port_[dst];
    if (!extra_attachments_.empty()) [[unlikely]] {
      for (uint32_t i = extra_begin_[dst]; i < extra_begin_[dst + 1]; ++i) {
        if (extra_attachments_[i].first == sw) return &extra_attachments_[i].second;
      }
    }
    return nullptr;
  }
  // Distinct next-hop lists stored (for memory reports and tests).
  size_t distinct_lists() const { return list_begin_.size() - 1; }
  // Bytes the table occupies (for memory reports).
  size_t bytes() const;

 private:
  int num_groups_ = 0;
  int num_switches_ = 0;
  std::vector<int32_t> host_switch_;  // per host: the switch of its first cable (-1: none)
  std::vector<uint16_t> host_port_;   // per host: its port at that switch
  // Hosts with several ports: the (switch, port) of each further cable, host h's from
  // extra_begin_[h] to extra_begin_[h + 1]; both empty when every host has one port.
  std::vector<uint32_t> extra_begin_;
  std::vector<std::pair<int32_t, uint16_t>> extra_attachments_;
  std::vector<int32_t> group_of_host_;  // per host: its group, or -1 (no transit switch)
  std::vector<uint32_t> list_of_slot_;  // per (group, switch): its next-hop list
  // Per (group, switch): Distance + 1 (0: unreachable); kept only when a host has several ports.
  std::vector<uint16_t> dist_of_slot_;
  std::vector<uint32_t> list_begin_;  // per list: start in ports_; one extra at the end
  std::vector<uint16_t> ports_;       // the lists, each once
  // Static routes: (switch, host) -> (start in ports_, count); empty without [[route]].
  static uint64_t OverrideKey(int sw, int dst) {
    return static_cast<uint64_t>(static_cast<uint32_t>(sw)) << 32 | static_cast<uint32_t>(dst);
  }
  std::unordered_map<uint64_t, std::pair<uint32_t, uint32_t>> overrides_;
};

}  // namespace dcqcn
