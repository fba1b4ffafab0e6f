// A whole simulated network built from a NetworkConfig: hosts (RDMA NICs), switches, links, routes
// and flows, sharing one set of counters. A flow's transport and congestion-control state exists
// only while it is in flight (FlowTable); what outlives it is its spec and its outcome (finish
// time, bytes delivered).
//
// The nodes are placed on NetworkConfig::parts event loops (ThreadPlacement), each a Part with
// its own simulator, counters and packets; a link into another part hands what it sends to that
// part's outbox. The network is the model only: it never runs its loops. An engine (engine/)
// does, on one thread, on threads or over MPI ranks, with the same results byte for byte:
// events are ordered by keys that do not depend on the interleaving (Simulator).
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cc/cc_algorithm.h"
#include "core/simulator.h"
#include "net/base_rtt.h"
#include "net/deadlock_detector.h"
#include "net/flow.h"
#include "net/flow_dependencies.h"
#include "net/flow_level_fabric.h"
#include "net/flow_starter.h"
#include "net/flow_table.h"
#include "net/hpcc_ecmp.h"
#include "net/network_config.h"
#include "net/nvlink_fabric.h"
#include "net/packet.h"
#include "net/part.h"
#include "net/pause_storm.h"
#include "net/rdma_nic.h"
#include "net/routing.h"
#include "net/stats.h"
#include "net/switch_node.h"
#include "net/thread_placement.h"

namespace dcqcn {

class Network {
 public:
  // Builds everything and schedules the flows' starts. Throws InputError when the config
  // cannot be built (e.g. no route between a flow's hosts, buffer too small).
  explicit Network(NetworkConfig config);

  // The loop observers (samplers, the warm-up's end, link events) run on: on one part, the loop
  // of every node; split, a loop of their own that the engine runs between windows, every part
  // stopped.
  Simulator& sim() { return *observers_; }
  // The run's counters: on one part, the part's own; split, the parts' summed by the engine.
  NetStats& stats() { return *stats_; }
  const NetStats& stats() const { return *stats_; }
  // The event loops the nodes are placed on, and where each node is.
  const std::vector<std::unique_ptr<Part>>& parts() const { return parts_; }
  Part& part_of(int node) const { return *parts_[placement_.thread_of[node]]; }
  const ThreadPlacement& placement() const { return placement_; }
  // The links' halves that receive in another part than their sender's, in an order every
  // process builds alike (what crosses between processes names its link by its place here).
  const std::vector<std::unique_ptr<Link>>& receiving_halves() const { return receiving_halves_; }
  // The switch egress queues that hold data and are paused, with what deadlock detection reads
  // of them (over ranks, this process's: other processes' switches hold no packets here).
  std::vector<PausedQueue> PausedQueues() const;
  // Every flow of the workload, by id.
  size_t num_flows() const { return config_.flows.size(); }
  const FlowSpec& flow_spec(uint32_t id) const { return config_.flows[id]; }
  // The flows in flight: started and not retired.
  const FlowTable& flows_in_flight() const { return flows_; }
  // Flow `id`'s outcome so far: when its sender got the last ACK (-1 = not yet) and the bytes
  // its receiver got in order.
  struct Outcome {
    Time finish = -1;
    Bytes delivered = 0;
  };
  Time flow_finish(uint32_t id) const {
    const Flow* f = adopted_ ? nullptr : flows_.find(id);
    return f != nullptr ? f->finish : std::max<Time>(outcomes_[id], -1);
  }
  Bytes flow_delivered(uint32_t id) const {
    const Flow* f = adopted_ ? nullptr : flows_.find(id);
    if (f != nullptr) return f->bytes_delivered;
    return outcomes_[id] >= 0 ? config_.flows[id].size : -1 - outcomes_[id];
  }
  // When flow `id` started: its spec's start, or, for a flow that waits for others, when the
  // last of them completed plus its delay (kTimeNever while it waits).
  Time flow_start(uint32_t id) const {
    return dependencies_ != nullptr && dependencies_->Waits(id) ? dependencies_->start(id)
                                                                : config_.flows[id].start;
  }
  // When flow `id`'s last byte reached its receiver in order (-1 = not yet): the completion
  // that flows sent by its receiver wait for.
  Time flow_delivered_at(uint32_t id) const { return delivered_at_[id]; }
  // When host `host` (flow `id`'s sender or receiver) saw it complete, as the flows and tasks
  // that wait for it do (-1 = not yet): FlowDependencies' rule.
  Time flow_seen_by(uint32_t id, int host) const {
    return CompletionSeenBy(host, config_.flows[id], delivered_at_[id], flow_finish(id),
                            dependencies_ != nullptr ? dependencies_->ReceiverLag(id) : 0,
                            dependencies_ != nullptr && dependencies_->SeesAckArrival(id));
  }
  // When a transfer that another follows on its connection first sent its last packet (the
  // next one's start waits for it); -1 for other flows or not yet (on its source's rank).
  Time flow_sent_at(uint32_t id) const { return sent_at_.empty() ? -1 : sent_at_[id]; }
  // Flow `id`'s UDP source port (ECMP entropy; a connection's transfers share their first's).
  uint16_t flow_sport(uint32_t id) const { return sports_[id]; }
  // The port of its sender's NIC flow `id` is bound to (0 unless the host has several).
  int SenderPort(uint32_t id) const { return nic_ports_.empty() ? 0 : nic_ports_[id]; }
  // A finished flow stays in flight until `hold` after its finish (and until its last packet
  // is gone): the time series samples a flow one interval past its finish.
  void HoldFinishedFlows(Time hold) { hold_ = std::max(hold_, hold); }
  PacketPool& pool() { return parts_[0]->pool; }
  std::vector<std::unique_ptr<SwitchNode>>& switches() { return switches_; }
  const std::vector<std::unique_ptr<SwitchNode>>& switches() const { return switches_; }
  std::vector<std::unique_ptr<RdmaNic>>& hosts() { return hosts_; }
  // The config it was built from.
  const NetworkConfig& config() const { return config_; }
  // The first start of a flow that waits for nothing: the origin of the run's active interval (HPCC
  // inputs start at 2 s).
  Time first_start() const { return first_start_; }
  // Congestion-control event counts summed over every NIC.
  CcCounters cc_counters() const;
  // Headroom the MMU of switch `sw` reserves on `port` per lossless priority.
  Bytes headroom(int sw, int port) const { return switches_[sw]->mmu().headroom(port); }

  // Node `node`'s ports (a host's NIC has one per cable): the (peer node, peer port) each is
  // cabled to, and the link it sends on.
  int num_ports(int node) const { return static_cast<int>(adjacency_[node].size()); }
  // Every port's index among all ports (nodes in order, each node's in cabling order): port p of
  // node n is PortIndices()[n] + p; the last entry is the number of ports.
  std::vector<uint32_t> PortIndices() const;
  std::pair<int, int> peer(int node, int port) const { return adjacency_[node][port]; }
  const Link& link(int node, int port) const { return LinkAt(node, port); }
  // The transmit side of port `port` of `node` (its pause state).
  const EgressPort& egress(int node, int port) const { return EgressAt(node, port); }
  EgressPort& egress(int node, int port) { return EgressAt(node, port); }
  // `on_send` sees every packet node `node`'s port `port` sends, `on_receive` every one it
  // receives, in `node`'s part, as they happen (an engine that splits the run shows them what
  // its parts saw in one loop's order).
  void Tap(int node, int port, PacketTap* on_send, PacketTap* on_receive);

  // Whether flow `id` goes over its server's NVLink (NetworkConfig::nvlink), not the NICs: it
  // has no packets, path or congestion control.
  bool OverNvlink(uint32_t id) const {
    return nvlink_ != nullptr && nvlink_->Carries(config_.flows[id].src, config_.flows[id].dst);
  }
  // The flow-level model (NetworkConfig::flow_level), null in the packet model.
  const FlowLevelFabric* flow_level() const { return flow_level_.get(); }
  // Flow level: each link counts the wire bytes the model's streams and their ACKs put on it so
  // far, as a packet run's links count what they sent (links.csv's utilisation).
  void CountFlowLevelTraffic();

  // The links flow `id`'s packets take (following ECMP as the switches hash it); none for a
  // flow over NVLink.
  std::vector<LinkSpec> PathOf(uint32_t id) const;
  // The same as the (node, port) pairs that send flow `id`'s data (parallel cables stay apart).
  // `direction` 1: the ports that send its ACKs back.
  std::vector<std::pair<int, int>> PortPathOf(uint32_t id, int direction = 0) const;
  // From flow `id`'s last byte's delivery to its sender's getting the ACK on an idle path: the
  // ACK's links' delays and one ACK frame on each (0 over NVLink).
  Time AckFlightTime(uint32_t id) const;
  // One hop of it: an ACK frame's serialization on link `l` and the link's delay.
  Time AckHopTime(const Link& l) const;
  // The loops static routes ([[route]]) make, one line each ("packets to h3 can loop: s0 ->
  // s1 -> s0"), for `dcqcn check` to warn about. A flow that takes one loses its packets when
  // their TTL runs out (SwitchNode::kTtlHops).
  std::vector<std::string> RouteLoops() const;
  // Throws InvariantError if a flow's route cache disagrees with the route tables.
  void CheckRouteCaches() const;
  // Whether flow `id`'s packets can reach its receiver, and its ACKs its sender, as the links
  // and routes are now: kCutOff when a cable on the way is down or a switch has no route (a
  // host cut off), kLoops when the static routes send them round until their TTL runs out.
  // kReaches for a flow over NVLink.
  enum class PathState { kReaches, kCutOff, kLoops };
  PathState PathStateOf(uint32_t id) const;
  // Link events ([[event]] link_down, link_up) and reconvergences from now on do not happen:
  // the run is over (every flow finished) and only its last packets are left to land.
  void EndLinkEvents() { link_events_ended_ = true; }
  // Each time the routes followed the links (topology.reconvergence after a link event): when,
  // how many flows in flight (started, not finished) then took another path (either way), and
  // how many could not reach their other end (PathStateOf: cut off, or looping).
  struct Reconvergence {
    Time at;
    int flows_rerouted;
    int flows_cut_off;
  };
  const std::vector<Reconvergence>& reconvergences() const { return reconvergences_; }

  // Packets that are somewhere in the network (queues, links, NIC control queues).
  int64_t PacketsInNetwork();
  // Throws InvariantError if conservation or buffer accounting is broken. `drained` = the
  // event queue ran dry, so every queue and buffer counter must be empty.
  void CheckInvariants(bool drained);

  // What engines ask of the model. Finished flows retire (their state is freed, their outcome
  // kept) when RetireDue says enough have finished: at a flow's start on one loop, unless the
  // engine asks to retire them itself (between windows) or never (over ranks, where a flow's
  // state lives in several processes).
  void SetRetireAtStart(bool at_start) { retire_at_start_ = at_start; }
  bool RetireDue() const;
  // Retires the finished flows that are done with at `now` (RetireFinished's rule).
  void RetireFinished(Time now);
  // Flow `id`'s state in a part its sender is not in (another process's), made when its first
  // packet comes in: switches read its route cache, its receiver the rest.
  void EnsureFlow(uint32_t id);
  // Over ranks, once the run is over: the outcomes that the processes running each flow's ends
  // saw (`outcomes` by flow; the start of each flow that waited; each delivery's time), and
  // the congestion-control counters of every NIC. From then on the network answers from these.
  void AdoptOutcomes(std::vector<Outcome> outcomes);
  void AdoptStart(uint32_t id, Time start);
  // The run is over and its results collected (AdoptOutcomes): frees what only running flows
  // needed, before the results take their own memory. The network answers for the results
  // from then on and runs no more.
  void ReleaseRunState() {
    if (dependencies_ != nullptr) dependencies_->ReleaseRunState();
  }
  void AdoptDeliveredAt(uint32_t id, Time at) { delivered_at_[id] = at; }
  void AdoptCcCounters(CcCounters counters) {
    adopted_cc_ = std::move(counters);
    adopted_cc_valid_ = true;
  }

 private:
  // The flow's state, as its start makes it (without starting it).
  Flow& CreateFlow(uint32_t id);
  // For every node, its ports' peers: (peer node, peer port); a port whose cable is down has
  // peer -1 in the live view the routes are computed from.
  using Adjacency = std::vector<std::vector<std::pair<int, int>>>;
  // Shortest-path routes over the cables of `live`, with the static routes' live next hops.
  std::unique_ptr<RouteTable> ComputeRoutes(const Adjacency& live) const;
  void BuildRoutes();
  // switch.load_balancing other than "ecmp": a balancer on each switch it applies to.
  void SetLoadBalancers();
  // At a reconvergence: the queue pairs bound to a NIC port whose link is down move to a live
  // port of their host (a bond's failover, once the routes have followed), and so do the flows
  // yet to start.
  void MoveOffDeadPorts();
  // Link events ([[event]] link_down, link_up) and the reconvergence after each: an observer,
  // so that in a run split over threads they run between windows, every thread stopped, and at
  // an instant after every node's events, split or not (network_links.cc).
  class LinkEvents final : public EventHandler {
   public:
    enum Kind : uint32_t { kApply = 0, kReconverge = 1 };
    explicit LinkEvents(Network* net) : net_(net) {}
    void HandleEvent(uint32_t kind, uint64_t arg) override;

   private:
    Network* net_;
  };
  void ScheduleLinkEvents();
  // Event `e` (link_down or link_up) takes its cables down or brings them back.
  void ApplyLinkEvent(const NetworkEvent& e);
  // Cable `cable` (an index into the topology's links) goes down or comes back.
  void SetCableDown(size_t cable, bool down);
  // The ports at each end of cable `cable`.
  std::pair<int, int> CablePorts(size_t cable) const;
  // The switches' routes follow the links up now.
  void Reconverge();
  // The transmit side of port `port` of `node` (mutable, as LinkAt).
  EgressPort& EgressAt(int node, int port) const;
  // The link node `node` sends on from port `port` (the nodes are owned through pointers, so
  // a const network can hand out a mutable link: only Tap does).
  Link& LinkAt(int node, int port) const;
  // A packet of flow `id` as the switches route it: its data (direction 0) or what its receiver
  // sends back (1).
  Packet RouteProbe(uint32_t id, int direction) const;
  // Node `node`'s port `port` leads nowhere: its link is down ([[event]] link_down).
  bool PortDown(int node, int port) const { return LinkAt(node, port).receiving_half().down(); }
  // Of flow `id`'s sender's ports, those nearest its receiver; among them, one by its hash.
  uint8_t ChooseNicPort(uint32_t id) const;
  // The port `probe` leaves its host by: its flow's sender port for data, for what the
  // receiver sends back the port the data comes in on.
  int StartPort(const Packet& probe) const;
  // Calls visit(node, port) for each link `probe` takes from its source host to its
  // destination: the host's own, then the port each switch routes it to.
  template <class Visit>
  void WalkPath(const Packet& probe, Visit&& visit) const;
  // Calls visit(hop, node, port) for each switch of flow `id`'s path in `direction` that its
  // route cache covers (the first Flow::kRouteCacheHops): its place, and the port it routes to.
  template <class Visit>
  void WalkCachedHops(uint32_t id, int direction, Visit&& visit) const;
  // Flow `id`'s base RTT and BDP, per host.base_rtt.
  BaseRtt FlowBaseRtt(uint32_t id) const;
  // Throws InputError if a flow's base RTT or BDP is too small for HPCC's update.
  void CheckBaseRtts() const;
  // `f`'s packets left in the network: what its sender and receiver sent less what they took
  // in and what switches dropped.
  int64_t PacketsOut(const Flow& f) const;
  // Fills `f`'s route cache, both ways, as its switches' route tables choose: at its start, so
  // that switches only read a flow's state (which a run split over event loops needs).
  void FillRouteCache(Flow& f) const;
  // Creates flow `id`'s state and starts it on its sender's NIC.
  void StartFlow(uint32_t id);
  // NVLink transfer `id` arrived: it is delivered and, as NVLink needs no ACK, finished.
  void NvlinkDelivered(uint32_t id);
  // The flow-level model over every port of the network, reporting as the NICs would.
  void MakeFlowLevelFabric();
  // Flow `id` as the flow-level model streams it, into `path`: its ports (and its ACKs'), with
  // the weight of its frames or ACKs on each, and its first frame's latency.
  void FlowLevelPath(uint32_t id, FlowLevelFabric::Path& path) const;
  NetworkConfig config_;
  WireFormat wire_;  // config_.wire with congestion control's header added
  ThreadPlacement placement_;
  CcHeaderStore cc_headers_;                  // shared by the parts' pools
  std::vector<std::unique_ptr<Part>> parts_;  // one per event loop
  Simulator own_observers_;                   // split: the observers' loop
  Simulator* observers_ = nullptr;            // sim(): part 0's loop, or own_observers_
  NetStats merged_stats_;                     // split: the parts' counters, summed
  NetStats* stats_ = nullptr;                 // stats(): part 0's, or merged_stats_
  // Links between parts: their receiving halves, and the way there.
  std::vector<std::unique_ptr<Link>> receiving_halves_;
  std::vector<std::unique_ptr<CrossingRoute>> crossing_routes_;
  FlowTable flows_;
  // Per flow: its UDP source port, and the outcome of a retired flow (or of one at flow level
  // or over NVLink) in one word (millions of flows): its finish, when it finished (a finished
  // flow delivered all its bytes), else -1 less the bytes it delivered (OutcomeWord).
  std::vector<uint16_t> sports_;
  std::vector<uint8_t> nic_ports_;  // per flow, when a host has several ports: SenderPort
  std::vector<Time> outcomes_;
  // Flow `id`'s outcome as outcomes_ keeps it; InvariantError if it finished without all its
  // bytes delivered.
  Time OutcomeWord(uint32_t id, const Outcome& o) const;
  bool adopted_ = false;  // AdoptOutcomes has run: outcomes_ holds every flow's
  CcCounters adopted_cc_;
  bool adopted_cc_valid_ = false;
  static constexpr size_t kMinRetireBatch = 256;
  size_t next_retire_ = kMinRetireBatch;  // retire when this many have finished
  bool retire_at_start_ = true;
  Time hold_ = 0;
  bool need_base_rtt_ = false;  // flows' base RTT and BDP (congestion control or host.window)
  BaseRtt max_base_rtt_;        // host.base_rtt = "max"
  std::vector<std::unique_ptr<RdmaNic>> hosts_;
  std::vector<std::unique_ptr<SwitchNode>> switches_;
  std::unique_ptr<RouteTable> routes_;
  HpccEcmpKeys hpcc_keys_;                           // switch.ecmp_hash = "hpcc" only
  std::unique_ptr<FlowDependencies> dependencies_;   // null when no flow waits
  std::vector<std::unique_ptr<PauseStorm>> storms_;  // [[event]] pause_storm
  std::unique_ptr<NvlinkFabric> nvlink_;             // null without NVLink
  std::unique_ptr<FlowLevelFabric> flow_level_;      // null in the packet model
  FlowLevelFabric::Path flow_level_path_;            // the path of the flow it starts (reused)
  std::vector<uint32_t> port_index_;  // flow level: each node's first port's capacity index
  std::vector<std::unique_ptr<FlowStarter>> starters_;  // one per thread
  std::vector<Time> delivered_at_;                      // per flow: flow_delivered_at
  std::vector<Time> sent_at_;                // per flow, when any connection has two: flow_sent_at
  Adjacency adjacency_;                      // every cable, up or down
  std::unique_ptr<LinkEvents> link_events_;  // null without link events
  std::vector<Reconvergence> reconvergences_;
  bool link_events_ended_ = false;  // EndLinkEvents
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
