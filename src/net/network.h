// A whole simulated network built from a NetworkConfig: hosts (RDMA NICs), switches, links, routes
// and flows, sharing one simulator, packet pool and set of counters.
#pragma once

#include <memory>
#include <vector>

#include "cc/factory.h"
#include "core/simulator.h"
#include "net/flow.h"
#include "net/flow_starter.h"
#include "net/hpcc_ecmp.h"
#include "net/network_config.h"
#include "net/packet.h"
#include "net/rdma_nic.h"
#include "net/routing.h"
#include "net/stats.h"
#include "net/switch_node.h"

namespace dcqcn {

class Network {
 public:
  // Builds everything and schedules the flows' starts. Throws InputError when the config
  // cannot be built (e.g. no route between a flow's hosts, buffer too small).
  explicit Network(NetworkConfig config);

  Simulator& sim() { return sim_; }
  NetStats& stats() { return stats_; }
  const NetStats& stats() const { return stats_; }
  std::vector<Flow>& flows() { return flows_; }
  const std::vector<Flow>& flows() const { return flows_; }
  PacketPool& pool() { return pool_; }
  std::vector<std::unique_ptr<SwitchNode>>& switches() { return switches_; }
  const std::vector<std::unique_ptr<SwitchNode>>& switches() const { return switches_; }
  std::vector<std::unique_ptr<RdmaNic>>& hosts() { return hosts_; }
  // The config it was built from, without its flows (flows() holds them).
  const NetworkConfig& config() const { return config_; }
  int flows_done() const { return flows_done_; }
  // The first flow's start: the origin of the run's active interval (HPCC inputs start at 2 s).
  Time first_start() const { return first_start_; }
  // Congestion-control event counts summed over every NIC.
  CcCounters cc_counters() const;
  bool all_done() const { return flows_done_ == static_cast<int>(flows_.size()); }
  // Headroom the MMU of switch `sw` reserves on `port` per lossless priority.
  Bytes headroom(int sw, int port) const { return switches_[sw]->mmu().headroom(port); }

  // Node `node`'s ports (a host has one): the (peer node, peer port) each is cabled to, and the
  // link it sends on.
  int num_ports(int node) const { return static_cast<int>(adjacency_[node].size()); }
  std::pair<int, int> peer(int node, int port) const { return adjacency_[node][port]; }
  const Link& link(int node, int port) const { return LinkAt(node, port); }
  // `on_send` sees every packet node `node`'s port `port` sends, `on_receive` every one it
  // receives.
  void Tap(int node, int port, PacketTap* on_send, PacketTap* on_receive);

  // The links a flow's packets take (following ECMP as the switches hash it).
  std::vector<LinkSpec> PathOf(const Flow& f) const;
  // Ideal flow completion time, as HPCC defines it (used for slowdown).
  Time IdealFct(const Flow& f) const;

  // Packets that are somewhere in the network (queues, links, NIC control queues).
  int64_t PacketsInNetwork();
  // Throws InvariantError if conservation or buffer accounting is broken. `drained` = the
  // event queue ran dry, so every queue and buffer counter must be empty.
  void CheckInvariants(bool drained);

 private:
  void BuildRoutes();
  // The link node `node` sends on from port `port` (the nodes are owned through pointers, so
  // a const network can hand out a mutable link: only Tap does).
  Link& LinkAt(int node, int port) const;
  // Every flow's base RTT and BDP (and window), per host.base_rtt.
  void SetBaseRtts();
  NetworkConfig config_;
  CcFactory cc_factory_;
  WireFormat wire_;  // config_.wire with congestion control's header added
  Simulator sim_;
  NetStats stats_;
  PacketPool pool_;
  std::vector<Flow> flows_;
  std::vector<std::unique_ptr<RdmaNic>> hosts_;
  std::vector<std::unique_ptr<SwitchNode>> switches_;
  std::unique_ptr<RouteTable> routes_;
  HpccEcmpKeys hpcc_keys_;  // switch.ecmp_hash = "hpcc" only
  std::unique_ptr<FlowStarter> starter_;
  // For every node, its ports' peers: (peer node, peer port).
  std::vector<std::vector<std::pair<int, int>>> adjacency_;
  int flows_done_ = 0;
  Time first_start_ = 0;
};

// Headroom for one (port, priority) so that a PAUSE never loses data: the bytes that arrive
// during two propagation delays (PAUSE travelling up, data already on the wire coming down)
// plus a frame in transmission at each end and one more for the frame that crossed XOFF.
Bytes AutoHeadroom(Rate rate, Time delay, Bytes mtu_frame);
// The headroom a port on a link of `rate` and `delay` gets under `pfc`'s rule (auto, HPCC's or
// a fixed size).
Bytes PortHeadroom(const PfcConfig& pfc, Rate rate, Time delay, Bytes mtu_frame);

}  // namespace dcqcn
