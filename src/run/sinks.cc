// The standard sinks: each wraps one writer of src/output or run/results.
#include "run/sinks.h"

#include <algorithm>

#include "output/atomic_file.h"
#include "output/pcap_capture.h"
#include "output/timeseries.h"
#include "run/collective_metrics.h"
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
  void Start(Network& net, const std::string& dir) override {
    // Over ranks every rank taps the points (what they see is shown to rank 0's, which
    // writes); only rank 0 has the folder.
    if (config_.enabled() && (!dir.empty() || net.ranks() > 1)) {
      capture_ =
          std::make_unique<PcapCapture>(config_, &net, dir.empty() ? "" : dir + "/capture.pcap");
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
  void Start(Network& net, const std::string&) override {
    sampler_ = std::make_unique<TimeSeriesSampler>(&net, config_);
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
  void Start(Network& net, const std::string&) override { net_ = &net; }
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
  sinks.push_back(std::make_unique<SummarySink>());
  return sinks;
}

}  // namespace dcqcn
