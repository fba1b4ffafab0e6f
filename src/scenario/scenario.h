// The validated, fully defaulted description of one simulation run. Every parameter has its
// home here with its default and where the default comes from.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/units.h"
#include "net/headers.h"

namespace dcqcn {

// One full-duplex cable between two nodes; node ids: hosts 0..H-1, then switches H..H+S-1.
struct LinkSpec {
  int a = 0;
  int b = 0;
  Rate rate = 40 * kGbps;
  Time delay = 1 * kMicrosecond;
};

struct TopologyConfig {
  std::string type = "star";  // star | dumbbell | custom | leaf_spine | fat_tree
  int hosts = 9;
  int switches = 1;                    // custom only; derived for star (1) and dumbbell (2)
  Rate link_rate = 40 * kGbps;         // paper testbed: 40GbE
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
  // hpcc_file: the HPCC ns-3 topology file (as resolved: relative to the scenario's folder) and,
  // for every node of ours (hosts first, then switches), its node id in that file, whose ids
  // interleave switches and hosts. Kept for the HPCC-format output files.
  std::string file;
  std::vector<int> hpcc_ids;
  // custom: links as written by the user (resolved to node ids in `links`).
  std::vector<LinkSpec> links;  // every topology: the built cable list
  int num_nodes() const { return hosts + switches; }
  // Node `node`'s id in the HPCC topology file (itself when the topology is not from a file).
  int hpcc_id(int node) const {
    return node < static_cast<int>(hpcc_ids.size()) ? hpcc_ids[node] : node;
  }
  bool is_host(int node) const { return node < hosts; }
  // "h3" for host 3, "s0" for the first switch: the names scenario files and outputs use.
  std::string node_name(int node) const {
    return is_host(node) ? "h" + std::to_string(node) : "s" + std::to_string(node - hosts);
  }
};

struct PfcConfig {
  bool enabled = true;
  bool dynamic_threshold = true;  // Broadcom dynamic threshold (paper testbed, Trident II)
  double alpha = 0.125;           // XOFF at alpha * free shared buffer; HPCC shift 3 = 1/8
  Bytes static_threshold = 0;     // when !dynamic_threshold
  // Headroom per (ingress port, lossless priority), from each port's link:
  //  kAuto:  spec 4.5, 2 * one-way BDP + 3 MTU frames + a PFC frame;
  //  kHpcc:  3 * one-way BDP in whole bytes (HPCC ns-3 third.cc: rate * delay / 8 / 1e9 * 3);
  //  kFixed: `headroom` bytes on every port.
  enum class HeadroomRule { kAuto, kHpcc, kFixed };
  HeadroomRule headroom_rule = HeadroomRule::kAuto;
  Bytes headroom = 0;               // when kFixed
  Bytes reserve = 4000;             // guaranteed bytes per (ingress port, priority); HPCC 4 KB
  Bytes xon_offset = 0;             // 0 = 2 MTU frames below XOFF (paper); HPCC uses 3 KB
  int pause_quanta = 65535;         // 802.1Qbb maximum; refreshed before expiry while congested
  bool pause_until_resume = false;  // HPCC semantics: a PAUSE lasts until an explicit RESUME
  // Ports whose link has one of these rates use its alpha instead (HPCC ns-3 halves its
  // threshold shift per doubling of a port's rate over the hosts': 1/2 on 400G with 100G NICs).
  struct ForRate {
    Rate rate = 0;
    double alpha = 0;
  };
  std::vector<ForRate> by_rate;
  // The dynamic-threshold alpha of a port of `rate`.
  double AlphaForRate(Rate rate) const {
    for (const ForRate& r : by_rate) {
      if (r.rate == rate) return r.alpha;
    }
    return alpha;
  }
};

struct EcnConfig {
  bool enabled = true;
  Bytes kmin = 5000;    // paper 40G: 5 KB
  Bytes kmax = 200000;  // paper 40G: 200 KB
  double pmax = 0.01;   // paper: 1%
  // Ports whose link has one of these rates use its thresholds instead (HPCC's KMIN_MAP,
  // KMAX_MAP and PMAX_MAP: a fabric's 400G ports need other thresholds than its 100G ones).
  struct ForRate {
    Rate rate = 0;
    Bytes kmin = 0;
    Bytes kmax = 0;
    double pmax = 0;
  };
  std::vector<ForRate> by_rate;
  // The thresholds of a port of `rate`.
  EcnConfig ForPortRate(Rate rate) const {
    EcnConfig e = *this;
    for (const ForRate& r : by_rate) {
      if (r.rate == rate) {
        e.kmin = r.kmin;
        e.kmax = r.kmax;
        e.pmax = r.pmax;
      }
    }
    e.by_rate.clear();
    return e;
  }
};

struct SwitchConfig {
  Bytes buffer = 12000000;  // paper testbed: Arista 7050QX32, 12 MB shared
  // How a switch picks among equal-cost next hops for a flow:
  //  kDcqcn: a 64-bit mix of (source, destination, UDP source port) with a per-switch seed
  //          drawn from the run's seed;
  //  kHpcc:  HPCC ns-3's SwitchNode::GetOutDev: murmur3 of (sip, dip, sport | dport << 16)
  //          seeded with the switch's node id, over next hops in that simulator's order, with
  //          its addresses and source ports (docs/validation.md).
  enum class EcmpHash { kDcqcn, kHpcc };
  EcmpHash ecmp_hash = EcmpHash::kDcqcn;
  PfcConfig pfc;
  EcnConfig ecn;
};

struct HostConfig {
  int mtu = 1000;               // payload bytes per packet (HPCC PACKET_PAYLOAD_SIZE)
  int ack_interval = 1;         // ACK every N data packets (HPCC L2_ACK_INTERVAL 1)
  Time rto = 4 * kMillisecond;  // go-back-N retransmission timeout (IB: 4.096us * 2^10)
  // ACKs and NACKs cross switches in the strict-priority control queue (false), or in their
  // flow's data class (true: HPCC ns-3's switches, which queue them with data, count them in
  // the buffer and pause them with PFC).
  bool ack_in_data_class = false;
};

struct CcConfig {
  std::string algorithm = "dcqcn";  // dcqcn | none (line rate, PFC only); design 1.2 default
  std::string profile = "paper";
  // Overrides of the profile's parameters: every [cc] key other than algorithm and profile, with
  // its value as TOML text ("10Mbps", "0.00390625", "true") and its line, validated by the
  // algorithm when the simulation is built.
  struct Param {
    std::string value;
    int line = 0;
  };
  std::map<std::string, Param> params;
};

struct FlowSpec {
  int src = 0;  // host index
  int dst = 0;  // host index
  Bytes size = 0;
  Time start = 0;
  int priority = 3;  // 802.1p class of the data; 1..7 (0 is the control queue)
  std::string tag;   // label for per-tag metrics; generated flows get their workload's tag
  // UDP destination port: RoCEv2's 4791; HPCC flow files give their own (100). Only the HPCC
  // ECMP hash reads it.
  uint16_t dport = kRoceUdpPort;
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
  OutputConfig output;
};

}  // namespace dcqcn
