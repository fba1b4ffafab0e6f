// Periodic samples for the time-series files: queue bytes and sent rate per switch port, and per
// flow its throughput and what its algorithm's CongestionControl::Sample() reports (rc, rt, alpha).
#pragma once

#include <string>
#include <vector>

#include "engine/engine.h"
#include "net/network.h"
#include "output/convergence.h"
#include "output/output_config.h"

namespace dcqcn {

class TimeSeriesSampler : public EventHandler {
 public:
  // Samples every `config.interval` from the first flow's start while flows are unfinished, as
  // an observer of the network `engine` runs.
  TimeSeriesSampler(Engine* engine, const OutputConfig& config);
  void HandleEvent(uint32_t kind, uint64_t arg) override;
  // Writes the requested files into `dir`/timeseries/ (atomically).
  void Write(const std::string& dir) const;
  // The sample instants, and per flow its cumulative delivered bytes at the samples it was
  // active in (empty unless the throughput or rate series is recorded).
  const std::vector<Time>& times() const { return times_; }
  DeliveredSamples DeliveredByFlow() const;
  bool samples_flows() const { return config_.ts_throughput || config_.ts_rate; }
  // Over ranks, at the end: each rank sampled the ports it ran, and the flows it sent (their
  // rates) and received (their bytes); rank 0 gathers every rank's into the series one process
  // would have (collective).
  void Collect();

 private:
  void Sample();
  Engine* engine_;
  Network* net_;
  OutputConfig config_;
  std::vector<Time> times_;
  // Per switch port (flattened in switch, port order): samples of queue bytes and tx bytes.
  struct PortSeries {
    int sw;
    int port;
    std::vector<Bytes> queue;
    std::vector<Bytes> tx_bytes;  // cumulative wire bytes sent
    Bytes max_queue = 0;
  };
  std::vector<PortSeries> ports_;
  // Per flow: cumulative delivered bytes and rate state at each sample.
  struct FlowSample {
    uint32_t flow;
    uint32_t sample;
    Bytes delivered;
    Rate rc;
    Rate rt;
    double alpha;
  };
  std::vector<FlowSample> flow_samples_;
  // Over ranks: the delivered bytes of the flows this rank receives, at each sample (a flow's
  // FlowSample is its sender's).
  struct Received {
    uint32_t flow;
    uint32_t sample;
    Bytes delivered;
  };
  std::vector<Received> received_;
};

}  // namespace dcqcn
