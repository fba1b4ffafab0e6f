// Base RTT and BDP of host pairs.
#include "net/base_rtt.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

namespace dcqcn {
namespace {

// One payload's serialization on a link of `rate`, in whole ns as third.cc computes it.
Time PayloadTxTime(Bytes payload, Rate rate) {
  return static_cast<Time>(static_cast<__int128>(payload) * 8 * 1000000000 / rate) * kNanosecond;
}

BaseRtt Combine(Time delay, Time tx, Rate slowest) {
  BaseRtt b;
  b.rtt = 2 * delay + tx;
  // rtt (whole ns) x rate / 1e9 / 8, in integers.
  b.bdp = static_cast<Bytes>(static_cast<__int128>(b.rtt / kNanosecond) * slowest / 1000000000 / 8);
  return b;
}

}  // namespace

BaseRtt PathBaseRtt(const std::vector<LinkSpec>& path, Bytes payload) {
  Time delay = 0;
  Time tx = 0;
  Rate slowest = 0;
  for (const LinkSpec& l : path) {
    delay += l.delay;
    tx += PayloadTxTime(payload, l.rate);
    slowest = slowest == 0 ? l.rate : std::min(slowest, l.rate);
  }
  return Combine(delay, tx, slowest);
}

BaseRtt MaxBaseRtt(const Topology& topo, Bytes payload) {
  const int n = topo.num_nodes();
  std::vector<std::vector<int>> links_of(n);  // link indices per node, in file order
  for (size_t i = 0; i < topo.links.size(); ++i) {
    links_of[topo.links[i].a].push_back(static_cast<int>(i));
    links_of[topo.links[i].b].push_back(static_cast<int>(i));
  }
  // Hosts on the same node by links of the same rate and delay see every other host alike:
  // one search per such class.
  // (A host with several ports is in a class by all of them.)
  std::map<std::vector<std::tuple<int, Rate, Time>>, int> classes;
  for (int h = 0; h < topo.hosts; ++h) {
    if (links_of[h].empty()) continue;
    std::vector<std::tuple<int, Rate, Time>> key;
    for (const int li : links_of[h]) {
      const LinkSpec& l = topo.links[li];
      key.emplace_back(l.a == h ? l.b : l.a, l.rate, l.delay);
    }
    classes.emplace(std::move(key), h);
  }
  struct Reach {
    Time delay = 0;
    Time tx = 0;
    Rate slowest = 0;
    bool seen = false;
  };
  std::vector<Reach> reach(n);
  std::vector<int> queue;
  BaseRtt max;
  for (const auto& [key, source] : classes) {
    std::fill(reach.begin(), reach.end(), Reach{});
    queue.assign(1, source);
    reach[source].seen = true;
    for (size_t head = 0; head < queue.size(); ++head) {
      const int node = queue[head];
      // Packets do not cross hosts: a host is only ever a path's end.
      if (node != source && topo.is_host(node)) continue;
      for (int li : links_of[node]) {
        const LinkSpec& l = topo.links[li];
        const int peer = l.a == node ? l.b : l.a;
        if (reach[peer].seen) continue;
        const Reach& r = reach[node];
        reach[peer] = {r.delay + l.delay, r.tx + PayloadTxTime(payload, l.rate),
                       r.slowest == 0 ? l.rate : std::min(r.slowest, l.rate), true};
        queue.push_back(peer);
      }
    }
    for (int h = 0; h < topo.hosts; ++h) {
      if (h == source || !reach[h].seen) continue;
      const BaseRtt b = Combine(reach[h].delay, reach[h].tx, reach[h].slowest);
      max.rtt = std::max(max.rtt, b.rtt);
      max.bdp = std::max(max.bdp, b.bdp);
    }
  }
  return max;
}

}  // namespace dcqcn
