// Periodic samples of the network for the time-series files: egress queue bytes and
// transmitted rate per switch port, per-flow throughput, per-flow DCQCN rate state.
#pragma once

#include <string>
#include <vector>

#include "net/network.h"

namespace dcqcn {

class TimeSeriesSampler : public EventHandler {
 public:
  // Starts sampling at time 0 every `config.interval` while flows are unfinished.
  TimeSeriesSampler(Network* net, const OutputConfig& config);
  void HandleEvent(uint32_t kind, uint64_t arg) override;
  // Writes the requested files into `dir`/timeseries/ (atomically).
  void Write(const std::string& dir) const;
  // With the throughput series: the first sample time from which on the flows active together
  // share fairly: whenever two or more flows are active over a whole 5 ms window, each one's
  // throughput in it is within 15% of their mean. -1 if that never holds or cannot be measured.
  Time ConvergenceTime() const;
  static constexpr Time kConvergenceWindow = 5 * kMillisecond;
  static constexpr double kConvergenceTolerance = 0.15;

 private:
  void Sample();
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
};

}  // namespace dcqcn
