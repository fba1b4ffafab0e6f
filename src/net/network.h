// A whole simulated network built from a NetworkConfig: hosts (RDMA NICs), switches, links, routes
// and flows, sharing one simulator, packet pool and set of counters. A flow's transport and
// congestion-control state exists only while it is in flight (FlowTable); what outlives it is its
// spec and its outcome (finish time, bytes delivered).
//
// With NetworkConfig::threads > 1 the nodes are split over threads (ThreadPlacement), each with
// its own simulator, pool and counters (a Part), run in windows of simulated time no longer than
// the smallest delay between two threads' nodes, side by side; what crosses between threads is
// taken in between windows, and observers (sim(): samplers) run there too. Results are the same
// byte for byte as with one thread: events are ordered by keys that do not depend on the
// interleaving (Simulator), and what parts record is merged by those keys.
//
// With NetworkConfig::ranks (mpirun), the parts are spread over processes as well: every process
// builds the whole network and runs its own parts; what crosses into another process's part is
// copied there between windows (network_ranks.cc), a flow exists in every process its packets
// reach, and the counters, loop state and, at the end, what the results read are gathered.
#pragma once

#include <algorithm>
#include <array>
#include <iterator>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cc/cc_algorithm.h"
#include "core/simulator.h"
#include "core/thread_team.h"
#include "net/base_rtt.h"
#include "net/deadlock_detector.h"
#include "net/flow.h"
#include "net/flow_dependencies.h"
#include "net/flow_starter.h"
#include "net/flow_table.h"
#include "net/hpcc_ecmp.h"
#include "net/network_config.h"
#include "net/nvlink_fabric.h"
#include "net/packet.h"
#include "net/pause_storm.h"
#include "net/rank_exchange.h"
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

  // The simulator of the whole run: with one thread, the one every node runs on; split over
  // threads, the one observers (samplers, the warm-up's end) run on, between windows. Run with
  // RunUntil below, which runs every thread.
  Simulator& sim() { return parts_.size() == 1 ? parts_[0]->sim : observers_; }
  // The counters (split over threads: summed when RunUntil returns).
  NetStats& stats() { return parts_.size() == 1 ? parts_[0]->stats : stats_; }
  const NetStats& stats() const { return parts_.size() == 1 ? parts_[0]->stats : stats_; }
  // Runs events with time <= until, stopping once about `max_events` have run (split over
  // threads: at the end of the window that passes it). Over ranks, every rank calls it alike.
  void RunUntil(Time until, uint64_t max_events = UINT64_MAX);
  // Over ranks: the processes the run is spread over, and this one's (0 writes the results).
  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  // Whether this process runs node `node` (always, in one process).
  bool RunsNode(int node) const { return Runs(placement_.thread_of[node]); }
  // Over ranks: every rank's `mine`, by rank, on rank 0 (empty on the others). Collective.
  std::vector<std::string> GatherAtRankZero(std::string mine);
  // Over ranks, once the run is over: what the results read of the flows, ports and NICs that
  // other ranks ran (outcomes, port statistics and pause state, link use, congestion-control
  // counters, the PFC log) is brought to rank 0's copy of the network, which then answers as
  // one process would. Collective. Call after CheckInvariants (rank 0's copies of other ranks'
  // ports report statistics but hold no packets).
  void CollectResults();
  // The switch egress queues that hold data and are paused, with what deadlock detection reads
  // of them; over ranks, every rank's (collective).
  std::vector<PausedQueue> PausedQueues() const;
  // The time of the last event run, the events run, pending, and the next one's time.
  Time Now() const;
  uint64_t events_executed() const;
  size_t pending() const;
  Time next_time();
  // Threads the run is split over (1: not split), and how.
  int threads() const { return static_cast<int>(parts_.size()); }  // over all ranks
  const ThreadPlacement& placement() const { return placement_; }
  // Every flow of the workload, by id.
  size_t num_flows() const { return config_.flows.size(); }
  const FlowSpec& flow_spec(uint32_t id) const { return config_.flows[id]; }
  // The flows in flight: started and not retired.
  const FlowTable& flows_in_flight() const { return flows_; }
  // Flow `id`'s outcome so far: when its sender got the last ACK (-1 = not yet) and the bytes
  // its receiver got in order.
  Time flow_finish(uint32_t id) const {
    const Flow* f = collected_ ? nullptr : flows_.find(id);
    return f != nullptr ? f->finish : outcomes_[id].finish;
  }
  Bytes flow_delivered(uint32_t id) const {
    const Flow* f = collected_ ? nullptr : flows_.find(id);
    return f != nullptr ? f->bytes_delivered : outcomes_[id].delivered;
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
  // The last finish so far (0 = none).
  Time last_finish() const {
    if (ranks_ > 1) return totals_.last_finish;
    Time last = 0;
    for (const auto& part : parts_) last = std::max(last, part->last_finish);
    return last;
  }
  // A finished flow stays in flight until `hold` after its finish (and until its last packet
  // is gone): the time series samples a flow one interval past its finish.
  void HoldFinishedFlows(Time hold) { hold_ = std::max(hold_, hold); }
  PacketPool& pool() { return parts_[0]->pool; }
  std::vector<std::unique_ptr<SwitchNode>>& switches() { return switches_; }
  const std::vector<std::unique_ptr<SwitchNode>>& switches() const { return switches_; }
  std::vector<std::unique_ptr<RdmaNic>>& hosts() { return hosts_; }
  // The config it was built from.
  const NetworkConfig& config() const { return config_; }
  int flows_done() const {
    if (ranks_ > 1) return static_cast<int>(totals_.flows_done);
    int done = 0;
    for (const auto& part : parts_) done += part->flows_done;
    return done;
  }
  // The first start of a flow that waits for nothing: the origin of the run's active interval (HPCC
  // inputs start at 2 s).
  Time first_start() const { return first_start_; }
  // Congestion-control event counts summed over every NIC.
  CcCounters cc_counters() const;
  bool all_done() const { return flows_done() == static_cast<int>(num_flows()); }
  // Headroom the MMU of switch `sw` reserves on `port` per lossless priority.
  Bytes headroom(int sw, int port) const { return switches_[sw]->mmu().headroom(port); }

  // Node `node`'s ports (a host has one): the (peer node, peer port) each is cabled to, and the
  // link it sends on.
  int num_ports(int node) const { return static_cast<int>(adjacency_[node].size()); }
  std::pair<int, int> peer(int node, int port) const { return adjacency_[node][port]; }
  const Link& link(int node, int port) const { return LinkAt(node, port); }
  // The transmit side of port `port` of `node` (its pause state).
  const EgressPort& egress(int node, int port) const;
  // `on_send` sees every packet node `node`'s port `port` sends, `on_receive` every one it
  // receives.
  void Tap(int node, int port, PacketTap* on_send, PacketTap* on_receive);

  // Whether flow `id` goes over its server's NVLink (NetworkConfig::nvlink), not the NICs: it
  // has no packets, path or congestion control.
  bool OverNvlink(uint32_t id) const {
    return nvlink_ != nullptr && nvlink_->Carries(config_.flows[id].src, config_.flows[id].dst);
  }
  // NVLink transfers under way.
  int nvlink_active() const { return nvlink_ != nullptr ? nvlink_->active() : 0; }

  // The links flow `id`'s packets take (following ECMP as the switches hash it); none for a
  // flow over NVLink.
  std::vector<LinkSpec> PathOf(uint32_t id) const;
  // The same as the (node, port) pairs that send flow `id`'s data (parallel cables stay apart).
  // `direction` 1: the ports that send its ACKs back.
  std::vector<std::pair<int, int>> PortPathOf(uint32_t id, int direction = 0) const;
  // The loops static routes ([[route]]) make, one line each ("packets to h3 can loop: s0 ->
  // s1 -> s0"), for `dcqcn check` to warn about. A flow that takes one loses its packets when
  // their TTL runs out (SwitchNode::kTtlHops).
  std::vector<std::string> RouteLoops() const;
  // Throws InvariantError if a flow's route cache disagrees with the route tables.
  void CheckRouteCaches() const;
  // Ideal completion time of flow `id`, as HPCC defines it (used for slowdown); over NVLink,
  // its bytes at the NVLink rate plus its delay.
  Time IdealFct(uint32_t id) const;
  // Flow `id`'s time from its start to its last byte's delivery on an idle network: its first
  // packet stored and forwarded hop by hop, the rest of its bytes at the bottleneck rate. With
  // `acks_share_links`, each data packet's link also carries the ACK of a packet coming the
  // other way (a rank that receives as fast as it sends, as in every collective). The scenario's
  // wire format without a congestion-control header, as IdealFct.
  Time IdealDelivery(uint32_t id, bool acks_share_links) const;
  // The wire bytes of flow `id`'s data frames (payload, headers, preamble and gap), in the
  // scenario's wire format without a congestion-control header.
  Bytes DataWireBytes(uint32_t id) const;
  // Its latency part: the first packet's time over the path (NVLink: its delay).
  Time IdealLatency(uint32_t id) const;
  // From its last byte's delivery to its sender's getting the ACK: the ACK's path, delays and
  // one ACK frame per hop (0 over NVLink).
  Time IdealAckReturn(uint32_t id) const;

  // Each time the routes followed the links (topology.reconvergence after a link event): when,
  // how many flows in flight then took another path (either way), and how many had no path
  // left (a host cut off).
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

 private:
  // What a tap of a split run saw, kept until it is shown it between windows.
  struct TapRecord {
    Time time;
    uint64_t order;  // the key of the event that saw it (Simulator::running_order)
    uint32_t tap;    // the DeferredTap's place in deferred_taps_ (alike in every rank)
    Packet packet;
  };
  // What the nodes one thread runs share: their event loop, counters and packets, the flows
  // they finished, and what they sent into other threads' parts in the current window.
  struct alignas(64) Part {
    explicit Part(CcHeaderStore* headers) : pool(headers) {}
    Simulator sim;
    NetStats stats;
    PacketPool pool;
    std::vector<uint32_t> finished;  // finished flows sent from here, not yet retired
    int flows_done = 0;
    Time last_finish = 0;
    // By destination thread: what links sent there in this window, and in the last (sealed
    // at its end, two by window parity, for that thread to take in at the next one's start).
    std::vector<std::vector<Crossing>> outbox;
    std::array<std::vector<std::vector<Crossing>>, 2> sealed;
    Time sealed_first = kTimeNever;  // the earliest arrival sealed in the last window
    std::vector<TapRecord> taps;     // what taps saw, to be shown them in order between windows
  };
  // A tap of a split run: records what it sees in its part, for the real one to see later.
  class DeferredTap final : public PacketTap {
   public:
    DeferredTap(Part* part, PacketTap* tap, uint32_t index)
        : part_(part), tap_(tap), index_(index) {}
    void OnPacket(const Packet& p, Time now) override {
      part_->taps.push_back({now, part_->sim.running_order(), index_, p});
    }
    PacketTap* tap() const { return tap_; }

   private:
    Part* part_;
    PacketTap* tap_;
    uint32_t index_;
  };
  // Shows the taps what they saw, in one run's order.
  void ShowTaps(std::vector<TapRecord>& seen);
  Part& PartOf(int node) const { return *parts_[placement_.thread_of[node]]; }
  // Over ranks: the rank that runs part `t` (consecutive parts, neighbouring regions, go
  // together), and whether it is this one.
  int RankOfPart(int t) const { return static_cast<int>(int64_t{t} * ranks_ / threads()); }
  bool Runs(int t) const { return RankOfPart(t) == rank_; }
  // Over ranks, at each window's start: what the last window sealed for other ranks' parts is
  // sent there and what they sealed for this one's taken (into their parts' sealed boxes here),
  // and the ranks learn the earliest event anywhere and the events run so far (network_ranks.cc).
  struct Totals {
    Time earliest = kTimeNever;  // of any part's events or sealed arrivals
    uint64_t events = 0;
    // At the end of RunUntil (SumTotals):
    Time now = 0;
    uint64_t pending = 0;
    Time next = kTimeNever;
    int64_t flows_done = 0;
    Time last_finish = 0;
  };
  Totals ExchangeCrossings();
  // Over ranks, at the end of RunUntil: the counters and loop state summed over the ranks.
  void SumTotals();
  // Over ranks: flow `id`'s state in a rank its sender is not in, made when its first packet
  // comes in (switches read its route cache, its receiver the rest).
  void EnsureFlow(uint32_t id);
  // The flow's state, as its start makes it (without starting it).
  Flow& CreateFlow(uint32_t id);
  // Split over threads: one window up to `limit` on every thread.
  void RunWindow(Time limit);
  // Thread `t`'s start of a window: it takes in what other threads sent it in the last one.
  void TakeIn(int t, int parity);
  // Thread `t`'s end of a window: it seals what it sent.
  void Seal(int t, int parity);
  // Between windows: the parts' counters as one run's.
  void MergeCounters();
  // Between windows: what the parts logged (PFC frames) and their taps saw, in one run's order.
  void MergeLogs();
  // Records of several parts in the order one loop makes them: by time, then by the key of the
  // event that made them (unique per event); one event's records are in one part, in order.
  template <class Iterator>
  static void SortAsOneLoop(Iterator first, Iterator last) {
    using Record = typename std::iterator_traits<Iterator>::value_type;
    std::stable_sort(first, last, [](const Record& a, const Record& b) {
      return a.time < b.time || (a.time == b.time && a.order < b.order);
    });
  }
  // For every node, its ports' peers: (peer node, peer port); a port whose cable is down has
  // peer -1 in the live view the routes are computed from.
  using Adjacency = std::vector<std::vector<std::pair<int, int>>>;
  // Shortest-path routes over the cables of `live`, with the static routes' live next hops.
  std::unique_ptr<RouteTable> ComputeRoutes(const Adjacency& live) const;
  void BuildRoutes();
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
  // Retires the finished flows that are done with (RetireFinished's rule).
  void RetireFinished();
  NetworkConfig config_;
  WireFormat wire_;  // config_.wire with congestion control's header added
  ThreadPlacement placement_;
  CcHeaderStore cc_headers_;                  // shared by the parts' pools
  std::vector<std::unique_ptr<Part>> parts_;  // one per thread
  Simulator observers_;                       // split over threads: the observers' (sim())
  NetStats stats_;                            // split over threads: the parts' counters, merged
  std::unique_ptr<ThreadTeam> team_;
  int window_parity_ = 0;
  std::vector<std::unique_ptr<DeferredTap>> deferred_taps_;
  // Over ranks: what this rank's taps saw in the last window, for rank 0 to show them.
  std::vector<TapRecord> taps_for_rank_zero_;
  // Links between threads: their receiving halves, and the way there.
  std::vector<std::unique_ptr<Link>> receiving_halves_;
  std::vector<std::unique_ptr<CrossingRoute>> crossing_routes_;
  // Over ranks: who we are, and each receiving half's place in receiving_halves_ (alike in every
  // rank: what crosses between ranks names its link by it).
  RankExchange* exchange_ = nullptr;
  int rank_ = 0;
  int ranks_ = 1;
  int first_local_ = 0;  // the parts this process runs: [first_local_, first_local_ + local_)
  int local_ = 1;
  std::unordered_map<const Link*, uint32_t> receiving_half_index_;
  Totals totals_;
  bool collected_ = false;  // CollectResults has run: outcomes_ holds every flow's
  CcCounters collected_cc_;
  FlowTable flows_;
  // Per flow: its UDP source port, and the outcome of a retired flow.
  std::vector<uint16_t> sports_;
  struct Outcome {
    Time finish = -1;
    Bytes delivered = 0;
  };
  std::vector<Outcome> outcomes_;
  static constexpr size_t kMinRetireBatch = 256;
  size_t next_retire_ = kMinRetireBatch;  // retire when finished_ reaches this many
  Time hold_ = 0;
  Time last_finish_ = 0;
  bool need_base_rtt_ = false;  // flows' base RTT and BDP (congestion control or host.window)
  BaseRtt max_base_rtt_;        // host.base_rtt = "max"
  std::vector<std::unique_ptr<RdmaNic>> hosts_;
  std::vector<std::unique_ptr<SwitchNode>> switches_;
  std::unique_ptr<RouteTable> routes_;
  HpccEcmpKeys hpcc_keys_;                              // switch.ecmp_hash = "hpcc" only
  std::unique_ptr<FlowDependencies> dependencies_;      // null when no flow waits
  std::vector<std::unique_ptr<PauseStorm>> storms_;     // [[event]] pause_storm
  std::unique_ptr<NvlinkFabric> nvlink_;                // null without NVLink
  std::vector<std::unique_ptr<FlowStarter>> starters_;  // one per thread
  std::vector<Time> delivered_at_;                      // per flow: flow_delivered_at
  Adjacency adjacency_;                                 // every cable, up or down
  std::unique_ptr<LinkEvents> link_events_;             // null without link events
  std::vector<Reconvergence> reconvergences_;
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
