// What a run records besides flows.csv and summary.json ([output], [output.pcap]): time series,
// the summary's windows, and a packet capture.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/units.h"

namespace dcqcn {

// [output.pcap]'s kinds, by PacketType (data, ack, nack, cnp, pause).
inline constexpr std::array<std::string_view, 5> kPcapKinds = {"data", "ack", "nack", "cnp", "pfc"};

// [output.pcap]: packets seen at some ports, written to capture.pcap (output/pcap_capture.h).
struct PcapConfig {
  std::vector<std::string> points;        // as written: "h1" (a NIC), "s0:3" (a switch port)
  std::vector<std::pair<int, int>> taps;  // the points as (node, port)
  // Which packets, as bits (1 << PacketType): data, ack, nack, cnp, pfc (PAUSE); all by default.
  unsigned kinds = 0x1f;
  Time from = 0;                  // packets seen from this time on...
  Time until = kMaxTime;          // ...until this one
  int64_t max_packets = 1000000;  // then the capture stops (the run goes on)
  int snaplen = 65535;            // bytes kept of each frame (headers are 62 to 66 bytes)
  bool enabled() const { return !points.empty(); }
};

struct OutputConfig {
  bool ts_rate = false;
  bool ts_queue = false;
  bool ts_pfc = false;
  bool ts_throughput = false;
  Time interval = 10 * kMicrosecond;
  // Queue statistics in summary.json ("bottleneck") count from this long after the first flow's
  // start, so a start-up transient does not dominate them.
  Time warmup = 0;
  // Convergence time (docs/metrics.md): per-flow throughput over sliding windows of this length
  // must stay within `tolerance` of the flows' mean. 5 ms / 15% (earlier docs/paper.md runs).
  Time convergence_window = 5 * kMillisecond;
  double convergence_tolerance = 0.15;
  // PFC deadlock detection (net/deadlock_detector.h): a cycle of paused queues stuck this long
  // is reported in summary.json (pfc.deadlocks); 0: not looked for.
  Time deadlock_time = 1 * kMillisecond;
  PcapConfig pcap;
};

}  // namespace dcqcn
