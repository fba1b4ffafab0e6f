// flows.csv and summary.json.
#include "run/results.h"

#include <fmt/compile.h>
#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>

#include "cc/registry.h"
#include "core/max_min.h"
#include "run/ideal_times.h"

namespace dcqcn {

nlohmann::json CcJson(const CcConfig& cc, const CcCounters& counters) {
  const CcAlgorithm* algorithm = FindCcAlgorithm(cc.algorithm);
  const bool has_profile = algorithm != nullptr && !algorithm->profiles.empty();
  nlohmann::json j = {{"algorithm", cc.algorithm}, {"profile", has_profile ? cc.profile : ""}};
  for (size_t i = 0; i < counters.size(); ++i) {
    const CcCounterSpec& c = counters.specs()[i];
    if (c.kind == CcCounterKind::kTime || c.kind == CcCounterKind::kMaxTime) {
      j[fmt::format("{}_ns", c.name)] = static_cast<double>(counters[i]) / kNanosecond;
    } else {
      j[std::string(c.name)] = counters[i];
    }
  }
  return j;
}

FlowOutcomes FlowOutcomesOf(const Network& net) {
  auto ideal = std::make_shared<std::vector<Time>>();
  ideal->reserve(net.num_flows());
  for (uint32_t id = 0; id < net.num_flows(); ++id) ideal->push_back(IdealFct(net, id));
  return FlowOutcomes(net.num_flows(), [&net, ideal](size_t i) {
    const auto id = static_cast<uint32_t>(i);
    return FlowOutcome{net.flow_spec(id).size, net.flow_start(id), net.flow_finish(id), (*ideal)[i],
                       net.flow_delivered(id)};
  });
}

std::map<uint32_t, Time> FlowsLeftInDeadlock(const RunInfo& info) {
  std::map<uint32_t, Time> stuck;
  for (const Deadlock& d : info.deadlocks) {
    if (!d.to_end) continue;  // broken (by a watchdog): its flows went on
    for (uint32_t id : d.flows) {
      if (info.outcomes[id].finish < 0) stuck.emplace(id, d.since);  // the first holds
    }
  }
  return stuck;
}

std::string_view UnfinishedName(Unfinished why) {
  constexpr std::string_view kNames[] = {"",        "waiting",  "not_started", "deadlocked",
                                         "cut_off", "ttl_loop", "run_stopped", "out_of_time"};
  return kNames[static_cast<size_t>(why)];
}

std::vector<uint8_t> UnfinishedReasons(const Network& net, const RunInfo& info) {
  const FlowOutcomes& outcomes = info.outcomes;
  std::vector<uint8_t> why;
  const std::map<uint32_t, Time> stuck = FlowsLeftInDeadlock(info);
  for (uint32_t id = 0; id < outcomes.size(); ++id) {
    const FlowOutcome o = outcomes[id];
    if (o.finish >= 0) continue;
    if (why.empty()) why.assign(outcomes.size(), 0);
    Unfinished w = Unfinished::kOutOfTime;
    if (o.start == kTimeNever) {
      w = Unfinished::kWaiting;
    } else if (o.start >= info.sim_time) {
      w = Unfinished::kNotStarted;
    } else if (stuck.contains(id)) {
      w = Unfinished::kDeadlocked;
    } else if (const Network::PathState path = net.PathStateOf(id);
               path != Network::PathState::kReaches) {
      w = path == Network::PathState::kCutOff ? Unfinished::kCutOff : Unfinished::kTtlLoop;
    } else if (info.stopped_early) {
      w = Unfinished::kRunStopped;
    }
    why[id] = static_cast<uint8_t>(w);
  }
  return why;
}

void FlowsCsvTo(const Scenario& s, const Network& net, const RunInfo& info,
                const std::function<void(std::string_view)>& sink) {
  // The contract's columns, then the bytes delivered and the average delivered rate over the
  // flow's active time (start to finish, or to the end of the run), which show the shares of
  // unfinished flows, the flow's tag, its id and when its receiver got its last byte.
  constexpr size_t kPieceBytes = 1 << 20;  // handed to `sink` in pieces of about this size
  // From an HPCC topology file, also the file's node ids: its flow and FCT files name hosts so.
  const Topology& topo = net.config().topology;
  const bool node_ids = !topo.hpcc_ids.empty();
  std::string out =
      "flow_id,src,dst,priority,size_bytes,start_ns,finish_ns,fct_ns,ideal_fct_ns,slowdown,"
      "delivered_bytes,avg_gbps,tag,id,delivered_ns";
  out += node_ids ? ",src_node,dst_node" : "";
  // After a deadlock, the flows it left unfinished say so: when it began.
  const std::map<uint32_t, Time> stuck = FlowsLeftInDeadlock(info);
  out += info.deadlocks.empty() ? "" : ",deadlocked_since_ns";
  out += info.unfinished.empty() ? "\n" : ",unfinished\n";
  const FlowOutcomes& outcomes = info.outcomes;
  for (uint32_t id = 0; id < net.num_flows(); ++id) {
    const FlowSpec& f = net.flow_spec(id);
    const FlowOutcome o = outcomes[id];
    fmt::format_to(std::back_inserter(out), FMT_COMPILE("{},{},{},{},{},"), id, f.src, f.dst,
                   f.priority, f.size);
    // A flow that waits for others and never started has no start.
    if (o.start != kTimeNever) {
      fmt::format_to(std::back_inserter(out), FMT_COMPILE("{}"), o.start / kNanosecond);
    }
    out += ',';
    if (o.finish >= 0) {
      fmt::format_to(std::back_inserter(out), FMT_COMPILE("{},{},{},{:.4f},"),
                     o.finish / kNanosecond, (o.finish - o.start) / kNanosecond,
                     o.ideal_fct / kNanosecond, Slowdown(o));
    } else {
      fmt::format_to(std::back_inserter(out), FMT_COMPILE(",,{},,"), o.ideal_fct / kNanosecond);
    }
    fmt::format_to(
        std::back_inserter(out), FMT_COMPILE("{},{:.4f},{},{},"), o.delivered,
        FlowThroughputGbps(o, info.sim_time), s.tag(f),
        id < s.flow_ids.size() ? std::string_view(s.flow_ids[id]) : std::string_view(""));
    if (net.flow_delivered_at(id) >= 0) {
      fmt::format_to(std::back_inserter(out), FMT_COMPILE("{}"),
                     net.flow_delivered_at(id) / kNanosecond);
    }
    if (node_ids) {
      fmt::format_to(std::back_inserter(out), FMT_COMPILE(",{},{}"), topo.hpcc_id(f.src),
                     topo.hpcc_id(f.dst));
    }
    if (!info.deadlocks.empty()) {
      out += ',';
      if (const auto it = stuck.find(id); it != stuck.end()) {
        fmt::format_to(std::back_inserter(out), FMT_COMPILE("{}"), it->second / kNanosecond);
      }
    }
    if (!info.unfinished.empty()) {
      out += ',';
      out += UnfinishedName(static_cast<Unfinished>(info.unfinished[id]));
    }
    out += '\n';
    if (out.size() >= kPieceBytes) {
      sink(out);
      out.clear();
    }
  }
  sink(out);
}

namespace {

// Wire bytes `l` sent x 8 / (its rate x `active_s`): summary.json's max_link_utilisation and
// links.csv's utilisation.
double Utilisation(const Link& l, double active_s) {
  return static_cast<double>(l.busy_bytes()) * 8.0 / (static_cast<double>(l.rate()) * active_s);
}

}  // namespace

// How long `port` was paused up to `end`, summed over classes (links.csv, pfc.spread).
Time PausedTime(const EgressPort& port, Time end) {
  Time t = 0;
  for (int q = 0; q < kNumPriorities; ++q) t += port.paused_time(q, end);
  return t;
}

std::string LinksCsv(const Network& net, Time active_start, Time end) {
  const Topology& topo = net.config().topology;
  const bool node_ids = !topo.hpcc_ids.empty();  // as in flows.csv
  const double active_s = static_cast<double>(end - active_start) / 1e12;
  // Congestion spreading, in a run that paused: how long each port was paused (summed over
  // classes) and how far the PAUSE it obeyed had spread (EgressPort::pause_hops; empty: never).
  const bool paused = net.stats().pfc_pause_frames > 0;
  std::string out = "node,port,peer,peer_port,rate_gbps,delay_ns,utilisation,bytes";
  out += node_ids ? ",node_id,peer_id" : "";
  out += paused ? ",paused_ns,pause_hops\n" : "\n";
  for (int node = 0; node < topo.num_nodes(); ++node) {
    for (int p = 0; p < net.num_ports(node); ++p) {
      const auto [peer, peer_port] = net.peer(node, p);
      const Link& l = net.link(node, p);
      fmt::format_to(std::back_inserter(out), "{},{},{},{},{},{},", topo.node_name(node), p,
                     topo.node_name(peer), peer_port, static_cast<double>(l.rate()) / 1e9,
                     static_cast<double>(l.delay()) / kNanosecond);
      if (active_s > 0) fmt::format_to(std::back_inserter(out), "{}", Utilisation(l, active_s));
      fmt::format_to(std::back_inserter(out), ",{}", l.busy_bytes());
      if (node_ids) {
        fmt::format_to(std::back_inserter(out), ",{},{}", topo.hpcc_id(node), topo.hpcc_id(peer));
      }
      if (paused) {
        const EgressPort& port = net.egress(node, p);
        fmt::format_to(std::back_inserter(out), ",{},",
                       static_cast<double>(PausedTime(port, end)) / kNanosecond);
        if (port.pause_hops() > 0) fmt::format_to(std::back_inserter(out), "{}", port.pause_hops());
      }
      out += '\n';
    }
  }
  return out;
}

std::vector<double> MaxMinSharesGbps(const Scenario& s, const Network& net,
                                     const FlowOutcomes& outcomes, Time end) {
  size_t active = 0;
  for (size_t i = 0; i < outcomes.size(); ++i) active += WasActive(outcomes[i], end) ? 1 : 0;
  if (active < 2 || !ActiveTogether(outcomes, end)) return {};
  // Link index of (node, port): the node's first port's plus the port.
  const Topology& topo = net.config().topology;
  const std::vector<uint32_t> first_port = net.PortIndices();
  std::vector<double> capacity;
  for (int node = 0; node < topo.num_nodes(); ++node) {
    for (int p = 0; p < net.num_ports(node); ++p) {
      capacity.push_back(static_cast<double>(net.link(node, p).rate()) / 1e9);
    }
  }
  std::vector<std::vector<uint32_t>> paths(outcomes.size());
  int64_t nvlink_first = -1;  // the NVLink ports' first capacity, once a flow needs them
  for (uint32_t id = 0; id < outcomes.size(); ++id) {
    if (!WasActive(outcomes[id], end)) continue;
    for (const auto& [node, port] : net.PortPathOf(id)) {
      paths[id].push_back(first_port[node] + static_cast<uint32_t>(port));
    }
    if (net.OverNvlink(id)) {  // its GPUs' NVLink ports: sending, then receiving, per host
      if (nvlink_first < 0) {
        nvlink_first = static_cast<int64_t>(capacity.size());
        capacity.resize(capacity.size() + 2 * static_cast<size_t>(topo.hosts),
                        static_cast<double>(net.config().nvlink.rate) / 1e9);
      }
      const FlowSpec& f = s.flows[id];
      paths[id].push_back(static_cast<uint32_t>(nvlink_first + f.src));
      paths[id].push_back(static_cast<uint32_t>(nvlink_first + topo.hosts + f.dst));
    }
    if (id < s.flow_rates.size() && s.flow_rates[id] > 0) {  // its own limit: a link of its own
      paths[id].push_back(static_cast<uint32_t>(capacity.size()));
      capacity.push_back(static_cast<double>(s.flow_rates[id]) / 1e9);
    }
  }
  return MaxMinShares(paths, capacity);
}

double PeakRssMb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

nlohmann::json Summary(const Scenario& s, const Network& net, const RunInfo& info) {
  const NetStats& st = net.stats();
  const Time end = info.sim_time;
  // Rates and utilisations count over the active interval: from the first flow's start.
  const Time active_start = std::min(net.first_start(), end);
  const double active_s = static_cast<double>(end - active_start) / 1e12;
  // Utilisation of the busiest switch egress port, and the queue statistics of the bottleneck:
  // the port with the largest time-average queue.
  nlohmann::json max_util = nullptr;
  nlohmann::json busiest = nullptr;  // which port that is
  // The bottleneck's statistics start after the warm-up; a run that ends before has none.
  const bool has_window = s.output.warmup < end - active_start;
  nlohmann::json bottleneck = nullptr;
  double bottleneck_mean = -1;
  for (const auto& sw : net.switches()) {
    for (int p = 0; p < sw->num_ports(); ++p) {
      const SwitchPort& port = sw->port(p);
      const Link& l = port.link();
      if (active_s <= 0) continue;
      const double util = Utilisation(l, active_s);
      if (max_util.is_null() || util > max_util.get<double>()) {
        max_util = util;
        const auto [peer, peer_port] = net.peer(sw->node_id(), p);
        busiest = {{"switch", s.topology.node_name(sw->node_id())},
                   {"port", p},
                   {"peer", s.topology.node_name(peer)},
                   {"utilisation", util}};
      }
      SwitchPort::QueueStats q = port.queue_stats(end);
      if (has_window && q.mean_bytes > bottleneck_mean) {
        bottleneck_mean = q.mean_bytes;
        Time span = end - port.stats_start();
        double window_util =
            span > 0 ? static_cast<double>(port.tx_bytes_since_start()) * 8.0 /
                           (static_cast<double>(l.rate()) * static_cast<double>(span) / 1e12)
                     : 0.0;
        const auto [peer, peer_port] = net.peer(sw->node_id(), p);
        bottleneck = {{"switch", s.topology.node_name(sw->node_id())},
                      {"port", p},
                      {"peer", s.topology.node_name(peer)},
                      {"from_ns", port.stats_start() / kNanosecond},
                      {"utilisation", window_util},
                      {"mean_queue_bytes", q.mean_bytes},
                      {"std_queue_bytes", q.std_bytes},
                      {"max_queue_bytes", q.max_bytes}};
      }
    }
  }
  nlohmann::json j;
  j["scenario"] = s.name;
  j["seed"] = s.seed;
  j["version"] = DCQCN_VERSION;
  j["active_start_ns"] = active_start / kNanosecond;
  j["sim_time_ns"] = end / kNanosecond;
  j["wall_time_s"] = info.wall_time_s;
  j["events"] = info.events;
  j["events_per_s"] =
      info.wall_time_s > 0 ? static_cast<double>(info.events) / info.wall_time_s : 0;
  j["packet_hops"] = st.packet_hops;
  j["packet_hops_per_s"] =
      info.wall_time_s > 0 ? static_cast<double>(st.packet_hops) / info.wall_time_s : 0;
  j["bytes_sent"] = st.payload_sent;
  j["bytes_delivered"] = st.payload_delivered;
  j["bytes_dropped"] = st.payload_dropped;
  j["nvlink_transfers"] = st.nvlink_transfers;
  j["nvlink_bytes"] = st.nvlink_bytes;
  j["drops"] = st.drops;
  j["data_packets_sent"] = st.data_packets_sent;
  j["retransmitted_packets"] = st.retransmitted_packets;
  j["timeouts"] = st.timeouts;
  j["nacks"] = st.nacks;
  j["out_of_order_packets"] = st.out_of_order_packets;
  j["duplicate_packets"] = st.duplicate_packets;
  j["pfc_pause_frames"] = st.pfc_pause_frames;
  j["pfc_resume_frames"] = st.pfc_resume_frames;
  j["ecn_marked_packets"] = st.ecn_marked_packets;
  j["cnps"] = st.cnps_sent;
  j["cnps_received"] = st.cnps_received;
  j["cc"] = CcJson(s.cc, net.cc_counters());
  j["max_queue_bytes"] = st.max_queue_bytes;
  j["max_link_utilisation"] = max_util;
  j["busiest_port"] = busiest;
  j["bottleneck"] = bottleneck;
  j["aggregate_goodput_gbps"] =
      active_s > 0 ? nlohmann::json(static_cast<double>(st.payload_delivered) * 8 / active_s / 1e9)
                   : nlohmann::json();
  j["drained"] = info.drained;

  // The flow metrics, over every flow and per tag.
  const FlowOutcomes& outcomes = info.outcomes;
  const std::vector<double> max_min = MaxMinSharesGbps(s, net, outcomes, end);
  const nlohmann::json all = FlowMetrics(outcomes, end, nullptr, &max_min);
  j["flows_total"] = all["flows"];
  j["flows_active"] = all["active"];
  j["flows_finished"] = all["finished"];
  if (!info.unfinished.empty()) {
    // Why the others did not finish (flows.csv `unfinished`), counted by reason.
    std::map<std::string_view, int64_t> by_reason;
    for (uint8_t why : info.unfinished) {
      if (why != 0) ++by_reason[UnfinishedName(static_cast<Unfinished>(why))];
    }
    j["flows_unfinished"] = by_reason;
  }
  for (const char* key :
       {"fct_slowdown", "fct_slowdown_by_size", "flow_throughput_gbps", "long_flow_throughput_gbps",
        "jain_fairness", "max_min_jain_fairness", "normalised_jain_fairness"}) {
    j[key] = all[key];
  }
  // Per tag: the indices of its flows (4 bytes a flow, not a copy of their outcomes).
  std::map<std::string, std::vector<uint32_t>> by_tag;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    if (s.flows[i].tag != 0) by_tag[s.tag(s.flows[i])].push_back(static_cast<uint32_t>(i));
  }
  j["by_tag"] = nlohmann::json::object();
  for (const auto& [tag, flows] : by_tag) {
    j["by_tag"][tag] = FlowMetrics(outcomes, end, &flows, &max_min);
  }

  const ConvergenceOptions conv_options{s.output.convergence_window,
                                        s.output.convergence_tolerance};
  const Convergence conv =
      MeasureConvergence(outcomes, end, info.sample_times, info.delivered, conv_options);
  j["convergence_time_ns"] =
      conv.time() >= 0 ? nlohmann::json(conv.time() / kNanosecond) : nlohmann::json();
  j["convergence"] = ConvergenceJson(conv, conv_options);
  j["peak_rss_mb"] = PeakRssMb();
  j["flows_in_flight_max"] = net.flows_in_flight().peak();
  return j;
}

}  // namespace dcqcn
