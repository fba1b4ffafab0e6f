// A shared-buffer switch: forwarding with ECMP, ingress admission and PFC generation through
// its MMU, output ports with 8 queues (control strict-high, data round-robin) and ECN marking
// at dequeue.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "core/fixed_vector.h"
#include "core/rng.h"
#include "net/egress_port.h"
#include "net/flow_table.h"
#include "net/hpcc_ecmp.h"
#include "net/load_balancer.h"
#include "net/mmu.h"
#include "net/node.h"
#include "net/packet.h"
#include "net/pfc_watchdog.h"
#include "net/ring.h"
#include "net/routing.h"

namespace dcqcn {

class SwitchNode;

class SwitchPort : public EgressPort {
 public:
  SwitchPort(Simulator* sim, NetStats* stats, SwitchNode* owner, int node_id, int index)
      : EgressPort(sim, stats, node_id, index), owner_(owner) {}
  void Enqueue(Packet* p);
  Bytes queued_bytes() const { return data_bytes_; }
  Bytes queued_bytes_all_classes() const { return data_bytes_ + bytes_[kControlQueue]; }
  // Time-weighted statistics of the data queue from time 0 to `now`.
  struct QueueStats {
    double mean_bytes;
    double std_bytes;
    Bytes max_bytes;
  };
  QueueStats queue_stats(Time now) const;
  // Restarts the statistics (queue and transmitted bytes) at the end of a warm-up period.
  void StartStatistics();
  Bytes tx_bytes_since_start() const { return link().busy_bytes() - tx_bytes_at_start_; }
  Time stats_start() const { return stats_start_; }
  // What the statistics above are made of, and taking another's: a run spread over processes
  // brings the statistics of the ports other processes ran to the one writing results (the
  // copy reports them; its queues stay empty).
  struct Statistics {
    Bytes max_bytes;
    Bytes data_bytes;
    Time last_change;
    Time stats_start;
    Bytes tx_bytes_at_start;
    double integral;
    double integral_sq;
  };
  Statistics statistics() const {
    return {max_bytes_,         data_bytes_, last_change_, stats_start_,
            tx_bytes_at_start_, integral_,   integral_sq_};
  }
  void AdoptStatistics(const Statistics& s) {
    max_bytes_ = s.max_bytes;
    data_bytes_ = s.data_bytes;
    last_change_ = s.last_change;
    stats_start_ = s.stats_start;
    tx_bytes_at_start_ = s.tx_bytes_at_start;
    integral_ = s.integral;
    integral_sq_ = s.integral_sq;
  }
  Bytes queued_bytes(int queue) const { return bytes_[queue]; }
  int64_t queued_packets(int queue) const { return static_cast<int64_t>(queues_[queue].size()); }
  // The packets of class queue `queue`, first to leave first (for deadlock reports).
  const Ring<Packet*>& queue(int queue) const { return queues_[queue]; }
  // Empties data queue `queue` and hands its packets over, first to leave first.
  std::vector<Packet*> TakeQueue(int queue);

 protected:
  Packet* NextPacket(Time now, Time* wake_at) override;
  Time NextReadyTime(Time now) const override {
    return nonempty_ != 0 || !queues_[kControlQueue].empty() ? now : kTimeNever;
  }

 private:
  friend struct SwitchPortLayout;  // switch_node.cc: static_asserts of the order below
  // What a packet that passes an idle port touches comes first, next to the EgressPort part:
  // on a large fabric each further cache line is a likely miss.
  SwitchNode* owner_;
  uint32_t nonempty_ = 0;  // bit q set: data queue q holds packets
  int rr_next_ = 1;        // round-robin position among data queues 1..7
  Bytes max_bytes_ = 0;
  std::array<Ring<Packet*>, kNumPriorities> queues_;  // the control queue's size, first
  Bytes data_bytes_ = 0;                              // all data queues
  Time last_change_ = 0;
  std::array<Bytes, kNumPriorities> bytes_{};
  void AccountQueue();              // integrates the queue length up to now before it changes
  void NoteDataQueue(Bytes bytes);  // the data queues hold `bytes`: the maxima follow
  Time stats_start_ = 0;
  Bytes tx_bytes_at_start_ = 0;
  double integral_ = 0;     // sum of queue bytes x ps
  double integral_sq_ = 0;  // sum of queue bytes^2 x ps
};

class alignas(64) SwitchNode : public Node {
 public:
  // `flows`: the flows in flight, whose route caches it reads (it writes no flow state).
  SwitchNode(Simulator* sim, NetStats* stats, PacketPool* pool, FlowTable* flows,
             const SwitchConfig& config, int node_id, int num_ports, uint64_t seed);

  // Building: its `num_ports` ports are added first, then routes, then the MMU is sized.
  SwitchPort& AddPort();
  // The network's routes; `index` is this switch's index among the switches.
  void SetRoutes(const RouteTable* routes, int index) {
    routes_ = routes;
    index_ = index;
  }
  // `classes`: the priorities data arrives in (Mmu).
  void InitMmu(int lossless_classes, Bytes mtu_frame, std::vector<Bytes> headroom,
               const std::vector<int>& classes = {});
  // Hash as HPCC ns-3 does (switch.ecmp_hash = "hpcc"), seeded with `hpcc_node_id`.
  void SetHpccEcmp(const HpccEcmpKeys* keys, int hpcc_node_id) {
    hpcc_keys_ = keys;
    hpcc_seed_ = static_cast<uint32_t>(hpcc_node_id);
  }

  // Spread data packets per flowlet or per packet (switch.load_balancing) instead of per flow;
  // the network then stops its flows' route caches, whose paths no longer hold.
  void SetLoadBalancer(std::unique_ptr<LoadBalancer> balancer) { balancer_ = std::move(balancer); }

  // Push HPCC's in-band telemetry onto data packets as they leave (CcNeeds::telemetry).
  void SetPushTelemetry(bool on) { push_telemetry_ = on; }

  void Receive(Packet* p, int port) override;

  // Called by a port when `p` leaves queue `queue`.
  void OnDequeue(int port, int queue, Packet* p);
  // The PFC watchdog's drop action: discards what waits in data queue `queue` of `port`.
  void DropQueue(int port, int queue);

  int node_id() const { return node_id_; }
  int num_ports() const { return static_cast<int>(ports_.size()); }
  SwitchPort& port(int i) { return ports_[i]; }
  const Mmu& mmu() const { return *mmu_; }
  // RED thresholds of port `p` (by its link rate).
  const EcnConfig& port_ecn(int p) const { return port_ecn_[p]; }
  // The egress port for `p` by the route table (ECMP among equal-cost ports), or kNoRoute when
  // the table has none (a destination cut off by a failed link).
  static constexpr int kNoRoute = -1;
  int RoutePort(const Packet& p) const;
  // The hash of `p`'s 5-tuple that ECMP takes modulo the number of equal-cost ports.
  uint64_t FlowHash(const Packet& p) const;
  // RoutePort, read from the flow's route cache (filled at its start) within its first
  // FlowTable::route_cache_hops() switches (none when a switch balances per packet: then the
  // balancer's choice); counts the hop on the packet. kNoRoute also for a
  // packet that has passed kTtlHops switches (a routing loop: its TTL ran out).
  int CachedRoutePort(Packet& p);
  // IP's TTL as NICs set it (Linux and ConnectX default: 64): the switches a packet may pass.
  static constexpr int kTtlHops = 64;
  // The link on `port` came back: PAUSE again, across it, every class this switch holds paused
  // there (what it sent while the link was down was lost).
  void PauseAgain(int port);
  const SwitchPort& port(int i) const { return ports_[i]; }

 private:
  // PFC refresh timers: a handler apart, so that the node's first line holds what packets read.
  class RefreshTimers final : public EventHandler {
   public:
    explicit RefreshTimers(SwitchNode* node) : node_(node) {}
    void HandleEvent(uint32_t, uint64_t arg) override { node_->Refresh(arg); }

   private:
    SwitchNode* node_;
  };
  // A refresh timer expired: pause again if still congested.
  void Refresh(uint64_t arg);
  void SendPfc(int port, int prio, bool pause);
  // RoutePort, or for a data packet the balancer's choice when the switch has one (kNoRoute as
  // RoutePort): where no route cache holds the packet's port.
  int UncachedRoutePort(const Packet& p);
  // The equal-cost port towards `p`'s destination that pick(ports, n) chooses when there are
  // n >= 2 (the only one, or kNoRoute for none).
  template <class Pick>
  int EqualCostPort(const Packet& p, Pick&& pick) const {
    auto [ports, n] = routes_->Ports(index_, p.dst);
    if (n == 1) return ports[0];
    if (n == 0) [[unlikely]]
      return kNoRoute;
    return pick(ports, n);
  }
  // Drops `p`: counted, and its flow's count of packets left corrected.
  void Discard(Packet* p);
  // Drops `p`, which has no route (kNoRoute): its TTL ran out or a link failure cut it off.
  void DiscardUnroutable(Packet* p);
  // The fewest hops of the PAUSE frames its ports obeyed (EgressPort::pause_hops), 0 if none.
  int PausedHops() const;
  Time PauseDuration(int port) const;
  Time RefreshInterval(int port) const;

  friend struct SwitchNodeLayout;  // switch_node.cc: static_asserts of the order below
  // What every arriving packet reads first, in the line the node's vtable pointers start (the
  // class is line-aligned): one line instead of three at k = 34, where switches fall out of the
  // cache between packets. What its departure reads (OnDequeue) fills the second line.
  // In one block: a port's address is computed, not loaded from an array of pointers (at k = 34
  // that array was a likely miss per packet).
  FixedVector<SwitchPort> ports_;
  std::unique_ptr<Mmu> mmu_;
  FlowTable* flows_;
  NetStats* stats_;
  std::unique_ptr<PfcWatchdog> watchdog_;  // with switch.pfc.watchdog (Receive tests it)
  std::vector<EcnConfig> port_ecn_;        // each port's RED thresholds, by its link rate
  bool push_telemetry_ = false;
  Simulator* sim_;
  PacketPool* pool_;
  std::unique_ptr<LoadBalancer> balancer_;  // unless switch.load_balancing = "ecmp"
  SwitchConfig config_;
  int node_id_;
  uint64_t hash_seed_;
  const HpccEcmpKeys* hpcc_keys_ = nullptr;  // set: HPCC ns-3's hash
  uint32_t hpcc_seed_ = 0;
  Rng rng_;
  const RouteTable* routes_ = nullptr;
  int index_ = 0;
  std::vector<uint32_t> refresh_gen_;  // per (port, prio): generation of the refresh timer
  Bytes refresh_lead_ = 0;             // PauseRefreshLeadBytes of the largest data frame (InitMmu)
  RefreshTimers refresh_timers_{this};
};

}  // namespace dcqcn
