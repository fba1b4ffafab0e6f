// Switch forwarding, admission, PFC generation and ECN marking.
#include "net/switch_node.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "net/pfc_frame.h"
#include "net/round_robin.h"

namespace dcqcn {

// The layouts switch_node.h's and egress_port.h's comments describe, checked: a reordering that
// breaks them fails to compile. offsetof on a class with virtual functions is only conditionally
// supported and warns; GCC and Clang give the real offsets, which is what we check.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
struct SwitchPortLayout {
  // What a packet passing an idle port reads of the port's own part (Enqueue's fast path and
  // NoteDataQueue, up to the control queue's size) follows the EgressPort part and its link
  // closely enough that all of it lies in the port's first 4 x 64 bytes: egress_port.h's "four
  // lines where there were six".
  static constexpr size_t kFourLines = 4 * 64;
  static_assert(offsetof(SwitchPort, owner_) + sizeof(SwitchPort::owner_) <= kFourLines);
  static_assert(offsetof(SwitchPort, nonempty_) + sizeof(SwitchPort::nonempty_) <= kFourLines);
  static_assert(offsetof(SwitchPort, rr_next_) + sizeof(SwitchPort::rr_next_) <= kFourLines);
  static_assert(offsetof(SwitchPort, max_bytes_) + sizeof(SwitchPort::max_bytes_) <= kFourLines);
  static_assert(offsetof(SwitchPort, queues_) + (kControlQueue + 1) * sizeof(Ring<Packet*>) <=
                kFourLines);
};
struct SwitchNodeLayout {
  // The class is line-aligned, so its first 64 bytes are one line ...
  static_assert(alignof(SwitchNode) == 64);
  // ... which holds what every arriving packet reads (Receive, CachedRoutePort) ...
  static_assert(offsetof(SwitchNode, ports_) + sizeof(SwitchNode::ports_) <= 64);
  static_assert(offsetof(SwitchNode, mmu_) + sizeof(SwitchNode::mmu_) <= 64);
  static_assert(offsetof(SwitchNode, flows_) + sizeof(SwitchNode::flows_) <= 64);
  static_assert(offsetof(SwitchNode, stats_) + sizeof(SwitchNode::stats_) <= 64);
  static_assert(offsetof(SwitchNode, watchdog_) + sizeof(SwitchNode::watchdog_) <= 64);
  // ... and the second line what a departure reads (OnDequeue).
  static_assert(offsetof(SwitchNode, port_ecn_) + sizeof(SwitchNode::port_ecn_) <= 128);
  static_assert(offsetof(SwitchNode, push_telemetry_) + sizeof(SwitchNode::push_telemetry_) <= 128);
  static_assert(offsetof(SwitchNode, sim_) + sizeof(SwitchNode::sim_) <= 128);
  static_assert(offsetof(SwitchNode, pool_) + sizeof(SwitchNode::pool_) <= 128);
};
#pragma GCC diagnostic pop

void SwitchPort::Enqueue(Packet* p) {
  const int q = p->priority;
  const Time now = sim_->Now();
  // Most packets find their port idle with nothing queued ahead of them in a class it may
  // send: they leave at once, as Kick would send them, without passing through the ring.
  if (idle(now) && queues_[kControlQueue].empty()) {
    if (q == kControlQueue) {
      owner_->OnDequeue(index(), q, p);
      Send(p, now);  // data may wait behind it
      return;
    }
    if (nonempty_ == 0 && !paused(q)) {
      // The queue rises by the packet and falls back at the same instant (an empty queue's
      // time integral gains nothing): only the maxima see it.
      NoteDataQueue(p->size);
      rr_next_ = RoundRobinAfter(q);
      owner_->OnDequeue(index(), q, p);
      // Nothing waits: it was the only packet, and a PFC frame that OnDequeue sent out of this
      // port (one back to where p came from) has already left through the control queue.
      SendAlone(p, now);
      return;
    }
  }
  queues_[q].push_back(p);
  bytes_[q] += p->size;
  if (q != kControlQueue) {
    nonempty_ |= 1u << q;
    AccountQueue();
    data_bytes_ += p->size;
    NoteDataQueue(data_bytes_);
  }
  Kick();
}

void SwitchPort::NoteDataQueue(Bytes bytes) {
  max_bytes_ = std::max(max_bytes_, bytes);
  if (bytes > stats_->max_queue_bytes) stats_->max_queue_bytes = bytes;
}

void SwitchPort::AccountQueue() {
  Time now = sim_->Now();
  // An empty queue or no time passed adds exactly +0.0: skip the arithmetic (most packets find
  // their port's queue empty, and leave it at the instant they arrive).
  if (data_bytes_ != 0 && now != last_change_) {
    double dt = static_cast<double>(now - last_change_);
    double q = static_cast<double>(data_bytes_);
    integral_ += q * dt;
    integral_sq_ += q * q * dt;
  }
  last_change_ = now;
}

void SwitchPort::StartStatistics() {
  integral_ = integral_sq_ = 0;
  max_bytes_ = data_bytes_;
  last_change_ = stats_start_ = sim_->Now();
  tx_bytes_at_start_ = link().busy_bytes();
}

SwitchPort::QueueStats SwitchPort::queue_stats(Time now) const {
  if (now <= stats_start_) return {0, 0, max_bytes_};
  double q = static_cast<double>(data_bytes_);
  double dt = static_cast<double>(now - last_change_);
  double span = static_cast<double>(now - stats_start_);
  double mean = (integral_ + q * dt) / span;
  double var = (integral_sq_ + q * q * dt) / span - mean * mean;
  return {mean, var > 0 ? std::sqrt(var) : 0.0, max_bytes_};
}

Packet* SwitchPort::NextPacket(Time now, Time* wake_at) {
  int queue = -1;
  if (!queues_[kControlQueue].empty()) {
    queue = kControlQueue;
  } else if (nonempty_ != 0) {
    queue = RoundRobin(nonempty_, rr_next_, [&](int q) {
      if (!paused(q)) return true;
      *wake_at = std::min(*wake_at, paused_until(q));
      return false;
    });
    if (queue >= 0) rr_next_ = RoundRobinAfter(queue);
  }
  if (queue < 0) return nullptr;
  Packet* p = queues_[queue].pop_front();
  bytes_[queue] -= p->size;
  if (queue != kControlQueue) {
    if (queues_[queue].empty()) nonempty_ &= ~(1u << queue);
    AccountQueue();
    data_bytes_ -= p->size;
  }
  owner_->OnDequeue(index(), queue, p);
  return p;
}

std::vector<Packet*> SwitchPort::TakeQueue(int queue) {
  std::vector<Packet*> taken;
  AccountQueue();
  while (!queues_[queue].empty()) taken.push_back(queues_[queue].pop_front());
  data_bytes_ -= bytes_[queue];
  bytes_[queue] = 0;
  nonempty_ &= ~(1u << queue);
  return taken;
}

SwitchNode::SwitchNode(Simulator* sim, NetStats* stats, PacketPool* pool, FlowTable* flows,
                       const SwitchConfig& config, int node_id, int num_ports, uint64_t seed)
    : ports_(static_cast<size_t>(num_ports)),
      flows_(flows),
      stats_(stats),
      sim_(sim),
      pool_(pool),
      config_(config),
      node_id_(node_id),
      hash_seed_(Rng(seed, 0x5157000 + node_id).Next()),
      rng_(seed, 0x5157 + node_id) {
  sim->Enroll(refresh_timers_);
  if (config.pfc.watchdog.enabled) {
    watchdog_ = std::make_unique<PfcWatchdog>(sim, stats, this, config.pfc.watchdog);
  }
}

SwitchPort& SwitchNode::AddPort() {
  return ports_.emplace_back(sim_, stats_, this, node_id_, static_cast<int>(ports_.size()));
}

void SwitchNode::InitMmu(int lossless_classes, Bytes mtu_frame, std::vector<Bytes> headroom,
                         const std::vector<int>& classes) {
  // ECN thresholds and the PFC alpha of each port follow its link rate.
  std::vector<double> alpha;
  port_ecn_.clear();
  for (const SwitchPort& port : ports_) {
    port_ecn_.push_back(config_.ecn.ForPortRate(port.rate()));
    alpha.push_back(config_.pfc.AlphaForRate(port.rate()));
  }
  mmu_ = std::make_unique<Mmu>(config_, std::move(headroom), lossless_classes, mtu_frame,
                               std::move(alpha), classes);
  refresh_gen_.assign(ports_.size() * kNumPriorities, 0);
  if (watchdog_) watchdog_->Init(num_ports());
  refresh_lead_ = PauseRefreshLeadBytes(mtu_frame);
}

uint64_t SwitchNode::FlowHash(const Packet& p) const {
  if (hpcc_keys_ != nullptr) {
    // ACKs, NACKs and CNPs travel back with the addresses and the ports swapped.
    uint32_t udp = hpcc_keys_->flow_ports[p.flow];
    if (p.type != PacketType::kData) udp = udp >> 16 | udp << 16;
    const uint32_t key[3] = {hpcc_keys_->host_ip[p.src], hpcc_keys_->host_ip[p.dst], udp};
    return HpccEcmpHash(key, hpcc_seed_);
  }
  // Hash of the 5-tuple (protocol and destination port are fixed for RoCEv2) with a per-switch
  // seed, so that consecutive tiers do not make the same choice.
  uint64_t h = hash_seed_ ^ (static_cast<uint64_t>(p.src) << 32) ^ static_cast<uint32_t>(p.dst);
  h ^= static_cast<uint64_t>(p.sport) << 16 ^ kRoceUdpPort;
  h *= 0x9e3779b97f4a7c15ULL;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 32;
  return h;
}

int SwitchNode::RoutePort(const Packet& p) const {
  return EqualCostPort(p,
                       [&](const uint16_t* ports, uint32_t n) { return ports[FlowHash(p) % n]; });
}

// Out of line, and reached only where route caches are off, as they are whenever a switch
// balances (Network::SetLoadBalancers): the per-flow path costs nothing more.
[[gnu::noinline]] int SwitchNode::UncachedRoutePort(const Packet& p) {
  // Control packets (ACK, NACK, CNP) keep their flow's ECMP path: balancing spreads the data
  // classes (our choice: control frames are small, and their order is what a sender reads).
  if (balancer_ == nullptr || p.priority == kControlQueue) return RoutePort(p);
  return EqualCostPort(p, [&](const uint16_t* ports, uint32_t n) {
    return balancer_->Choose(FlowHash(p), sim_->Now(), ports, n,
                             [this](int port) { return ports_[port].queued_bytes(); });
  });
}

int SwitchNode::CachedRoutePort(Packet& p) {
  const int hop = p.switch_hops;
  if (hop < UINT8_MAX) ++p.switch_hops;
  const Flow* f = flows_->find(p.flow);
  if (hop >= flows_->route_cache_hops() || f == nullptr) [[unlikely]]
    return hop < kTtlHops ? UncachedRoutePort(p) : kNoRoute;
  return f->route_cache[p.type == PacketType::kData ? 0 : 1][hop];
}

void SwitchNode::Receive(Packet* p, int in_port) {
  if (p->type == PacketType::kPause) {
    const int prio = p->pause_class;
    const bool pause = p->pause_quanta != 0;
    if (watchdog_ == nullptr || !watchdog_->OnPfcFrame(in_port, prio, pause)) {
      ports_[in_port].OnPauseFrame(prio, p->pause_quanta, config_.pfc.pause_until_resume,
                                   p->switch_hops);
      if (watchdog_ != nullptr && pause) watchdog_->AfterPause(in_port, prio);
    }
    pool_->Free(p);
    return;
  }
  const int out = CachedRoutePort(*p);
  if (out == kNoRoute) [[unlikely]] {
    DiscardUnroutable(p);
    return;
  }
  if (p->priority == kControlQueue) {
    // Control traffic (ACK, NACK, CNP) bypasses admission, as in HPCC's switch.
    ports_[out].Enqueue(p);
    return;
  }
  if (watchdog_ != nullptr && watchdog_->Drops(out, p->priority)) [[unlikely]] {
    ++stats_->pfc_watchdog_drops;
    Discard(p);
    return;
  }
  const Mmu::Arrival arrival = mmu_->OnArrival(in_port, p->priority, p->size);
  if (arrival == Mmu::Arrival::kDrop) {
    Discard(p);
    return;
  }
  p->in_port = static_cast<uint16_t>(in_port);
  if (arrival == Mmu::Arrival::kAdmitAndPause) SendPfc(in_port, p->priority, true);
  ports_[out].Enqueue(p);
}

void SwitchNode::OnDequeue(int port, int queue, Packet* p) {
  if (push_telemetry_ && p->cc_header != 0 && p->type == PacketType::kData) {
    // HPCC's INT, pushed as the packet leaves (HPCC ns-3 SwitchNotifyDequeue): what the port
    // had sent before it and what stays queued behind it, over all classes.
    const SwitchPort& out = ports_[port];
    pool_->cc_header(p->cc_header)
        .telemetry.Push(
            {sim_->Now(), out.link().busy_bytes(), out.queued_bytes_all_classes(), out.rate()});
  }
  if (queue == kControlQueue) return;
  // The port has already taken the packet off its queue: RED sees the length after departure.
  if (p->type == PacketType::kData &&
      Mmu::ShouldMark(port_ecn_[port], ports_[port].queued_bytes(queue), rng_)) {
    if (!p->ce) ++stats_->ecn_marked_packets;
    p->ce = true;
  }
  const int in = p->in_port;
  if (mmu_->OnDeparture(in, queue, p->size)) SendPfc(in, queue, false);
}

void SwitchNode::Discard(Packet* p) {
  stats_->CountLoss(p->flow, p->payload);
  pool_->Free(p);
}

void SwitchNode::DiscardUnroutable(Packet* p) {
  if (p->switch_hops > kTtlHops) {
    ++stats_->ttl_drops;
  } else {
    ++stats_->link_drops;
  }
  Discard(p);
}

void SwitchNode::PauseAgain(int port) {
  for (int prio = 0; prio < kNumPriorities; ++prio) {
    if (prio != kControlQueue && mmu_->paused(port, prio)) SendPfc(port, prio, true);
  }
}

void SwitchNode::DropQueue(int port, int queue) {
  for (Packet* p : ports_[port].TakeQueue(queue)) {
    ++stats_->pfc_watchdog_drops;
    // Its buffer is freed as if it had left: the ingress it came through may resume.
    if (mmu_->OnDeparture(p->in_port, queue, p->size)) SendPfc(p->in_port, queue, false);
    Discard(p);
  }
}

Time SwitchNode::PauseDuration(int port) const {
  return PauseQuantaToTime(config_.pfc.pause_quanta, ports_[port].rate());
}

// Half the pause time (as ns3-rdma), unless that would let the pause run out: a refresh may
// wait for the frame in transmission and then takes its own time on the wire (a PAUSE acts at
// frame boundaries, 802.3 Annex 31B / 802.1Qbb), so it is sent that long before the pause ends.
// Never more often than PAUSE frames can leave; a pause shorter than that cannot be kept up
// (PauseQuantaCanBeRefreshed; `dcqcn check` warns).
Time SwitchNode::RefreshInterval(int port) const {
  const Rate rate = ports_[port].rate();
  const Time pause = PauseDuration(port);
  const Time lead = SerializationTime(refresh_lead_, rate);
  return std::max(std::min(pause / 2, pause - lead),
                  SerializationTime(WireBytes(kPauseFrameBytes), rate));
}

void SwitchNode::SendPfc(int port, int prio, bool pause) {
  mmu_->SetPaused(port, prio, pause);
  Packet* f =
      NewPfcFrame(*pool_, *stats_, prio, pause ? config_.pfc.pause_quanta : 0, PausedHops());
  uint32_t& gen = refresh_gen_[port * kNumPriorities + prio];
  ++gen;
  if (pause && !config_.pfc.pause_until_resume) {
    // Refreshed while still congested, so the upstream never resumes on expiry while the queue
    // is above XON.
    uint64_t arg =
        (static_cast<uint64_t>(gen) << 32) | static_cast<uint32_t>(port * kNumPriorities + prio);
    sim_->Schedule(sim_->Now() + RefreshInterval(port), &refresh_timers_, 0, arg);
  }
  ports_[port].Enqueue(f);
}

int SwitchNode::PausedHops() const {
  int hops = 0;
  for (const SwitchPort& port : ports_) {
    const int h = port.pause_hops();
    if (h > 0 && (hops == 0 || h < hops)) hops = h;
  }
  return hops;
}

void SwitchNode::Refresh(uint64_t arg) {
  uint32_t slot = static_cast<uint32_t>(arg);
  uint32_t gen = static_cast<uint32_t>(arg >> 32);
  if (gen != refresh_gen_[slot]) return;  // a RESUME or newer PAUSE superseded this timer
  int port = static_cast<int>(slot) / kNumPriorities;
  int prio = static_cast<int>(slot) % kNumPriorities;
  if (mmu_->paused(port, prio)) SendPfc(port, prio, true);
}

}  // namespace dcqcn
