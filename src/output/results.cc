// flows.csv and summary.json.
#include "output/results.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>

namespace dcqcn {

double Percentile(std::vector<double> values, double pct) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  double pos = pct / 100.0 * static_cast<double>(values.size() - 1);
  size_t lo = static_cast<size_t>(pos);
  size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (values[hi] - values[lo]) * (pos - static_cast<double>(lo));
}

double JainIndex(const std::vector<double>& values) {
  if (values.empty()) return 1;
  double sum = 0, sum_sq = 0;
  for (double v : values) {
    sum += v;
    sum_sq += v * v;
  }
  return sum_sq > 0 ? sum * sum / (static_cast<double>(values.size()) * sum_sq) : 1;
}

std::string FlowsCsv(const Network& net, Time end) {
  // The contract's columns, then the bytes delivered and the average delivered rate from the
  // start to the finish (or to the end of the run), which show shares of unfinished flows.
  std::string out =
      "flow_id,src,dst,priority,size_bytes,start_ns,finish_ns,fct_ns,ideal_fct_ns,slowdown,"
      "delivered_bytes,avg_gbps\n";
  for (const Flow& f : net.flows()) {
    Time ideal = net.IdealFct(f);
    fmt::format_to(std::back_inserter(out), "{},{},{},{},{},{},", f.id, f.src, f.dst,
                   static_cast<int>(f.priority), f.size, f.start / kNanosecond);
    if (f.finish >= 0) {
      Time fct = f.finish - f.start;
      double slowdown = std::max(1.0, static_cast<double>(fct) / static_cast<double>(ideal));
      fmt::format_to(std::back_inserter(out), "{},{},{},{:.4f},", f.finish / kNanosecond,
                     fct / kNanosecond, ideal / kNanosecond, slowdown);
    } else {
      fmt::format_to(std::back_inserter(out), ",,{},,", ideal / kNanosecond);
    }
    Time stop = f.finish >= 0 ? f.finish : end;
    double gbps = stop > f.start ? static_cast<double>(f.bytes_delivered) * 8.0 * 1e3 /
                                       static_cast<double>(stop - f.start)
                                 : 0.0;
    fmt::format_to(std::back_inserter(out), "{},{:.4f}\n", f.bytes_delivered, gbps);
  }
  return out;
}

double PeakRssMb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

namespace {

// FCT slowdown per flow-size bucket, the breakdown of the HPCC paper's figures, and the
// throughput of long flows (>= 1 MB), whose FCT is dominated by their share of bandwidth.
void AddFctBySize(const Network& net, nlohmann::json& j) {
  struct Bucket {
    const char* label;
    Bytes min;  // inclusive
    Bytes max;  // exclusive; 0 = no bound
    std::vector<double> slowdowns;
  };
  std::array<Bucket, 4> buckets = {
      Bucket{"<10KB", 0, 10000, {}}, Bucket{"10KB-100KB", 10000, 100000, {}},
      Bucket{"100KB-1MB", 100000, 1000000, {}}, Bucket{">=1MB", 1000000, 0, {}}};
  std::vector<double> long_gbps;
  for (const Flow& f : net.flows()) {
    if (f.finish < 0) continue;
    const Time fct = f.finish - f.start;
    const double slowdown =
        std::max(1.0, static_cast<double>(fct) / static_cast<double>(net.IdealFct(f)));
    for (Bucket& b : buckets) {
      if (f.size >= b.min && (b.max == 0 || f.size < b.max)) b.slowdowns.push_back(slowdown);
    }
    if (f.size >= 1000000) {
      long_gbps.push_back(static_cast<double>(f.size) * 8.0 / static_cast<double>(fct) * 1e3);
    }
  }
  auto stat = [](const std::vector<double>& v, double pct) {
    return v.empty() ? nlohmann::json(nullptr) : nlohmann::json(Percentile(v, pct));
  };
  nlohmann::json by_size = nlohmann::json::object();
  for (const Bucket& b : buckets) {
    by_size[b.label] = {
        {"min_bytes", b.min},
        {"max_bytes", b.max > 0 ? nlohmann::json(b.max) : nlohmann::json(nullptr)},
        {"count", b.slowdowns.size()},
        {"p50", stat(b.slowdowns, 50)},
        {"p95", stat(b.slowdowns, 95)},
        {"p99", stat(b.slowdowns, 99)},
        {"max", b.slowdowns.empty()
                    ? nlohmann::json(nullptr)
                    : nlohmann::json(*std::max_element(b.slowdowns.begin(), b.slowdowns.end()))}};
  }
  j["fct_slowdown_by_size"] = by_size;
  double sum = 0;
  for (double g : long_gbps) sum += g;
  j["long_flow_throughput_gbps"] = {
      {"min_bytes", 1000000},
      {"count", long_gbps.size()},
      {"mean", long_gbps.empty() ? nlohmann::json(nullptr)
                                 : nlohmann::json(sum / static_cast<double>(long_gbps.size()))},
      {"p50", stat(long_gbps, 50)}};
}

}  // namespace

nlohmann::json Summary(const Network& net, const RunInfo& info) {
  const NetStats& st = net.stats();
  const Scenario& s = net.scenario();
  std::vector<double> slowdowns;
  std::vector<double> throughputs;  // finished flows: size / fct, Gb/s
  int finished = 0;
  for (const Flow& f : net.flows()) {
    if (f.finish < 0) continue;
    ++finished;
    Time fct = f.finish - f.start;
    slowdowns.push_back(
        std::max(1.0, static_cast<double>(fct) / static_cast<double>(net.IdealFct(f))));
    throughputs.push_back(static_cast<double>(f.size) * 8.0 / static_cast<double>(fct) * 1e3);
  }
  // Utilisation of the busiest switch egress port over the run, and the queue statistics of
  // the bottleneck: the port with the largest time-average queue.
  double max_util = 0;
  nlohmann::json bottleneck;
  double bottleneck_mean = -1;
  for (const auto& sw : net.switches()) {
    for (int p = 0; p < sw->num_ports(); ++p) {
      const Link& l = sw->port(p).link();
      if (info.sim_time <= 0) continue;
      double capacity = static_cast<double>(l.rate()) * static_cast<double>(info.sim_time) / 1e12;
      double util = static_cast<double>(l.busy_bytes()) * 8.0 / capacity;
      max_util = std::max(max_util, util);
      const SwitchPort& port = sw->port(p);
      SwitchPort::QueueStats q = port.queue_stats(info.sim_time);
      if (q.mean_bytes > bottleneck_mean) {
        bottleneck_mean = q.mean_bytes;
        Time span = info.sim_time - port.stats_start();
        double window_util =
            span > 0 ? static_cast<double>(port.tx_bytes_since_start()) * 8.0 /
                           (static_cast<double>(l.rate()) * static_cast<double>(span) / 1e12)
                     : 0.0;
        bottleneck = {{"switch", fmt::format("s{}", sw->node_id() - s.topology.hosts)},
                      {"port", p},
                      {"from_ns", port.stats_start() / kNanosecond},
                      {"utilisation", window_util},
                      {"mean_queue_bytes", q.mean_bytes},
                      {"std_queue_bytes", q.std_bytes},
                      {"max_queue_bytes", q.max_bytes}};
      }
    }
  }
  double sim_s = static_cast<double>(info.sim_time) / 1e12;
  nlohmann::json j;
  j["scenario"] = s.name;
  j["seed"] = s.seed;
  j["version"] = DCQCN_VERSION;
  j["sim_time_ns"] = info.sim_time / kNanosecond;
  j["wall_time_s"] = info.wall_time_s;
  j["events"] = info.events;
  j["events_per_s"] =
      info.wall_time_s > 0 ? static_cast<double>(info.events) / info.wall_time_s : 0;
  j["packet_hops"] = st.packet_hops;
  j["packet_hops_per_s"] =
      info.wall_time_s > 0 ? static_cast<double>(st.packet_hops) / info.wall_time_s : 0;
  j["flows_total"] = net.flows().size();
  j["flows_finished"] = finished;
  j["bytes_sent"] = st.payload_sent;
  j["bytes_delivered"] = st.payload_delivered;
  j["bytes_dropped"] = st.payload_dropped;
  j["drops"] = st.drops;
  j["data_packets_sent"] = st.data_packets_sent;
  j["retransmitted_packets"] = st.retransmitted_packets;
  j["timeouts"] = st.timeouts;
  j["nacks"] = st.nacks;
  j["pfc_pause_frames"] = st.pfc_pause_frames;
  j["pfc_resume_frames"] = st.pfc_resume_frames;
  j["ecn_marked_packets"] = st.ecn_marked_packets;
  j["cnps"] = st.cnps_sent;
  j["cnps_received"] = st.cnps_received;
  CcCounters cc = net.cc_counters();
  j["cc"] = {{"algorithm", s.cc.algorithm},
             {"profile", s.cc.algorithm == "none" ? "" : s.cc.profile},
             {"rate_cuts", cc.rate_cuts},
             {"fast_recovery_events", cc.fast_recovery},
             {"additive_increase_events", cc.additive_increase},
             {"hyper_increase_events", cc.hyper_increase},
             {"timer_events", cc.timer_events},
             {"byte_counter_events", cc.byte_counter_events},
             {"flows_that_saw_cnps", cc.flows_with_state}};
  j["max_queue_bytes"] = st.max_queue_bytes;
  j["max_link_utilisation"] = max_util;
  j["bottleneck"] = bottleneck;
  j["aggregate_goodput_gbps"] =
      sim_s > 0 ? static_cast<double>(st.payload_delivered) * 8 / sim_s / 1e9 : 0;
  j["drained"] = info.drained;
  j["fct_slowdown"] = {
      {"p50", Percentile(slowdowns, 50)},
      {"p95", Percentile(slowdowns, 95)},
      {"p99", Percentile(slowdowns, 99)},
      {"max", slowdowns.empty() ? 0.0 : *std::max_element(slowdowns.begin(), slowdowns.end())}};
  j["flow_throughput_gbps"] = {
      {"min",
       throughputs.empty() ? 0.0 : *std::min_element(throughputs.begin(), throughputs.end())},
      {"max",
       throughputs.empty() ? 0.0 : *std::max_element(throughputs.begin(), throughputs.end())},
      {"mean", throughputs.empty() ? 0.0 : [&] {
         double sum = 0;
         for (double t : throughputs) sum += t;
         return sum / static_cast<double>(throughputs.size());
       }()}};
  j["jain_fairness"] = JainIndex(throughputs);
  j["fct_slowdown"]["count"] = slowdowns.size();
  AddFctBySize(net, j);
  j["peak_rss_mb"] = PeakRssMb();
  return j;
}

}  // namespace dcqcn
