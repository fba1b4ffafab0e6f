// The standard sinks: each wraps one writer of src/output or run/results.
#include "run/sinks.h"

#include <algorithm>
#include <map>

#include "net/network_event.h"
#include "output/atomic_file.h"
#include "output/pcap_capture.h"
#include "output/timeseries.h"
#include "run/collective_metrics.h"
#include "run/job_metrics.h"
#include "scenario/resolved_toml.h"

namespace dcqcn {
namespace {

// resolved.toml, written piece by piece: with millions of flows it is too large for one string.
class ResolvedTomlSink : public OutputSink {
 public:
  explicit ResolvedTomlSink(const Scenario& s) : s_(s) {}
  void Write(const Network&, const RunInfo&, const nlohmann::json&,
             const std::string& dir) override {
    AtomicFileWriter file(dir + "/resolved.toml");
    ResolvedTomlTo(s_, [&](std::string_view piece) { file.Write(piece); });
    file.Commit();
  }

 private:
  const Scenario& s_;
};

class FlowsCsvSink : public OutputSink {
 public:
  explicit FlowsCsvSink(const Scenario& s) : s_(s) {}
  void Write(const Network& net, const RunInfo& info, const nlohmann::json&,
             const std::string& dir) override {
    AtomicFileWriter file(dir + "/flows.csv");
    FlowsCsvTo(s_, net, info, [&](std::string_view piece) { file.Write(piece); });
    file.Commit();
  }

 private:
  const Scenario& s_;
};

class LinksCsvSink : public OutputSink {
 public:
  void Write(const Network& net, const RunInfo& info, const nlohmann::json&,
             const std::string& dir) override {
    WriteFileAtomic(dir + "/links.csv",
                    LinksCsv(net, std::min(net.first_start(), info.sim_time), info.sim_time));
  }
};

// capture.pcap, written as the run goes; only with a folder to write it into.
class PcapSink : public OutputSink {
 public:
  explicit PcapSink(const PcapConfig& config) : config_(config) {}
  void Start(Engine& engine, const std::string& dir) override {
    // Over ranks every rank taps the points (what they see is shown to rank 0's, which
    // writes); only rank 0 has the folder.
    if (config_.enabled() && (!dir.empty() || engine.ranks() > 1)) {
      capture_ =
          std::make_unique<PcapCapture>(config_, &engine, dir.empty() ? "" : dir + "/capture.pcap");
    }
  }
  void Summarize(nlohmann::json& summary) override {
    if (!capture_) return;
    capture_->Close();
    summary["capture"] = {{"file", "capture.pcap"},
                          {"packets", capture_->packets()},
                          {"stopped_at_max_packets", capture_->full()}};
  }

 private:
  const PcapConfig& config_;
  std::unique_ptr<PcapCapture> capture_;
};

// timeseries/*.csv; its per-flow samples also give summary.json's convergence time.
class TimeSeriesSink : public OutputSink {
 public:
  explicit TimeSeriesSink(const OutputConfig& config) : config_(config) {}
  void Start(Engine& engine, const std::string&) override {
    sampler_ = std::make_unique<TimeSeriesSampler>(&engine, config_);
  }
  void Collect() override { sampler_->Collect(); }
  void Finish(RunInfo& info) override {
    info.sample_times = sampler_->times();
    info.delivered = sampler_->DeliveredByFlow();
  }
  void Write(const Network&, const RunInfo&, const nlohmann::json&,
             const std::string& dir) override {
    sampler_->Write(dir);
  }

 private:
  const OutputConfig& config_;
  std::unique_ptr<TimeSeriesSampler> sampler_;
};

// summary.json's "collectives" and collectives.csv, for scenarios with [[collective]] tables.
class CollectivesSink : public OutputSink {
 public:
  explicit CollectivesSink(const Scenario& s) : s_(s) {}
  void Start(Engine& engine, const std::string&) override { net_ = &engine.net(); }
  void Summarize(nlohmann::json& summary) override {
    outcomes_ = CollectiveOutcomes(s_, *net_);
    summary["collectives"] = CollectivesJson(s_, outcomes_);
  }
  void Write(const Network&, const RunInfo&, const nlohmann::json&,
             const std::string& dir) override {
    WriteFileAtomic(dir + "/collectives.csv", CollectivesCsv(s_, outcomes_));
  }

 private:
  const Scenario& s_;
  const Network* net_ = nullptr;
  std::vector<CollectiveOutcome> outcomes_;
};

// summary.json's "jobs", jobs.csv and job_collectives.csv, for scenarios with [[job]] tables.
class JobsSink : public OutputSink {
 public:
  explicit JobsSink(const Scenario& s) : s_(s) {}
  void Start(Engine& engine, const std::string&) override { net_ = &engine.net(); }
  void Summarize(nlohmann::json& summary) override {
    outcomes_ = JobOutcomes(s_, *net_);
    summary["jobs"] = JobsJson(s_, outcomes_);
  }
  void Write(const Network&, const RunInfo&, const nlohmann::json&,
             const std::string& dir) override {
    WriteFileAtomic(dir + "/jobs.csv", JobsCsv(s_, outcomes_));
    WriteFileAtomic(dir + "/job_collectives.csv", JobCollectivesCsv(s_, outcomes_));
    WriteFileAtomic(dir + "/job_timeline.csv", JobTimelineCsv(s_, outcomes_));
  }

 private:
  const Scenario& s_;
  const Network* net_ = nullptr;
  std::vector<JobOutcome> outcomes_;
};

// summary.json's "routing" (reconvergences after link events) and "drops_by_cause", in runs
// where a lossless fabric may lose packets otherwise.
class RoutingSink : public OutputSink {
 public:
  explicit RoutingSink(const Scenario& s) : s_(s) {}
  void Start(Engine& engine, const std::string&) override { net_ = &engine.net(); }
  void Summarize(nlohmann::json& summary) override {
    const NetStats& st = net_->stats();
    const bool links_change = AnyChangesLinks(s_.events);
    if (links_change) {
      // Each time the routes followed the links: the flows in flight that moved, or lost their way.
      nlohmann::json list = nlohmann::json::array();
      for (const Network::Reconvergence& r : net_->reconvergences()) {
        list.push_back({{"at_ns", r.at / kNanosecond},
                        {"flows_rerouted", r.flows_rerouted},
                        {"flows_cut_off", r.flows_cut_off}});
      }
      summary["routing"]["reconvergences"] = list;
    }
    if (s_.sw.pfc.watchdog.enabled || links_change || st.ttl_drops > 0) {
      // Where a lossless fabric may lose packets otherwise, every loss by its cause (only then:
      // other summaries keep their text). `ttl`: round a routing loop; `link`: on a failed link,
      // or cut off from the destination by one.
      summary["drops_by_cause"] = {
          {"buffer", st.drops - st.pfc_watchdog_drops - st.link_drops - st.ttl_drops},
          {"watchdog", st.pfc_watchdog_drops},
          {"link", st.link_drops},
          {"ttl", st.ttl_drops}};
    }
  }

 private:
  const Scenario& s_;
  const Network* net_ = nullptr;
};

// summary.json's "pfc": the deadlocks found, how far PAUSE spread, the watchdog's work.
class PfcSink : public OutputSink {
 public:
  explicit PfcSink(const Scenario& s) : s_(s) {}
  void Start(Engine& engine, const std::string&) override { net_ = &engine.net(); }
  void Finish(RunInfo& info) override { info_ = &info; }
  void Summarize(nlohmann::json& summary) override {
    const NetStats& st = net_->stats();
    if (!info_->deadlocks.empty()) {
      // Only when there was one: the summary of a run without stays as it was.
      nlohmann::json list = nlohmann::json::array();
      for (const Deadlock& d : info_->deadlocks) {
        nlohmann::json cycle = nlohmann::json::array();
        for (const DeadlockQueue& q : d.cycle) cycle.push_back(DeadlockDetector::Name(*net_, q));
        list.push_back({{"at_ns", d.at / kNanosecond},
                        {"since_ns", d.since / kNanosecond},
                        {"cycle", cycle},
                        {"flows", d.flows},
                        {"to_end", d.to_end}});
      }
      summary["pfc"]["deadlocks"] = list;
      summary["pfc"]["flows_left_in_deadlock"] = FlowsLeftInDeadlock(*info_).size();
    }
    if (st.pfc_pause_frames > 0) {
      // Congestion spreading: how many ports obeyed PAUSE, by how far it had spread to them.
      std::map<int, int> by_hops;
      Time paused = 0;
      for (int node = 0; node < s_.topology.num_nodes(); ++node) {
        for (int p = 0; p < net_->num_ports(node); ++p) {
          const EgressPort& port = net_->egress(node, p);
          if (port.pause_hops() > 0) ++by_hops[port.pause_hops()];
          paused += PausedTime(port, info_->sim_time);
        }
      }
      nlohmann::json hops = nlohmann::json::object();
      int ports = 0;
      for (const auto& [h, n] : by_hops) {
        hops[std::to_string(h)] = n;
        ports += n;
      }
      summary["pfc"]["spread"] = {{"max_hops", by_hops.empty() ? 0 : by_hops.rbegin()->first},
                                  {"ports_paused", ports},
                                  {"ports_by_hops", hops},
                                  {"paused_port_ns", static_cast<double>(paused) / kNanosecond}};
    }
    if (s_.sw.pfc.watchdog.enabled) {
      summary["pfc"]["watchdog"] = {{"storms", st.pfc_watchdog_storms},
                                    {"restorations", st.pfc_watchdog_restorations},
                                    {"dropped_packets", st.pfc_watchdog_drops}};
    }
  }

 private:
  const Scenario& s_;
  const Network* net_ = nullptr;
  const RunInfo* info_ = nullptr;
};

// Last, so that a folder with a summary.json has every other file.
class SummarySink : public OutputSink {
 public:
  void Write(const Network&, const RunInfo&, const nlohmann::json& summary,
             const std::string& dir) override {
    WriteFileAtomic(dir + "/summary.json", summary.dump(2) + "\n");
  }
};

}  // namespace

std::vector<std::unique_ptr<OutputSink>> ScenarioSinks(const Scenario& s) {
  std::vector<std::unique_ptr<OutputSink>> sinks;
  sinks.push_back(std::make_unique<ResolvedTomlSink>(s));
  sinks.push_back(std::make_unique<FlowsCsvSink>(s));
  sinks.push_back(std::make_unique<LinksCsvSink>());
  // The capture's taps, then the sampler's first event: the order runs have always had.
  sinks.push_back(std::make_unique<PcapSink>(s.output.pcap));
  sinks.push_back(std::make_unique<TimeSeriesSink>(s.output));
  if (!s.collectives.empty()) sinks.push_back(std::make_unique<CollectivesSink>(s));
  if (!s.jobs.empty()) sinks.push_back(std::make_unique<JobsSink>(s));
  sinks.push_back(std::make_unique<RoutingSink>(s));
  sinks.push_back(std::make_unique<PfcSink>(s));
  sinks.push_back(std::make_unique<SummarySink>());
  return sinks;
}

}  // namespace dcqcn
