// Network construction: nodes, ports, links, routes (shortest paths with ECMP) and flows.
#include "net/network.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <string>

#include "core/error.h"
#include "net/base_rtt.h"
#include "net/flow_starter.h"
#include "net/headers.h"

namespace dcqcn {

Bytes AutoHeadroom(Rate rate, Time delay, Bytes mtu_frame) {
  return BytesInTime(2 * delay, rate) + 3 * WireBytes(mtu_frame) + WireBytes(kPauseFrameBytes);
}

Bytes PortHeadroom(const PfcConfig& pfc, Rate rate, Time delay, Bytes mtu_frame) {
  switch (pfc.headroom_rule) {
    case PfcConfig::HeadroomRule::kAuto:
      return AutoHeadroom(rate, delay, mtu_frame);
    case PfcConfig::HeadroomRule::kHpcc: {
      // HPCC ns-3 third.cc: rate (bps) * delay (whole ns) / 8 / 1e9 * 3, in integers.
      const __int128 one_way = static_cast<__int128>(rate) * (delay / kNanosecond) / 8 / 1000000000;
      return static_cast<Bytes>(std::min<__int128>(3 * one_way, INT64_MAX / 4));
    }
    case PfcConfig::HeadroomRule::kFixed:
      break;
  }
  return pfc.headroom;
}

Network::Network(NetworkConfig config)
    : config_(std::move(config)),
      wire_(config_.wire),
      placement_(PlaceOnThreads(
          config_.topology, CanSplit(config_.flow_level, config_.after) ? config_.parts : 1,
          config_.nvlink.enabled() ? config_.nvlink.gpus_per_server : 1, config_.node_work)),
      // The flow level streams its flows without making any.
      flows_(config_.flow_level ? 0 : config_.flows.size(),
             static_cast<size_t>(placement_.threads)) {
  const NetworkConfig& s = config_;
  const Topology& topo = s.topology;
  // Congestion control's own header (HPCC's INT, TIMELY's time stamp) on data and ACKs.
  if (config_.cc == nullptr) throw InvariantError("Network: no congestion control");
  const CcNeeds needs = config_.cc->needs();
  if (needs.header_bytes > 0) {
    wire_.data_headers += needs.header_bytes;
    wire_.ack_frame = std::max(wire_.ack_frame, wire_.ack_headers + needs.header_bytes);
  }
  const int num_hosts = topo.hosts;
  const int num_nodes = topo.num_nodes();
  const int threads = placement_.threads;
  for (int t = 0; t < threads; ++t) {
    parts_.push_back(std::make_unique<Part>(&cc_headers_));
    Part& part = *parts_.back();
    if (t > 0) part.sim.ShareIdsWith(parts_[0]->sim);
    part.stats.log_pfc = s.log_pfc;
    part.outbox.resize(threads);
  }
  // Split, observers run on a loop of their own and the counters are the parts' summed.
  observers_ = &parts_[0]->sim;
  stats_ = &parts_[0]->stats;
  if (threads > 1) {
    own_observers_.ShareIdsWith(parts_[0]->sim);
    observers_ = &own_observers_;
    merged_stats_.log_pfc = s.log_pfc;
    stats_ = &merged_stats_;
  }

  // Each node's ports, one per cable (ToNetworkConfig has checked their numbers).
  std::vector<int> num_ports(num_nodes, 0);
  for (const LinkSpec& l : topo.links) {
    for (int end : {l.a, l.b}) ++num_ports[end];
  }
  for (int h = 0; h < num_hosts; ++h) {
    Part& part = part_of(h);
    hosts_.push_back(std::make_unique<RdmaNic>(&part.sim, &part.stats, &part.pool, s.host, h,
                                               &flows_, s.sw.pfc.pause_until_resume, wire_));
  }
  for (int sw = 0; sw < topo.switches; ++sw) {
    Part& part = part_of(num_hosts + sw);
    switches_.push_back(std::make_unique<SwitchNode>(&part.sim, &part.stats, &part.pool, &flows_,
                                                     s.sw, num_hosts + sw,
                                                     num_ports[num_hosts + sw], s.seed));
  }

  // Ports and links. A switch port's index is its order among the switch's cables.
  adjacency_.assign(num_nodes, {});
  auto add_port = [&](int node) -> EgressPort& {
    if (node >= num_hosts) return switches_[node - num_hosts]->AddPort();
    // A NIC has its first port from the start.
    return adjacency_[node].empty() ? hosts_[node]->port() : hosts_[node]->AddPort();
  };
  auto node_at = [&](int node) -> Node* {
    return node < num_hosts ? static_cast<Node*>(hosts_[node].get())
                            : switches_[node - num_hosts].get();
  };
  for (const LinkSpec& l : topo.links) {
    EgressPort& pa = add_port(l.a);
    int ia = static_cast<int>(adjacency_[l.a].size());
    adjacency_[l.a].push_back({l.b, 0});
    EgressPort& pb = add_port(l.b);
    int ib = static_cast<int>(adjacency_[l.b].size());
    adjacency_[l.b].push_back({l.a, ia});
    adjacency_[l.a][ia].second = ib;
    // A link's arrivals run in its peer's part; one into another part sends by outbox to its
    // receiving half there.
    auto connect = [&](EgressPort& port, int from, int to, int to_port) {
      Part& peer = part_of(to);
      port.Connect(l.rate, l.delay, node_at(to), to_port, wire_, &peer.sim, &peer.stats);
      const int thread = placement_.thread_of[to];
      if (thread == placement_.thread_of[from]) return;
      receiving_halves_.push_back(std::make_unique<Link>(&peer.sim, &peer.stats, l.rate, l.delay,
                                                         node_at(to), to_port, wire_));
      Simulator::TakePlaceOf(*receiving_halves_.back(), port.link());
      crossing_routes_.push_back(std::make_unique<CrossingRoute>(
          CrossingRoute{&part_of(from).outbox[thread], receiving_halves_.back().get()}));
      port.link().SetCrossing(crossing_routes_.back().get());
    };
    connect(pa, l.a, l.b, ib);
    connect(pb, l.b, l.a, ia);
  }

  // Buffers: reserve and headroom for every priority that carries data.
  std::set<int> classes;
  for (const FlowSpec& f : s.flows) classes.insert(f.priority);
  int lossless = std::max<int>(1, static_cast<int>(classes.size()));
  const std::vector<int> data_classes(classes.begin(), classes.end());
  Bytes mtu_frame = wire_.DataFrame(s.host.mtu);
  for (int sw = 0; sw < topo.switches; ++sw) {
    std::vector<Bytes> headroom;
    for (int p = 0; p < switches_[sw]->num_ports(); ++p) {
      const Link& link = switches_[sw]->port(p).link();
      headroom.push_back(PortHeadroom(s.sw.pfc, link.rate(), link.delay(), mtu_frame));
    }
    try {
      switches_[sw]->InitMmu(lossless, mtu_frame, std::move(headroom), data_classes);
    } catch (const InputError& e) {
      throw InputError(
          fmt::format("{}: switch {}: {}", s.source, topo.node_name(num_hosts + sw), e.what()));
    }
  }
  if (s.nvlink.enabled()) {
    // A server's crossbar runs on its GPUs' loop (the placement keeps them together).
    const int gpus = s.nvlink.gpus_per_server;
    nvlink_ = std::make_unique<NvlinkFabric>(
        [this, gpus](int server) { return &part_of(server * gpus).sim; }, s.nvlink, topo.hosts,
        [this](uint32_t id) { NvlinkDelivered(id); });
  }

  for (int h = 0; h < num_hosts; ++h) {
    RdmaNic* nic = hosts_[h].get();
    nic->SetCongestionControl(s.cc->Make(CcEnv{&part_of(h).sim, nic, s.host.mtu, s.flow_rates}),
                              needs);
  }
  for (auto& sw : switches_) sw->SetPushTelemetry(needs.telemetry);
  for (const NetworkEvent& e : s.events) {
    if (e.changes_links()) continue;
    storms_.push_back(std::make_unique<PauseStorm>(&part_of(e.host).sim, hosts_[e.host].get(), e.at,
                                                   e.until, data_classes));
  }
  ScheduleLinkEvents();

  // Flows: ids in config order; the UDP source port is drawn per flow for ECMP entropy, or
  // numbered as HPCC ns-3 does when its hash is emulated.
  const bool hpcc_ecmp = s.sw.ecmp_hash == SwitchConfig::EcmpHash::kHpcc;
  std::vector<uint16_t> hpcc_sports;
  if (hpcc_ecmp) {
    std::vector<std::pair<int, int>> src_dst;
    for (const FlowSpec& f : s.flows) src_dst.emplace_back(f.src, f.dst);
    hpcc_sports = HpccSourcePorts(src_dst);
    for (int h = 0; h < num_hosts; ++h) hpcc_keys_.host_ip.push_back(HpccNodeIp(topo.hpcc_id(h)));
    for (size_t i = 0; i < s.flows.size(); ++i) {
      hpcc_keys_.flow_ports.push_back(hpcc_sports[i] | static_cast<uint32_t>(s.flows[i].dport)
                                                           << 16);
    }
    for (int sw = 0; sw < topo.switches; ++sw) {
      switches_[sw]->SetHpccEcmp(&hpcc_keys_, topo.hpcc_id(num_hosts + sw));
    }
  }
  Rng sport_rng(s.seed, 11);
  sports_.resize(s.flows.size());
  outcomes_.assign(s.flows.size(), -1);
  for (size_t i = 0; i < s.flows.size(); ++i) {
    sports_[i] = static_cast<uint16_t>(49152 + sport_rng.Below(16384));
    if (hpcc_ecmp) sports_[i] = hpcc_sports[i];
  }
  // A connection's transfers are one queue pair: they keep its first transfer's source port.
  if (s.after != nullptr) {
    for (uint32_t i = 0; i < s.after->previous.size(); ++i) {
      const uint32_t before = s.after->previous[i];
      if (before == FlowAfter::kNone) continue;
      sports_[i] = sports_[before];
      if (hpcc_ecmp) hpcc_keys_.flow_ports[i] = hpcc_keys_.flow_ports[before];
    }
  }
  // After the source ports: a host with several ports picks one by the flow's hash.
  BuildRoutes();
  SetLoadBalancers();
  need_base_rtt_ = needs.base_rtt || s.host.window;
  if (need_base_rtt_ && s.host.base_rtt != HostConfig::BaseRtt::kPair) {
    max_base_rtt_ = MaxBaseRtt(topo, s.host.mtu);
  }
  if (needs.base_rtt) CheckBaseRtts();
  // Flows that wait for others start when the last of them completes, as their source host sees
  // it: delivered to it, or acknowledged to it.
  if (s.after != nullptr && !s.after->empty()) {
    std::vector<Simulator*> host_sims;
    if (threads > 1) {
      for (int h = 0; h < num_hosts; ++h) host_sims.push_back(&part_of(h).sim);
    }
    dependencies_ = std::make_unique<FlowDependencies>(
        &parts_[0]->sim, config_.flows, *s.after, [this](uint32_t id) { StartFlow(id); },
        std::move(host_sims), [this](uint32_t id) { return AckFlightTime(id); });
  }
  delivered_at_.assign(s.flows.size(), -1);
  if (s.after != nullptr && !s.after->previous.empty()) sent_at_.assign(s.flows.size(), -1);
  for (int h = 0; h < num_hosts; ++h) {
    Part* part = &part_of(h);
    hosts_[h]->SetOnFlowDone([this, part](Flow& f) {
      ++part->flows_done;
      part->last_finish = std::max(part->last_finish, f.finish);
      part->finished.push_back(f.id);
      if (dependencies_ != nullptr) dependencies_->OnAcked(f.id);
    });
    hosts_[h]->SetOnFlowDelivered([this, part](Flow& f) {
      delivered_at_[f.id] = part->sim.Now();
      if (dependencies_ != nullptr) dependencies_->OnDelivered(f.id);
    });
    hosts_[h]->SetOnFlowSent([this, part](Flow& f) {
      sent_at_[f.id] = part->sim.Now();
      dependencies_->OnSent(f.id);
    });
  }
  if (s.flow_level) MakeFlowLevelFabric();
  // A starter per thread for its hosts' flows (the others count as waiting), all ordering their
  // starts as the first.
  for (int t = 0; t < threads; ++t) {
    const auto waits = [this, t](uint32_t id) {
      return placement_.thread_of[config_.flows[id].src] != t ||
             (dependencies_ != nullptr && dependencies_->Waits(id));
    };
    starters_.push_back(std::make_unique<FlowStarter>(
        &parts_[t]->sim, config_.flows, [this](uint32_t id) { StartFlow(id); }, waits,
        t == 0 ? nullptr : starters_[0].get()));
  }
  first_start_ = kTimeNever;
  for (uint32_t id = 0; id < num_flows(); ++id) {
    if (dependencies_ == nullptr || !dependencies_->Waits(id)) {
      first_start_ = std::min(first_start_, config_.flows[id].start);
    }
  }
  if (first_start_ == kTimeNever) first_start_ = 0;
}

BaseRtt Network::FlowBaseRtt(uint32_t id) const {
  if (config_.host.base_rtt != HostConfig::BaseRtt::kPair) return max_base_rtt_;
  return PathBaseRtt(PathOf(id), config_.host.mtu);
}

void Network::CheckBaseRtts() const {
  const bool pair = config_.host.base_rtt == HostConfig::BaseRtt::kPair;
  for (uint32_t id = 0; id < num_flows(); ++id) {
    if (OverNvlink(id)) continue;  // no congestion control runs on NVLink
    const BaseRtt b = FlowBaseRtt(id);
    if (b.rtt < kNanosecond || b.bdp <= 0) {
      // HPCC's update divides by both (its T in whole ns and its window).
      const FlowSpec& f = config_.flows[id];
      throw InputError(fmt::format(
          "{}: flow {} (h{} -> h{}): base RTT {} and BDP {} bytes; HPCC needs at least 1ns and 1 "
          "byte (host.base_rtt = \"{}\")",
          config_.source, id, f.src, f.dst, FormatTime(b.rtt), b.bdp, pair ? "pair" : "max"));
    }
    if (!pair) return;  // every flow has the same
  }
}

Flow& Network::CreateFlow(uint32_t id) {
  const FlowSpec& spec = config_.flows[id];
  Flow& f = flows_.Create(id, static_cast<size_t>(placement_.thread_of[spec.src]));
  f.src = spec.src;
  f.dst = spec.dst;
  f.size = spec.size;
  f.priority = static_cast<uint8_t>(spec.priority);
  f.sport = sports_[id];
  f.nic_port = static_cast<uint8_t>(SenderPort(id));
  f.total_packets = static_cast<uint32_t>((spec.size + config_.host.mtu - 1) / config_.host.mtu);
  FillRouteCache(f);
  if (dependencies_ != nullptr) {
    // A transfer that follows another on its connection joins its queue pair (which the one
    // before keeps in flight until now: awaiting_successor).
    const uint32_t before = dependencies_->Previous(id);
    if (before != FlowAfter::kNone) {
      const Flow* b = flows_.find(before);
      if (b == nullptr) {
        throw InvariantError(fmt::format("flow {} starts after flow {} retired", id, before));
      }
      f.connection = b->connection;
    } else if (dependencies_->Next(id) != FlowAfter::kNone) {
      f.connection = id;
    }
    f.awaiting_successor = dependencies_->Next(id) != FlowAfter::kNone;
  }
  if (need_base_rtt_) {
    const BaseRtt b = FlowBaseRtt(id);
    f.base_rtt = b.rtt;
    f.bdp = b.bdp;
    if (config_.host.window) f.window = b.bdp;
  }
  return f;
}

void Network::StartFlow(uint32_t id) {
  const FlowSpec& spec = config_.flows[id];
  Part& part = part_of(spec.src);
  // Retire before creating, so that a retired flow's slot serves this one (unless the engine
  // retires them itself: SetRetireAtStart).
  if (retire_at_start_ && RetireDue()) RetireFinished(part.sim.Now());
  // What the start schedules counts as the sender's NIC's, whether the starter or a dependency
  // started it: each host's events keep their order however the hosts are spread over loops.
  Simulator::ActingAs acting(part.sim, *hosts_[spec.src]);
  if (OverNvlink(id)) {
    nvlink_->Start(id, spec.src, spec.dst, spec.size);
    return;
  }
  if (flow_level_ != nullptr) {
    FlowLevelPath(id, flow_level_path_);
    flow_level_->Start(id, flow_level_path_);
    return;
  }
  Flow& f = CreateFlow(id);
  hosts_[f.src]->StartFlow(f);
}

void Network::NvlinkDelivered(uint32_t id) {
  Part& part = part_of(config_.flows[id].dst);  // its server's, as the source's
  const Time now = part.sim.Now();
  outcomes_[id] = OutcomeWord(id, {now, config_.flows[id].size});
  ++part.stats.nvlink_transfers;
  part.stats.nvlink_bytes += config_.flows[id].size;
  delivered_at_[id] = now;
  ++part.flows_done;
  part.last_finish = std::max(part.last_finish, now);
  if (dependencies_ != nullptr) {
    if (!sent_at_.empty()) sent_at_[id] = now;
    dependencies_->OnSent(id);
    dependencies_->OnDelivered(id);
    dependencies_->OnAcked(id);
  }
}

void Network::MakeFlowLevelFabric() {
  // A port's index: its node's first plus its own.
  port_index_ = PortIndices();
  std::vector<double> capacity;
  for (int node = 0; node < config_.topology.num_nodes(); ++node) {
    for (size_t p = 0; p < adjacency_[node].size(); ++p) {
      capacity.push_back(static_cast<double>(link(node, static_cast<int>(p)).rate()));
    }
  }
  Part& part = *parts_[0];  // flow-level runs are not split
  FlowLevelFabric::Callbacks done;
  if (!sent_at_.empty()) {  // else nothing waits for a flow's last byte to leave: no event
    done.sent = [this](uint32_t id) {
      sent_at_[id] = parts_[0]->sim.Now();
      dependencies_->OnSent(id);
    };
  }
  done.delivered = [this](uint32_t id) {
    delivered_at_[id] = parts_[0]->sim.Now();
    outcomes_[id] = OutcomeWord(id, {-1, config_.flows[id].size});  // not yet acknowledged
    // The application's bytes, as a NIC counts them (sent, received, delivered in order).
    NetStats& st = parts_[0]->stats;
    st.payload_sent += config_.flows[id].size;
    st.payload_received += config_.flows[id].size;
    st.payload_delivered += config_.flows[id].size;
    if (dependencies_ != nullptr) dependencies_->OnDelivered(id);
  };
  done.acked = [this](uint32_t id) {
    Part& p = *parts_[0];
    outcomes_[id] = OutcomeWord(id, {p.sim.Now(), config_.flows[id].size});
    ++p.flows_done;
    p.last_finish = std::max(p.last_finish, p.sim.Now());
    if (dependencies_ != nullptr) dependencies_->OnAcked(id);
  };
  flow_level_ = std::make_unique<FlowLevelFabric>(&part.sim, std::move(capacity), std::move(done));
}

void Network::CountFlowLevelTraffic() {
  const std::vector<double>& bits = flow_level_->carried_bits();
  for (int node = 0; node < config_.topology.num_nodes(); ++node) {
    for (size_t p = 0; p < adjacency_[node].size(); ++p) {
      LinkAt(node, static_cast<int>(p))
          .AdoptBusyBytes(std::llround(bits[port_index_[node] + p] / 8));
    }
  }
}

void Network::FlowLevelPath(uint32_t id, FlowLevelFabric::Path& path) const {
  // As the packet model frames it (wire_: with congestion control's header): the first frame
  // crosses hop by hop, the rest streams; each ACK (one per host.ack_interval packets) takes its
  // frame on each port back. One walk each way (a run asks for millions of paths).
  const WireFormat& w = wire_;
  const Bytes size = config_.flows[id].size;
  const Bytes mtu = config_.host.mtu;
  const Bytes first = std::min(size, mtu);
  const Bytes wire = w.MessageWire(size, mtu);
  path.uses.clear();
  path.latency = 0;
  path.first_frame = 0;
  path.ack_flight = 0;
  path.stream_bits = static_cast<double>(size - first) * 8;
  const double data_weight = size > first ? static_cast<double>(wire - w.Wire(w.DataFrame(first))) /
                                                static_cast<double>(size - first)
                                          : 0;
  const double ack_weight =
      static_cast<double>(w.Wire(w.ack_frame)) /
      (static_cast<double>(config_.host.ack_interval) * static_cast<double>(mtu));
  WalkPath(RouteProbe(id, 0), [&](int node, int port) {
    const Link& l = link(node, port);
    const Time tx = w.TxTime(w.DataFrame(first), l.rate());
    path.latency += l.delay() + tx;
    if (path.uses.empty()) path.first_frame = tx;  // the sender's own link
    path.uses.push_back({port_index_[node] + static_cast<uint32_t>(port), data_weight});
  });
  // The ACK's time back as AckFlightTime counts it, as the flows that wait for it count it.
  WalkPath(RouteProbe(id, 1), [&](int node, int port) {
    path.ack_flight += AckHopTime(link(node, port));
    path.uses.push_back({port_index_[node] + static_cast<uint32_t>(port), ack_weight});
  });
}

bool Network::RetireDue() const {
  size_t finished = 0;
  for (const auto& part : parts_) finished += part->finished.size();
  return finished >= next_retire_;
}

void Network::RetireFinished(Time now) {
  // A finished flow retires once nothing refers to it any more: no packet of it is left, its
  // sender is not in its NIC's ready ring or pacer (stale pacer entries find nothing), its
  // receiver has no CNP still to send, and the hold has passed. Its RTO timer may still be
  // pending: for a finished flow it does nothing, and for a retired one it finds nothing.
  size_t kept_in_all = 0;
  for (auto& part : parts_) {
    size_t kept = 0;
    for (const uint32_t id : part->finished) {
      Flow& f = flows_[id];
      if (PacketsOut(f) == 0 && f.sched == Flow::kIdle && now - f.finish > hold_ &&
          !f.awaiting_successor && hosts_[f.dst]->cc().ReceiverIdle(f)) {
        if (f.connection != Flow::kNoConnection && !f.handed_over) hosts_[f.src]->EndConnection(f);
        for (auto& p : parts_) p->stats.dropped_by_flow.erase(id);
        hosts_[f.src]->cc().ReleaseSender(f);
        hosts_[f.dst]->cc().ReleaseReceiver(f);
        outcomes_[id] = OutcomeWord(id, {f.finish, f.bytes_delivered});
        flows_.Retire(id, static_cast<size_t>(placement_.thread_of[f.src]));
      } else {
        part->finished[kept++] = id;
      }
    }
    part->finished.resize(kept);
    kept_in_all += kept;
  }
  // Amortised: the flows kept are looked at again only after as many more have finished.
  next_retire_ = std::max(kMinRetireBatch, 2 * kept_in_all);
}

std::unique_ptr<RouteTable> Network::ComputeRoutes(const Adjacency& live) const {
  const Topology& topo = config_.topology;
  const int num_hosts = topo.hosts;
  std::unique_ptr<RouteTable> routes;
  if (config_.sw.ecmp_hash == SwitchConfig::EcmpHash::kHpcc) {
    // HPCC ns-3 searches routes over its nodes in the order of their addresses in memory
    // (std::map keyed by Ptr<Node>). Its switches are objects of over 2 MB (SwitchNode's
    // m_bytes table), so glibc maps each one separately, and Linux places every new mapping
    // below the last: later switches come first. Hosts are small heap objects below them.
    // On the fat tree this order matches HPCC's per-flow FCTs best (docs/validation.md).
    std::vector<int> rank(topo.num_nodes());
    for (int n = 0; n < topo.num_nodes(); ++n) {
      rank[n] = topo.is_host(n) ? topo.hpcc_id(n) - (1 << 30) : -topo.hpcc_id(n);
    }
    routes = std::make_unique<RouteTable>(num_hosts, live, &rank);
  } else {
    routes = std::make_unique<RouteTable>(num_hosts, live);
  }
  for (const StaticRoute& r : config_.routes) {
    std::vector<uint16_t> ports;  // every live cable to every next hop
    for (int next : r.next) {
      for (size_t p = 0; p < live[r.sw].size(); ++p) {
        if (live[r.sw][p].first == next) ports.push_back(static_cast<uint16_t>(p));
      }
    }
    // A static route whose next hops are all down is withdrawn, as a router's is when its
    // interface goes down: the computed route takes over.
    if (ports.empty()) continue;
    for (int dst : r.dsts) routes->Override(r.sw - num_hosts, dst, ports);
  }
  return routes;
}

void Network::BuildRoutes() {
  const int num_hosts = config_.topology.hosts;
  routes_ = ComputeRoutes(adjacency_);
  for (size_t sw = 0; sw < switches_.size(); ++sw) {
    switches_[sw]->SetRoutes(routes_.get(), static_cast<int>(sw));
  }
  for (int h = 0; h < num_hosts && nic_ports_.empty(); ++h) {
    if (adjacency_[h].size() > 1) nic_ports_.assign(num_flows(), 0);
  }
  for (uint32_t id = 0; id < num_flows(); ++id) {
    if (OverNvlink(id)) continue;
    const FlowSpec& f = config_.flows[id];
    if (!nic_ports_.empty()) nic_ports_[id] = ChooseNicPort(id);
    int first = adjacency_[f.src][SenderPort(id)].first;
    bool ok = first == f.dst ||
              (first >= num_hosts && routes_->Ports(first - num_hosts, f.dst).second > 0);
    if (!ok) {
      throw InputError(fmt::format("{}: flow from h{} to h{}: no route between the hosts",
                                   config_.source, f.src, f.dst));
    }
  }
}

void Network::SetLoadBalancers() {
  const SwitchConfig& sw = config_.sw;
  if (sw.load_balancing == SwitchConfig::LoadBalancing::kEcmp) return;
  const int num_hosts = config_.topology.hosts;
  bool any_choice = false;
  for (size_t i = 0; i < switches_.size(); ++i) {
    const int node = num_hosts + static_cast<int>(i);
    const bool leaf = std::any_of(adjacency_[node].begin(), adjacency_[node].end(),
                                  [&](const auto& peer) { return peer.first < num_hosts; });
    if ((sw.load_balancing_at == SwitchConfig::LoadBalancingAt::kLeaves && !leaf) ||
        (sw.load_balancing_at == SwitchConfig::LoadBalancingAt::kAboveLeaves && leaf)) {
      continue;
    }
    switches_[i]->SetLoadBalancer(std::make_unique<LoadBalancer>(sw, config_.seed, node));
    for (int h = 0; h < num_hosts && !any_choice; ++h) {
      any_choice = routes_->Ports(static_cast<int>(i), h).second > 1;
    }
  }
  if (!any_choice) {
    throw InputError(fmt::format(
        "{}: switch.load_balancing: no switch it applies to (load_balancing_at) has two "
        "equal-cost ports towards any host: there is one path, nothing to balance",
        config_.source));
  }
  // A flow's packets may now take any of the equal-cost paths: its route cache holds one.
  flows_.StopRouteCaches();
}

uint8_t Network::ChooseNicPort(uint32_t id) const {
  const FlowSpec& f = config_.flows[id];
  const int num_hosts = config_.topology.hosts;
  const auto& ports = adjacency_[f.src];
  if (ports.size() == 1) return 0;
  // The ports nearest the receiver (a cable straight to it first); among equals, the flow's
  // hash picks, as a bonded NIC places each queue pair on one of its ports.
  std::vector<uint8_t> nearest;
  int best = INT32_MAX;
  for (size_t p = 0; p < ports.size(); ++p) {
    // A port whose link is down takes no queue pair (see MoveOffDeadPorts).
    if (PortDown(f.src, static_cast<int>(p))) continue;
    const int peer = ports[p].first;
    int d = -1;
    if (peer == f.dst) {
      d = 0;
    } else if (peer >= num_hosts) {
      d = routes_->Distance(peer - num_hosts, f.dst);
      if (d >= 0) ++d;
    }
    if (d < 0 || d > best) continue;
    if (d < best) nearest.clear();
    best = d;
    nearest.push_back(static_cast<uint8_t>(p));
  }
  if (nearest.empty()) return 0;  // no route: BuildRoutes says so
  uint64_t h = (static_cast<uint64_t>(f.src) << 32 | static_cast<uint32_t>(f.dst)) ^
               static_cast<uint64_t>(sports_[id]) << 48;
  h *= 0x9e3779b97f4a7c15ULL;
  return nearest[(h >> 32) % nearest.size()];
}

void Network::MoveOffDeadPorts() {
  if (nic_ports_.empty()) return;
  for (uint32_t id = 0; id < num_flows(); ++id) {
    if (OverNvlink(id)) continue;
    const int src = config_.flows[id].src;
    if (!PortDown(src, nic_ports_[id])) continue;
    nic_ports_[id] = ChooseNicPort(id);
    Flow* f = flows_.find(id);
    if (f == nullptr || f->sender_done) continue;
    RdmaNic& nic = *hosts_[src];
    Simulator::ActingAs as(part_of(src).sim, nic);
    nic.MoveToPort(*f, nic_ports_[id]);
  }
}

int Network::StartPort(const Packet& probe) const {
  if (adjacency_[probe.src].size() == 1) return 0;
  if (probe.type == PacketType::kData) return SenderPort(probe.flow);
  // The receiver answers on the port the data comes in on.
  Packet data = RouteProbe(probe.flow, 0);
  int last_node = -1;
  int last_port = 0;
  WalkPath(data, [&](int node, int port) {
    last_node = node;
    last_port = port;
  });
  if (last_node < 0 || adjacency_[last_node][last_port].first != probe.src) return 0;
  return adjacency_[last_node][last_port].second;
}

std::vector<std::string> Network::RouteLoops() const {
  const Topology& topo = config_.topology;
  const int num_hosts = topo.hosts;
  std::vector<std::string> loops;
  for (const StaticRoute& r : config_.routes) {
    for (int dst : r.dsts) {
      // Depth-first over every next hop towards `dst` from the route's switch: a switch met
      // again on the current path closes a loop.
      std::vector<int> path;
      std::vector<char> state(topo.num_nodes(), 0);  // 1: on the path, 2: done
      std::string found;
      std::function<void(int)> visit = [&](int node) {
        if (!found.empty() || node < num_hosts || state[node] == 2) return;
        if (state[node] == 1) {
          // The cycle from its lowest node, so that each loop is named one way.
          std::vector<int> cycle(std::find(path.begin(), path.end(), node), path.end());
          std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
          for (int n : cycle) found += topo.node_name(n) + " -> ";
          found += topo.node_name(cycle[0]);
          return;
        }
        state[node] = 1;
        path.push_back(node);
        const auto [ports, count] = routes_->Ports(node - num_hosts, dst);
        for (uint32_t i = 0; i < count; ++i) visit(adjacency_[node][ports[i]].first);
        path.pop_back();
        state[node] = 2;
      };
      visit(r.sw);
      if (!found.empty()) {
        loops.push_back(
            fmt::format("[[route]]: packets to {} can loop: {}", topo.node_name(dst), found));
      }
    }
  }
  std::sort(loops.begin(), loops.end());
  loops.erase(std::unique(loops.begin(), loops.end()), loops.end());
  return loops;
}

EgressPort& Network::EgressAt(int node, int port) const {
  const int hosts = config_.topology.hosts;
  return node < hosts ? static_cast<EgressPort&>(hosts_[node]->port(port))
                      : switches_[node - hosts]->port(port);
}

Link& Network::LinkAt(int node, int port) const {
  const int hosts = config_.topology.hosts;
  return node < hosts ? hosts_[node]->port(port).link()
                      : switches_[node - hosts]->port(port).link();
}

void Network::Tap(int node, int port, PacketTap* on_send, PacketTap* on_receive) {
  const auto [peer, peer_port] = this->peer(node, port);
  // Both run in `node`'s part: it sends on the one and takes in from the other.
  LinkAt(node, port).SetSendTap(on_send);
  LinkAt(peer, peer_port).receiving_half().SetArrivalTap(on_receive);
}

void Network::EnsureFlow(uint32_t id) {
  if (id >= num_flows()) throw InvariantError("a packet of no flow came from another rank");
  if (flows_.find(id) == nullptr) CreateFlow(id);
}

Time Network::OutcomeWord(uint32_t id, const Outcome& o) const {
  if (o.finish < 0) return -1 - o.delivered;
  if (o.delivered != config_.flows[id].size) {
    throw InvariantError(fmt::format("flow {} finished with {} of its {} bytes delivered", id,
                                     o.delivered, config_.flows[id].size));
  }
  return o.finish;
}

void Network::AdoptOutcomes(std::vector<Outcome> outcomes) {
  for (uint32_t id = 0; id < outcomes.size(); ++id) outcomes_[id] = OutcomeWord(id, outcomes[id]);
  adopted_ = true;
}

void Network::AdoptStart(uint32_t id, Time start) {
  if (dependencies_ != nullptr && dependencies_->Waits(id)) dependencies_->AdoptStart(id, start);
}

Packet Network::RouteProbe(uint32_t id, int direction) const {
  const FlowSpec& f = config_.flows[id];
  Packet probe;
  probe.flow = id;
  probe.src = direction == 0 ? f.src : f.dst;
  probe.dst = direction == 0 ? f.dst : f.src;
  probe.sport = sports_[id];
  probe.type = direction == 0 ? PacketType::kData : PacketType::kAck;
  return probe;
}

template <class Visit>
void Network::WalkPath(const Packet& probe, Visit&& visit) const {
  const int num_hosts = config_.topology.hosts;
  int node = probe.src;
  int port = StartPort(probe);
  for (size_t links = 0; node != probe.dst && links <= adjacency_.size(); ++links) {
    visit(node, port);
    node = adjacency_[node][port].first;
    if (node >= num_hosts) port = switches_[node - num_hosts]->RoutePort(probe);
    if (port == SwitchNode::kNoRoute) break;  // cut off by a failed link
  }
}

Network::PathState Network::PathStateOf(uint32_t id) const {
  if (OverNvlink(id)) return PathState::kReaches;
  PathState state = PathState::kReaches;
  for (int direction = 0; direction < 2; ++direction) {
    const Packet probe = RouteProbe(id, direction);
    int last_node = probe.src;
    size_t links = 0;
    bool down = false;
    WalkPath(probe, [&](int node, int port) {
      down = down || LinkAt(node, port).receiving_half().down();
      last_node = adjacency_[node][port].first;
      ++links;
    });
    if (down) return PathState::kCutOff;
    if (last_node == probe.dst) continue;
    // Short of the other end: a switch had no route, or the walk went round a loop until
    // WalkPath's limit (more links than nodes).
    if (links <= adjacency_.size()) return PathState::kCutOff;
    state = PathState::kLoops;
  }
  return state;
}

int64_t Network::PacketsOut(const Flow& f) const {
  int64_t n = int64_t{f.sender_packets} + f.receiver_packets;
  for (const auto& part : parts_) {
    const auto& dropped_by_flow = part->stats.dropped_by_flow;
    if (dropped_by_flow.empty()) continue;
    const auto dropped = dropped_by_flow.find(f.id);
    if (dropped != dropped_by_flow.end()) n -= dropped->second;
  }
  return n;
}

template <class Visit>
void Network::WalkCachedHops(uint32_t id, int direction, Visit&& visit) const {
  const int num_hosts = config_.topology.hosts;
  int hop = 0;  // switches passed
  WalkPath(RouteProbe(id, direction), [&](int node, int port) {
    if (node < num_hosts) return;  // the source host's own link
    if (hop < Flow::kRouteCacheHops) visit(hop, node, port);
    ++hop;
  });
}

void Network::FillRouteCache(Flow& f) const {
  for (int dir = 0; dir < 2; ++dir) {
    WalkCachedHops(f.id, dir, [&](int hop, int, int port) {
      f.route_cache[dir][hop] = static_cast<uint16_t>(port);
    });
  }
}

void Network::CheckRouteCaches() const {
  // Rerouted during the run: the caches hold the paths of before, and nothing reads them.
  if (flows_.route_cache_hops() == 0) return;
  // Every port a flow's route cache holds is the one the switch at that place of its path
  // would choose from its route table.
  for (uint32_t id = 0; id < num_flows(); ++id) {
    const Flow* f = flows_.find(id);
    if (f == nullptr) continue;
    for (int dir = 0; dir < 2; ++dir) {
      WalkCachedHops(id, dir, [&](int hop, int node, int port) {
        const uint16_t cached = f->route_cache[dir][hop];
        if (cached != Flow::kUnrouted && cached != port) {
          throw InvariantError(fmt::format(
              "flow {}: its route cache sends {} packets out of port {} at {}, the route table "
              "out of port {}",
              id, dir == 0 ? "data" : "ACK", cached, config_.topology.node_name(node), port));
        }
      });
    }
  }
}

std::vector<LinkSpec> Network::PathOf(uint32_t id) const {
  std::vector<LinkSpec> path;
  if (OverNvlink(id)) return path;
  WalkPath(RouteProbe(id, 0), [&](int node, int port) {
    const Link& link = LinkAt(node, port);
    path.push_back({node, adjacency_[node][port].first, link.rate(), link.delay()});
  });
  return path;
}

std::vector<std::pair<int, int>> Network::PortPathOf(uint32_t id, int direction) const {
  std::vector<std::pair<int, int>> path;
  if (OverNvlink(id)) return path;
  WalkPath(RouteProbe(id, direction), [&](int node, int port) { path.emplace_back(node, port); });
  return path;
}

std::vector<uint32_t> Network::PortIndices() const {
  std::vector<uint32_t> first(adjacency_.size() + 1, 0);
  for (size_t node = 0; node < adjacency_.size(); ++node) {
    first[node + 1] = first[node] + static_cast<uint32_t>(adjacency_[node].size());
  }
  return first;
}

Time Network::AckHopTime(const Link& l) const {
  return l.delay() + config_.wire.TxTime(config_.wire.ack_frame, l.rate());
}

Time Network::AckFlightTime(uint32_t id) const {
  Time t = 0;
  if (OverNvlink(id)) return t;
  WalkPath(RouteProbe(id, 1), [&](int node, int port) { t += AckHopTime(link(node, port)); });
  return t;
}

std::vector<PausedQueue> Network::PausedQueues() const {
  std::vector<PausedQueue> queues;
  const auto sort_unique = [](auto& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  for (const auto& sw : switches_) {
    for (int p = 0; p < sw->num_ports(); ++p) {
      const SwitchPort& port = sw->port(p);
      for (int q = 0; q < kNumPriorities; ++q) {
        if (q == kControlQueue || port.queued_packets(q) == 0 || !port.paused(q)) continue;
        PausedQueue v{{sw->node_id(), p, q}, port.paused_since(q), {}, {}};
        const Ring<Packet*>& ring = port.queue(q);
        for (size_t i = 0; i < ring.size(); ++i) {
          v.in_ports.push_back(ring[i]->in_port);
          v.flows.push_back(ring[i]->flow);
        }
        sort_unique(v.in_ports);
        sort_unique(v.flows);
        queues.push_back(std::move(v));
      }
    }
  }
  return queues;
}

CcCounters Network::cc_counters() const {
  if (adopted_cc_valid_) return adopted_cc_;
  CcCounters sum;
  for (const auto& h : hosts_) sum += h->cc().counters();
  return sum;
}

int64_t Network::PacketsInNetwork() {
  int64_t n = 0;
  for (auto& h : hosts_) {
    n += static_cast<int64_t>(h->control_queued() + h->held());
    for (int p = 0; p < h->num_ports(); ++p) {
      n += static_cast<int64_t>(h->port(p).link().in_flight());
    }
  }
  for (auto& sw : switches_) {
    for (int p = 0; p < sw->num_ports(); ++p) {
      SwitchPort& port = sw->port(p);
      n += static_cast<int64_t>(port.link().in_flight());
      for (int q = 0; q < kNumPriorities; ++q) n += port.queued_packets(q);
    }
  }
  return n;
}

void Network::CheckInvariants(bool drained) {
  int64_t in_network = PacketsInNetwork();
  int64_t live = 0;
  for (const auto& part : parts_) live += part->pool.live();
  if (in_network != live) {
    throw InvariantError(
        fmt::format("packet conservation: {} packets allocated but {} found in queues and links",
                    live, in_network));
  }
  // Buffer accounting: every data-class byte a switch holds in its egress queues is charged to
  // one ingress (port, priority) of its MMU, and no more; the queues fit in the buffer.
  for (auto& sw : switches_) {
    Bytes charged = 0;
    Bytes queued = 0;
    for (int p = 0; p < sw->num_ports(); ++p) {
      for (int q = 0; q < kNumPriorities; ++q) {
        charged += sw->mmu().ingress_bytes(p, q);
        if (q != kControlQueue) queued += sw->port(p).queued_bytes(q);
      }
    }
    if (charged != queued || queued > config_.sw.buffer) {
      throw InvariantError(fmt::format(
          "switch {}: {} bytes queued in data classes but {} charged to its buffer ({} bytes)",
          config_.topology.node_name(sw->node_id()), queued, charged, config_.sw.buffer));
    }
  }
  CheckRouteCaches();
  if (drained) {
    if (in_network != 0) {
      throw InvariantError(fmt::format("{} packets left in a drained network", in_network));
    }
    const NetStats& st = stats();
    if (st.payload_sent != st.payload_received + st.payload_dropped) {
      throw InvariantError(
          fmt::format("byte conservation: {} payload bytes sent, {} received, {} dropped",
                      st.payload_sent, st.payload_received, st.payload_dropped));
    }
    for (auto& sw : switches_) {
      if (!sw->mmu().Empty()) {
        throw InvariantError(fmt::format("switch s{}: buffer counters not zero after draining",
                                         sw->node_id() - config_.topology.hosts));
      }
    }
  }
}

}  // namespace dcqcn
