// Time-series sampling and CSV output.
#include "output/timeseries.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/byte_message.h"
#include "output/atomic_file.h"

namespace dcqcn {

TimeSeriesSampler::TimeSeriesSampler(Engine* engine, const OutputConfig& config)
    : engine_(engine), net_(&engine->net()), config_(config) {
  net_->sim().EnrollObserver(*this);
  if (!config_.ts_queue && !config_.ts_throughput && !config_.ts_rate) return;
  // A flow is sampled once more after it finished (its last delivered bytes).
  if (samples_flows()) net_->HoldFinishedFlows(config_.interval);
  auto& switches = net_->switches();
  for (size_t sw = 0; sw < switches.size(); ++sw) {
    for (int p = 0; p < switches[sw]->num_ports(); ++p) {
      ports_.push_back({static_cast<int>(sw), p, {}, {}, 0});
    }
  }
  // Keyed by the sampler, not by the setup that schedules it: at the first start's instant it
  // samples after the flows started, as an observer.
  net_->sim().ScheduleKeyed(net_->first_start(), this, 0, 0, *this, 0);
}

void TimeSeriesSampler::HandleEvent(uint32_t, uint64_t) {
  Sample();
  if (!engine_->all_done()) net_->sim().ScheduleIn(config_.interval, this, 0, 0);
}

void TimeSeriesSampler::Sample() {
  Time now = net_->sim().Now();
  uint32_t index = static_cast<uint32_t>(times_.size());
  times_.push_back(now);
  if (config_.ts_queue) {
    for (PortSeries& s : ports_) {
      SwitchPort& port = net_->switches()[s.sw]->port(s.port);
      s.queue.push_back(port.queued_bytes());
      s.tx_bytes.push_back(port.link().busy_bytes());
      s.max_queue = std::max(s.max_queue, port.queued_bytes());
    }
  }
  if (config_.ts_throughput || config_.ts_rate) {
    // The flows in flight, less those finished over an interval ago. A retired flow finished
    // over an interval ago (HoldFinishedFlows).
    // Over ranks, the receiver's rank notes the bytes delivered and the sender's the rest.
    const bool split = engine_->ranks() > 1;
    const FlowTable& flows = net_->flows_in_flight();
    for (uint32_t id = 0; id < flows.size(); ++id) {
      const Flow* f = flows.find(id);
      if (f == nullptr) continue;
      if (split && engine_->RunsNode(f->dst)) received_.push_back({id, index, f->bytes_delivered});
      if (split && !engine_->RunsNode(f->src)) continue;
      if (f->sender_done && f->finish < now - config_.interval) continue;
      auto rate = net_->hosts()[f->src]->cc().Sample(*f);
      flow_samples_.push_back({id, index, f->bytes_delivered, rate.rc, rate.rt, rate.alpha});
    }
  }
}

void TimeSeriesSampler::Collect() {
  if (engine_->ranks() == 1) return;
  std::string mine;
  for (uint32_t i = 0; i < ports_.size(); ++i) {
    const PortSeries& s = ports_[i];
    if (!config_.ts_queue || !engine_->RunsNode(net_->switches()[s.sw]->node_id())) continue;
    PutBytes(mine, i);
    PutVector(mine, s.queue);
    PutVector(mine, s.tx_bytes);
    PutBytes(mine, s.max_queue);
  }
  PutBytes(mine, UINT32_MAX);  // the ports end
  PutVector(mine, flow_samples_);
  PutVector(mine, received_);
  const std::vector<std::string> all = engine_->GatherAtRankZero(std::move(mine));
  if (all.empty()) return;  // not rank 0
  flow_samples_.clear();
  std::unordered_map<uint64_t, Bytes> delivered;  // by (flow, sample)
  auto key = [](uint32_t flow, uint32_t sample) { return uint64_t{flow} << 32 | sample; };
  for (const std::string& message : all) {
    ByteReader r(message);
    for (auto i = r.Get<uint32_t>(); i != UINT32_MAX; i = r.Get<uint32_t>()) {
      PortSeries& s = ports_.at(i);
      s.queue = r.GetVector<Bytes>();
      s.tx_bytes = r.GetVector<Bytes>();
      s.max_queue = r.Get<Bytes>();
    }
    const std::vector<FlowSample> sent = r.GetVector<FlowSample>();
    flow_samples_.insert(flow_samples_.end(), sent.begin(), sent.end());
    for (const Received& got : r.GetVector<Received>()) {
      delivered[key(got.flow, got.sample)] = got.delivered;
    }
  }
  // In the order one process samples them: by sample, then flow.
  std::sort(flow_samples_.begin(), flow_samples_.end(),
            [](const FlowSample& a, const FlowSample& b) {
              return a.sample < b.sample || (a.sample == b.sample && a.flow < b.flow);
            });
  // A flow none of whose packets had reached its receiver's rank had delivered nothing.
  for (FlowSample& s : flow_samples_) {
    const auto it = delivered.find(key(s.flow, s.sample));
    s.delivered = it != delivered.end() ? it->second : 0;
  }
  received_.clear();
}

DeliveredSamples TimeSeriesSampler::DeliveredByFlow() const {
  DeliveredSamples delivered(samples_flows() ? net_->num_flows() : 0);
  if (!samples_flows()) return delivered;
  for (const FlowSample& s : flow_samples_) delivered[s.flow].push_back({s.sample, s.delivered});
  return delivered;
}

void TimeSeriesSampler::Write(const std::string& dir) const {
  const int hosts = net_->config().topology.hosts;
  if (config_.ts_queue) {
    // Only ports that ever held data: a fabric has many idle ports.
    std::string out = "time_ns,switch,port,queue_bytes,tx_gbps\n";
    for (const PortSeries& s : ports_) {
      if (s.max_queue == 0) continue;
      const SwitchNode& sw = *net_->switches()[s.sw];
      double rate = static_cast<double>(sw.port(s.port).link().rate());
      for (size_t i = 0; i < s.queue.size(); ++i) {
        double gbps = 0;
        if (i > 0 && times_[i] > times_[i - 1]) {
          gbps = static_cast<double>(s.tx_bytes[i] - s.tx_bytes[i - 1]) * 8.0 * 1e3 /
                 static_cast<double>(times_[i] - times_[i - 1]);
          gbps = std::min(gbps, rate / 1e9);
        }
        fmt::format_to(std::back_inserter(out), FMT_COMPILE("{},s{},{},{},{:.3f}\n"),
                       times_[i] / kNanosecond, sw.node_id() - hosts, s.port, s.queue[i], gbps);
      }
    }
    WriteFileAtomic(dir + "/timeseries/queue.csv", out);
  }
  if (config_.ts_throughput) {
    std::string out = "time_ns,flow_id,gbps\n";
    std::vector<std::pair<uint32_t, Bytes>> last(net_->num_flows(), {UINT32_MAX, 0});
    for (const FlowSample& s : flow_samples_) {
      auto& [prev_index, prev_bytes] = last[s.flow];
      if (prev_index != UINT32_MAX) {
        Time dt = times_[s.sample] - times_[prev_index];
        double gbps = dt > 0 ? static_cast<double>(s.delivered - prev_bytes) * 8.0 * 1e3 /
                                   static_cast<double>(dt)
                             : 0.0;
        fmt::format_to(std::back_inserter(out), FMT_COMPILE("{},{},{:.3f}\n"),
                       times_[s.sample] / kNanosecond, s.flow, gbps);
      }
      prev_index = s.sample;
      prev_bytes = s.delivered;
    }
    WriteFileAtomic(dir + "/timeseries/throughput.csv", out);
  }
  if (config_.ts_rate) {
    std::string out = "time_ns,flow_id,rc_gbps,rt_gbps,alpha\n";
    for (const FlowSample& s : flow_samples_) {
      fmt::format_to(std::back_inserter(out), FMT_COMPILE("{},{},{:.4f},{:.4f},{:.6f}\n"),
                     times_[s.sample] / kNanosecond, s.flow, static_cast<double>(s.rc) / 1e9,
                     static_cast<double>(s.rt) / 1e9, s.alpha);
    }
    WriteFileAtomic(dir + "/timeseries/rate.csv", out);
  }
  if (config_.ts_pfc) {
    std::string out = "time_ns,node,port,priority,paused\n";
    const Topology& topo = net_->config().topology;
    for (const PfcEvent& e : net_->stats().pfc_log) {
      fmt::format_to(std::back_inserter(out), FMT_COMPILE("{:.3f},{},{},{},{}\n"),
                     static_cast<double>(e.time) / kNanosecond, topo.node_name(e.node), e.port,
                     e.priority, e.pause ? 1 : 0);
    }
    WriteFileAtomic(dir + "/timeseries/pfc.csv", out);
  }
}

}  // namespace dcqcn
