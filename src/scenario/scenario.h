// The validated, fully defaulted description of one simulation run. Every parameter has its
// home here with its default and where the default comes from.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cc/cc_config.h"
#include "cc/dcqcn/dcqcn_params.h"
#include "core/units.h"
#include "net/flow_spec.h"
#include "net/headers.h"
#include "net/host_config.h"
#include "net/link_spec.h"
#include "net/network_config.h"
#include "net/switch_config.h"
#include "net/topology.h"
#include "scenario/flow_tags.h"

namespace dcqcn {

// How the topology is built; the base holds the result (hosts, switches, links, HPCC ids).
// hosts: every type; switches: custom only, derived for the others.
struct TopologyConfig : Topology {
  TopologyConfig() {
    hosts = 9;
    switches = 1;
  }
  std::string type = "star";    // star | dumbbell | custom | leaf_spine | fat_tree | hpcc_file
  Rate link_rate = 40 * kGbps;  // paper testbed: 40GbE
  Time link_delay = 1 * kMicrosecond;  // ns3-rdma sample topology: 1 us links
  Rate bottleneck_rate = 0;            // dumbbell: s0-s1 link; 0 = link_rate
  // leaf_spine: every leaf cabled to every spine, hosts = leaves * hosts_per_leaf. A small
  // two-tier fabric by default (16 hosts), the shape of the HPCC and DCQCN+ evaluations.
  int leaves = 4;
  int spines = 2;
  int hosts_per_leaf = 4;
  double oversubscription = 0;  // > 0: fabric_rate = hosts_per_leaf * link_rate / (spines * it)
  // fat_tree: the k-ary three-tier fat tree of Al-Fares et al. (SIGCOMM'08), k^3/4 hosts.
  int k = 4;
  Rate fabric_rate = 0;  // leaf_spine and fat_tree: switch-to-switch links; 0 = link_rate
  // hpcc_file: the HPCC ns-3 topology file (as resolved: relative to the scenario's folder);
  // Topology::hpcc_ids maps our nodes to its ids, which interleave switches and hosts.
  std::string file;
  // custom: links as written by the user are resolved to node ids in Topology::links.
};

struct WorkloadConfig {
  std::string type;          // "" (none) | incast | permutation | poisson
  std::vector<int> senders;  // incast: explicit sender hosts
  int sender_count = 0;      // incast: or the first N hosts other than the receiver
  int receiver = 0;          // incast
  Bytes size = 0;
  Time start = 0;
  int priority = 3;
  // poisson: every host starts flows as a Poisson process during [start, start + window), at the
  // mean rate load * (its link rate) / (8 * mean flow size), sizes drawn from `cdf`, each to a
  // host drawn uniformly from the others (HPCC's traffic generator does the same).
  std::string cdf;  // "websearch" | "hadoop" | an HPCC-format CDF file (resolved path)
  double load = 0;  // offered load, fraction 0..1 of each host's link rate
  Time window = 0;  // arrivals happen during this long a time after `start`
  // Incast events on top of the Poisson load ([workload.incast]): Poisson events at
  // `incast_rate` per second during the same window; each picks a receiver and `incast_fanin`
  // distinct senders at random, which all start a flow of `incast_size` bytes at the same time.
  // Tag of the generated flows: "incast", "permutation", "background" (poisson) by default;
  // the poisson workload's incast events are always tagged "incast".
  std::string tag;
  int incast_fanin = 0;  // 0 = no incast events
  Bytes incast_size = 0;
  double incast_rate = 0;  // events per second
};

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
  PcapConfig pcap;
};

struct Scenario {
  std::string name = "default";
  std::string source;  // file the scenario came from ("<built-in>" for the default)
  Time duration = 10 * kMillisecond;
  uint64_t seed = 1;
  TopologyConfig topology;
  SwitchConfig sw;
  HostConfig host;
  WireFormat wire;  // frame sizes and timing: RoCEv2 over Ethernet, or HPCC ns-3's
  CcConfig cc;
  WorkloadConfig workload;
  std::vector<FlowSpec> flows;  // explicit flows followed by the generated ones
  int explicit_flows = 0;       // how many of `flows` were written explicitly
  // Explicit flows' own rates ([[flow]] rate), by flow id; 0 or past the end: none given.
  std::vector<Rate> flow_rates;
  FlowTags tags;  // the names of the flows' tags
  const std::string& tag(const FlowSpec& f) const { return tags.name(f.tag); }
  OutputConfig output;
};

// What the network model needs of a scenario; validates [cc] (InputError naming the file, line
// and key). Its flows are a view of s.flows: `s` must outlive the network built from it.
NetworkConfig ToNetworkConfig(const Scenario& s);

// The profile named in s.cc.profile with every s.cc.params override applied.
inline DcqcnParams ResolveDcqcnParams(const Scenario& s) {
  return ResolveDcqcnParams(s.cc, s.source);
}

}  // namespace dcqcn
