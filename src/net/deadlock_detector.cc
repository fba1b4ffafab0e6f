// The wait-for graph of paused queues, its cycles, and how long each has been stuck.
#include "net/deadlock_detector.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>

#include "net/network.h"

namespace dcqcn {

std::string DeadlockDetector::Name(const Network& net, const DeadlockQueue& q) {
  return fmt::format("{}:{}:{}", net.config().topology.node_name(q.node), q.port, q.priority);
}

std::vector<Deadlock> DeadlockDetector::Check(const Network& net,
                                              const std::vector<PausedQueue>& queues, Time now) {
  next_look_ = now + deadlock_time_;
  std::vector<Deadlock> found;
  for (Deadlock& d : Cycles(net, queues)) {
    if (now < d.at) {  // not stuck long enough (yet)
      next_look_ = std::min(next_look_, d.at);
      continue;
    }
    if (reported_.insert({d.since, d.cycle}).second) found.push_back(std::move(d));
  }
  return found;
}

void DeadlockDetector::MarkStanding(const Network& net, const std::vector<PausedQueue>& queues,
                                    std::vector<Deadlock>& found) const {
  const std::vector<Deadlock> now = Cycles(net, queues);
  for (Deadlock& d : found) {
    d.to_end = std::any_of(now.begin(), now.end(), [&](const Deadlock& c) {
      return c.since == d.since && c.cycle == d.cycle;
    });
  }
}

std::vector<Deadlock> DeadlockDetector::Cycles(const Network& net,
                                               const std::vector<PausedQueue>& queues) const {
  const int hosts = net.config().topology.hosts;
  // The vertices: switch egress queues that hold data and are paused by their peer.
  if (queues.empty()) return {};
  std::map<DeadlockQueue, int> index;
  for (size_t v = 0; v < queues.size(); ++v) index[queues[v].queue] = static_cast<int>(v);
  // Queue (s, p, q) waits for its peer's ingress buffer of that port to drain, which happens
  // only through the peer's egress queues that hold packets that came in on it.
  std::vector<std::vector<int>> waits(queues.size());
  for (size_t v = 0; v < queues.size(); ++v) {
    const auto [peer, peer_port] = net.peer(queues[v].queue.node, queues[v].queue.port);
    if (peer < hosts) continue;  // a NIC that pauses waits on no switch
    for (auto it = index.lower_bound({peer, 0, 0}); it != index.end() && it->first.node == peer;
         ++it) {
      const std::vector<uint16_t>& in = queues[it->second].in_ports;
      if (std::binary_search(in.begin(), in.end(), static_cast<uint16_t>(peer_port))) {
        waits[v].push_back(it->second);
      }
    }
  }
  // Each strongly connected component with a cycle (Tarjan), and in it the cycle a search from
  // its first queue finds.
  const int n = static_cast<int>(queues.size());
  std::vector<int> order(n, -1), low(n, 0), component(n, -1), stack;
  std::vector<char> on_stack(n, 0);
  int counter = 0, components = 0;
  std::function<void(int)> strong = [&](int v) {
    order[v] = low[v] = counter++;
    stack.push_back(v);
    on_stack[v] = 1;
    for (int w : waits[v]) {
      if (order[w] < 0) {
        strong(w);
        low[v] = std::min(low[v], low[w]);
      } else if (on_stack[w]) {
        low[v] = std::min(low[v], order[w]);
      }
    }
    if (low[v] != order[v]) return;
    for (int w = -1; w != v;) {
      w = stack.back();
      stack.pop_back();
      on_stack[w] = 0;
      component[w] = components;
    }
    ++components;
  };
  for (int v = 0; v < n; ++v) {
    if (order[v] < 0) strong(v);
  }
  std::vector<Deadlock> found;
  std::vector<char> done(components, 0);
  for (int start = 0; start < n; ++start) {
    const int c = component[start];
    if (done[c]) continue;
    done[c] = 1;
    // A path from `start` back to it inside its component (none: not a cycle).
    std::vector<int> path{start};
    std::vector<char> seen(n, 0);
    std::function<bool(int)> back = [&](int v) {
      for (int w : waits[v]) {
        if (component[w] != c) continue;
        if (w == start) return true;
        if (seen[w]) continue;
        seen[w] = 1;
        path.push_back(w);
        if (back(w)) return true;
        path.pop_back();
      }
      return false;
    };
    if (!back(start)) continue;
    Deadlock d;
    std::set<uint32_t> flows;
    for (int v : path) {
      d.cycle.push_back(queues[v].queue);
      d.since = std::max(d.since, queues[v].since);
      flows.insert(queues[v].flows.begin(), queues[v].flows.end());
    }
    d.at = d.since + deadlock_time_;
    d.flows.assign(flows.begin(), flows.end());
    found.push_back(std::move(d));
  }
  return found;
}

}  // namespace dcqcn
