// Collective iterations measured from their flows' starts and deliveries.
#include "run/collective_metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "run/ideal_times.h"
#include "topology/topology_type.h"

namespace dcqcn {
namespace {

// The ideal of one iteration: flows [begin, end) of collective flows, prerequisites before them
// in id order (ExpandCollective's order). A lower bound on its time, the larger of two:
// - the longest chain of dependencies, each flow alone on an idle network (IdealDelivery
//   without ACKs sharing its links: whether they do depends on what else runs);
// - the busiest host link or NVLink side: the frames that must cross it, each for its
//   serialization time (whole_ns as the links truncate it), then the smallest propagation delay
//   after its last one. The ACKs counted are those that come before their flow's last byte is
//   delivered (all but one per flow): the last ones may come after the iteration ends.
Time IdealIteration(const Scenario& s, const Network& net, uint32_t begin, uint32_t end) {
  const size_t n = end - begin;
  std::vector<Time> delivered(n), acked(n);
  Time chain = 0;
  Time smallest_delay = kTimeNever;
  // Busy time of each port (its node's first index plus its own), then of each GPU's NVLink
  // side (sending, then receiving, by host).
  const std::vector<uint32_t> first_port = net.PortIndices();
  const size_t hosts = static_cast<size_t>(net.config().topology.hosts);
  const size_t nvlink_sending = first_port.back();
  const size_t nvlink_receiving = nvlink_sending + hosts;
  std::vector<Time> busy(nvlink_receiving + hosts, 0);
  const WireFormat& w = net.config().wire;
  const Bytes mtu = net.config().host.mtu;
  const int ack_interval = net.config().host.ack_interval;
  for (uint32_t id = begin; id < end; ++id) {
    const FlowSpec& f = s.flows[id];
    Time start = 0;
    for (const uint32_t p : s.flow_after.of(id)) {
      if (p < begin || p >= end) continue;  // the previous iteration's: this one starts at 0
      start = std::max(start, s.flows[p].dst == f.src ? delivered[p - begin] : acked[p - begin]);
    }
    // Its ports each way, walked once for all that follows (a collective has millions).
    const std::array<std::vector<std::pair<int, int>>, 2> paths = {net.PortPathOf(id, 0),
                                                                   net.PortPathOf(id, 1)};
    delivered[id - begin] = start + IdealDelivery(net, id, false, paths[0]);
    Time flight = 0;  // AckFlightTime's, over the path already walked
    for (const auto& [node, port] : paths[1]) flight += net.AckHopTime(net.link(node, port));
    acked[id - begin] = delivered[id - begin] + flight;
    chain = std::max(chain, delivered[id - begin]);
    if (net.OverNvlink(id)) {
      const Time t = SerializationTime(f.size, net.config().nvlink.rate);
      busy[nvlink_sending + static_cast<size_t>(f.src)] += t;
      busy[nvlink_receiving + static_cast<size_t>(f.dst)] += t;
      smallest_delay = std::min(smallest_delay, net.config().nvlink.delay);
      continue;
    }
    const Bytes packets = (f.size + mtu - 1) / mtu;
    const Bytes full = f.size / mtu;
    const Bytes acks = (packets + ack_interval - 1) / ack_interval - 1;
    // The hosts' own links only (the first and last hop each way): the fabric between them
    // counts as non-blocking, so that the slowdown shows what oversubscription and ECMP
    // collisions cost.
    for (int dir = 0; dir < 2; ++dir) {
      const std::vector<std::pair<int, int>>& path = paths[dir];
      for (const std::pair<int, int>& hop : {path.front(), path.back()}) {
        const Link& l = net.link(hop.first, hop.second);
        smallest_delay = std::min(smallest_delay, l.delay());
        Time t = 0;
        if (dir == 0) {
          t = full * w.TxTime(w.DataFrame(mtu), l.rate());
          if (f.size % mtu > 0) t += w.TxTime(w.DataFrame(f.size % mtu), l.rate());
        } else {
          t = acks * w.TxTime(w.ack_frame, l.rate());
        }
        busy[first_port[hop.first] + static_cast<size_t>(hop.second)] += t;
        if (path.size() == 1) break;  // one link: counted once
      }
    }
  }
  const Time busiest = busy.empty() ? 0 : *std::max_element(busy.begin(), busy.end());
  const Time load = n > 0 ? busiest + smallest_delay : 0;
  return std::max(chain, load);
}

double Gbps(Bytes bytes, double t) {  // t in ps
  return t > 0 ? 8.0 * static_cast<double>(bytes) / (t / 1e3) : 0;
}

std::string CollectiveTag(const Scenario& s, size_t i) {
  return s.collectives[i].tag.empty() ? fmt::format("collective{}", i) : s.collectives[i].tag;
}

}  // namespace

std::vector<CollectiveOutcome> CollectiveOutcomes(const Scenario& s, const Network& net) {
  std::vector<CollectiveOutcome> out;
  for (const CollectiveFlows& cf : s.collective_flows) {
    CollectiveOutcome o;
    const int iterations = static_cast<int>(cf.iteration_begin.size()) - 1;
    if (iterations > 0) o.ideal = IdealIteration(s, net, cf.begin(0), cf.end(0));
    for (int i = 0; i < iterations; ++i) {
      CollectiveIteration it;
      Time end = 0;
      bool all = true;
      for (uint32_t id = cf.begin(i); id < cf.end(i); ++id) {
        it.start = std::min(it.start, net.flow_start(id));
        const Time d = net.flow_delivered_at(id);
        if (d < 0) all = false;
        end = std::max(end, d);
      }
      if (all) it.end = end;
      o.iterations.push_back(it);
      if (it.finished() && (o.slowest < 0 || it.time() > o.iterations[o.slowest].time())) {
        o.slowest = i;
      }
    }
    if (o.slowest >= 0) {
      // The latest kLateFlows, kept as they come in a heap whose top is the least late of them
      // (an iteration has millions of flows; their paths are asked for only these).
      const auto later = [](const LateFlow& a, const LateFlow& b) {
        return a.slowdown != b.slowdown ? a.slowdown > b.slowdown : a.id < b.id;
      };
      for (uint32_t id = cf.begin(o.slowest); id < cf.end(o.slowest); ++id) {
        const Time ideal = IdealDelivery(net, id, true);
        const Time took = net.flow_delivered_at(id) - net.flow_start(id);
        const LateFlow f{id, ideal > 0 ? static_cast<double>(took) / ideal : 0, {}};
        if (o.late.size() == CollectiveOutcome::kLateFlows) {
          if (!later(f, o.late.front())) continue;
          std::pop_heap(o.late.begin(), o.late.end(), later);
          o.late.back() = f;
        } else {
          o.late.push_back(f);
        }
        std::push_heap(o.late.begin(), o.late.end(), later);
      }
      std::sort_heap(o.late.begin(), o.late.end(), later);
      for (LateFlow& f : o.late) {
        for (const auto& [node, port] : net.PortPathOf(f.id)) {
          f.path.push_back(fmt::format("{}:{}", net.config().topology.node_name(node), port));
        }
      }
    }
    out.push_back(std::move(o));
  }
  return out;
}

nlohmann::json CollectivesJson(const Scenario& s, const std::vector<CollectiveOutcome>& outcomes) {
  nlohmann::json all = nlohmann::json::array();
  const CollectiveHosts where{s.topology.hosts, GpusPerServer(s.topology)};
  for (size_t c = 0; c < outcomes.size(); ++c) {
    const CollectiveConfig& cfg = s.collectives[c];
    const std::vector<int> ranks = RankHosts(cfg, where);
    const double factor = BusFactor(cfg.op, static_cast<int>(ranks.size()));
    const CollectiveOutcome& o = outcomes[c];
    nlohmann::json j;
    j["tag"] = CollectiveTag(s, c);
    j["op"] = std::string(Name(cfg.op));
    j["algorithm"] = cfg.algorithm;
    j["ranks"] = ranks;
    j["size_bytes"] = cfg.size;
    j["channels"] = cfg.channels;
    j["ideal_time_ns"] = static_cast<double>(o.ideal) / 1e3;
    nlohmann::json its = nlohmann::json::array();
    double sum_time = 0, sum_slowdown = 0;
    int finished = 0;
    for (const CollectiveIteration& it : o.iterations) {
      nlohmann::json i;
      i["start_ns"] = it.start == kTimeNever ? nlohmann::json(nullptr)
                                             : nlohmann::json(static_cast<double>(it.start) / 1e3);
      if (it.finished()) {
        const double slowdown = o.ideal > 0 ? static_cast<double>(it.time()) / o.ideal : 0;
        i["time_ns"] = static_cast<double>(it.time()) / 1e3;
        i["algbw_gbps"] = Gbps(cfg.size, it.time());
        i["busbw_gbps"] = Gbps(cfg.size, it.time()) * factor;
        i["slowdown"] = slowdown;
        sum_time += static_cast<double>(it.time());
        sum_slowdown += slowdown;
        ++finished;
      } else {
        i["time_ns"] = i["algbw_gbps"] = i["busbw_gbps"] = i["slowdown"] = nullptr;
      }
      i["ideal_time_ns"] = static_cast<double>(o.ideal) / 1e3;
      const CollectiveFlows& cf = s.collective_flows[c];
      const int k = static_cast<int>(its.size());
      i["flows"] = {cf.begin(k), cf.end(k)};
      its.push_back(std::move(i));
    }
    j["iterations"] = std::move(its);
    j["finished_iterations"] = finished;
    nlohmann::json mean = nullptr;
    if (finished > 0) {
      const double t = sum_time / finished;
      mean = {{"time_ns", t / 1e3},
              {"algbw_gbps", Gbps(cfg.size, t)},
              {"busbw_gbps", Gbps(cfg.size, t) * factor},
              {"slowdown", sum_slowdown / finished}};
    }
    j["mean"] = std::move(mean);
    nlohmann::json slowest = nullptr;
    if (o.slowest >= 0) {
      nlohmann::json late = nlohmann::json::array();
      for (const LateFlow& f : o.late) {
        late.push_back({{"flow_id", f.id},
                        {"src", s.flows[f.id].src},
                        {"dst", s.flows[f.id].dst},
                        {"slowdown", f.slowdown},
                        {"path", f.path}});
      }
      slowest = {{"iteration", o.slowest}, {"late_flows", std::move(late)}};
    }
    j["slowest_iteration"] = std::move(slowest);
    all.push_back(std::move(j));
  }
  return all;
}

std::string CollectivesCsv(const Scenario& s, const std::vector<CollectiveOutcome>& outcomes) {
  std::string out =
      "collective,tag,op,algorithm,ranks,size_bytes,iteration,start_ns,time_ns,algbw_gbps,"
      "busbw_gbps,ideal_time_ns,slowdown\n";
  const CollectiveHosts where{s.topology.hosts, GpusPerServer(s.topology)};
  for (size_t c = 0; c < outcomes.size(); ++c) {
    const CollectiveConfig& cfg = s.collectives[c];
    const int n = static_cast<int>(RankHosts(cfg, where).size());
    const CollectiveOutcome& o = outcomes[c];
    for (size_t i = 0; i < o.iterations.size(); ++i) {
      const CollectiveIteration& it = o.iterations[i];
      out += fmt::format("{},{},{},{},{},{},{},", c, CollectiveTag(s, c), Name(cfg.op),
                         cfg.algorithm, n, cfg.size, i);
      out +=
          it.start == kTimeNever ? "" : fmt::format("{:.3f}", static_cast<double>(it.start) / 1e3);
      if (it.finished()) {
        const double algbw = Gbps(cfg.size, it.time());
        out += fmt::format(",{:.3f},{:.6g},{:.6g},{:.3f},{:.6g}\n",
                           static_cast<double>(it.time()) / 1e3, algbw,
                           algbw * BusFactor(cfg.op, n), static_cast<double>(o.ideal) / 1e3,
                           o.ideal > 0 ? static_cast<double>(it.time()) / o.ideal : 0.0);
      } else {
        out += fmt::format(",,,,{:.3f},\n", static_cast<double>(o.ideal) / 1e3);
      }
    }
  }
  return out;
}

}  // namespace dcqcn
