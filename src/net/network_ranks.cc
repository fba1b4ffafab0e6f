// Running a network spread over processes (`mpirun -np P dcqcn run`): each runs its parts as a
// run split over threads does, and between windows the ranks exchange what crossed between them
// through RankExchange (MPI in run/). A packet crossing into another rank's part is copied there,
// with its congestion-control header, and freed here; in the receiving rank it takes the place
// in the sealed box of its sender's part that a thread of one process would have found it in, so
// that it is taken in in the same order. At the end, what the results read is brought to rank 0.
#include <algorithm>
#include <type_traits>

#include "core/byte_message.h"
#include "net/network.h"

namespace dcqcn {

namespace {

template <class T>
void SortUnique(std::vector<T>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

Network::Totals Network::ExchangeCrossings() {
  const int parity = window_parity_ ^ 1;  // what the last window sealed
  // This rank's earliest event and events run; the observers run alike in every rank and count
  // once, in rank 0.
  Time earliest = kTimeNever;
  uint64_t events = rank_ == 0 ? observers_.events_executed() : 0;
  for (int t = first_local_; t < first_local_ + local_; ++t) {
    earliest = std::min({earliest, parts_[t]->sim.next_time(), parts_[t]->sealed_first});
    events += parts_[t]->sim.events_executed();
  }
  std::vector<std::string> out(static_cast<size_t>(ranks_));
  for (std::string& o : out) {
    PutBytes(o, earliest);
    PutBytes(o, events);
  }
  // What taps saw in the last window, for rank 0 (with an empty list to the others).
  PutVector(out[0], taps_for_rank_zero_);
  taps_for_rank_zero_.clear();
  for (size_t r = 1; r < out.size(); ++r) PutVector(out[r], std::vector<TapRecord>{});
  for (int u = first_local_; u < first_local_ + local_; ++u) {
    Part& from = *parts_[u];
    for (int t = 0; t < threads(); ++t) {
      std::vector<Crossing>& box = from.sealed[parity][t];
      if (box.empty() || Runs(t)) continue;
      std::string& o = out[static_cast<size_t>(RankOfPart(t))];
      PutBytes(o, static_cast<uint32_t>(u));
      PutBytes(o, static_cast<uint32_t>(t));
      PutBytes(o, static_cast<uint32_t>(box.size()));
      for (const Crossing& c : box) {
        PutBytes(o, receiving_half_index_.at(c.link));
        PutBytes(o, c.arrival);
        PutBytes(o, *c.packet);
        if (c.packet->cc_header != 0) PutBytes(o, from.pool.cc_header(c.packet->cc_header));
        from.pool.Free(c.packet);
      }
      box.clear();
    }
  }
  const std::vector<std::string> in = exchange_->AllToAll(out);
  Totals totals;
  std::vector<TapRecord> seen;
  for (const std::string& message : in) {
    ByteReader r(message);
    totals.earliest = std::min(totals.earliest, r.Get<Time>());
    totals.events += r.Get<uint64_t>();
    const std::vector<TapRecord> taps = r.GetVector<TapRecord>();
    seen.insert(seen.end(), taps.begin(), taps.end());
    while (!r.done()) {
      const auto u = r.Get<uint32_t>();
      const auto t = r.Get<uint32_t>();
      const auto n = r.Get<uint32_t>();
      if (u >= parts_.size() || t >= parts_.size() || !Runs(static_cast<int>(t))) {
        throw InvariantError("a rank sent packets for a part it does not run");
      }
      PacketPool& pool = parts_[t]->pool;
      std::vector<Crossing>& box = parts_[u]->sealed[parity][t];
      for (uint32_t i = 0; i < n; ++i) {
        const auto link = r.Get<uint32_t>();
        const Time arrival = r.Get<Time>();
        Packet* p = pool.Allocate();
        r.Read(p, sizeof(Packet));
        p->next_on_link = nullptr;
        p->next_arrival = 0;
        if (p->cc_header != 0) {
          p->cc_header = pool.NewCcHeader();
          pool.cc_header(p->cc_header) = r.Get<CcHeader>();
        }
        if (p->type != PacketType::kPause) EnsureFlow(p->flow);
        if (link >= receiving_halves_.size()) throw InvariantError("no such link between ranks");
        box.push_back({receiving_halves_[link].get(), arrival, p});
      }
    }
  }
  for (const TapRecord& t : seen) {
    if (t.tap >= deferred_taps_.size()) throw InvariantError("no such tap between ranks");
  }
  ShowTaps(seen);
  return totals;
}

void Network::EnsureFlow(uint32_t id) {
  if (id >= num_flows()) throw InvariantError("a packet of no flow came from another rank");
  if (flows_.find(id) == nullptr) CreateFlow(id);
}

void Network::SumTotals() {
  // Every rank's part of the loop's state and of the counters (the observers count in rank 0).
  Time now = observers_.Now();
  uint64_t events = rank_ == 0 ? observers_.events_executed() : 0;
  uint64_t pending = rank_ == 0 ? observers_.pending() : 0;
  Time next = observers_.next_time();
  int64_t done = 0;
  Time last_finish = 0;
  for (int t = first_local_; t < first_local_ + local_; ++t) {
    Part& part = *parts_[t];
    now = std::max(now, part.sim.Now());
    events += part.sim.events_executed();
    pending += part.sim.pending();
    next = std::min(next, part.sim.next_time());  // what crossed is taken in by now
    done += part.flows_done;
    last_finish = std::max(last_finish, part.last_finish);
  }
  std::vector<int64_t> mine = {
      now, static_cast<int64_t>(events), static_cast<int64_t>(pending), next, done, last_finish};
  const auto put = [&](auto m) { mine.push_back(static_cast<int64_t>(stats_.*m)); };
  NetStats::ForEachCounter(put, put);
  const std::vector<std::vector<int64_t>> all = exchange_->AllGather(mine);
  totals_ = Totals{};
  totals_.next = kTimeNever;
  // Each rank's counters, combined as a split run's parts' are.
  std::vector<NetStats> by_rank(all.size());
  std::vector<const NetStats*> counters;
  for (size_t k = 0; k < all.size(); ++k) {
    const std::vector<int64_t>& r = all[k];
    totals_.now = std::max(totals_.now, r[0]);
    totals_.events += static_cast<uint64_t>(r[1]);
    totals_.pending += static_cast<uint64_t>(r[2]);
    totals_.next = std::min(totals_.next, r[3]);
    totals_.flows_done += r[4];
    totals_.last_finish = std::max(totals_.last_finish, r[5]);
    size_t i = 6;
    NetStats& rank = by_rank[k];
    const auto take = [&](auto m) {
      rank.*m = static_cast<std::remove_reference_t<decltype(rank.*m)>>(r[i++]);
    };
    NetStats::ForEachCounter(take, take);
    counters.push_back(&rank);
  }
  stats_.SetCountersToSumOf(counters);
}

std::vector<PausedQueue> Network::PausedQueues() const {
  std::vector<PausedQueue> queues;
  for (const auto& sw : switches_) {
    if (!RunsNode(sw->node_id())) continue;
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
        SortUnique(v.in_ports);
        SortUnique(v.flows);
        queues.push_back(std::move(v));
      }
    }
  }
  if (ranks_ == 1) return queues;
  // Every rank's, in the order of the switches, as one process lists them.
  std::string mine;
  for (const PausedQueue& v : queues) {
    PutBytes(mine, v.queue);
    PutBytes(mine, v.since);
    PutVector(mine, v.in_ports);
    PutVector(mine, v.flows);
  }
  queues.clear();
  for (const std::string& message :
       exchange_->AllToAll(std::vector<std::string>(static_cast<size_t>(ranks_), mine))) {
    ByteReader r(message);
    while (!r.done()) {
      PausedQueue v;
      v.queue = r.Get<DeadlockQueue>();
      v.since = r.Get<Time>();
      v.in_ports = r.GetVector<uint16_t>();
      v.flows = r.GetVector<uint32_t>();
      queues.push_back(std::move(v));
    }
  }
  std::sort(queues.begin(), queues.end(),
            [](const PausedQueue& a, const PausedQueue& b) { return a.queue < b.queue; });
  return queues;
}

std::vector<std::string> Network::GatherAtRankZero(std::string mine) {
  if (ranks_ == 1) return {std::move(mine)};
  std::vector<std::string> out(static_cast<size_t>(ranks_));
  out[0] = std::move(mine);
  std::vector<std::string> in = exchange_->AllToAll(out);
  if (rank_ != 0) in.clear();
  return in;
}

namespace {

// What CollectResults brings to rank 0, per flow (from its sender's rank and its receiver's)
// and per port (from its node's rank).
struct SenderRecord {
  uint32_t id;
  Time finish;
  Time start;
};
struct ReceiverRecord {
  uint32_t id;
  Bytes delivered;
  Time delivered_at;
};
struct PortRecord {
  int node;
  int port;
  Bytes busy_bytes;
  bool paused_ever;
  EgressPort::PauseState pause;
  SwitchPort::Statistics statistics;  // a switch port's
};

}  // namespace

void Network::CollectResults() {
  if (ranks_ == 1 || collected_) return;
  // What this rank ran, for rank 0.
  std::vector<SenderRecord> sent;
  std::vector<ReceiverRecord> received;
  for (uint32_t id = 0; id < num_flows(); ++id) {
    const FlowSpec& spec = config_.flows[id];
    if (RunsNode(spec.src)) sent.push_back({id, flow_finish(id), flow_start(id)});
    if (RunsNode(spec.dst)) received.push_back({id, flow_delivered(id), delivered_at_[id]});
  }
  const int num_hosts = config_.topology.hosts;
  std::vector<PortRecord> ports;
  for (int node = 0; node < config_.topology.num_nodes(); ++node) {
    if (!RunsNode(node)) continue;
    for (int p = 0; p < num_ports(node); ++p) {
      const EgressPort& port = EgressAt(node, p);
      PortRecord record{node, p, port.link().busy_bytes(), port.pause_state() != nullptr, {}, {}};
      if (record.paused_ever) record.pause = *port.pause_state();
      if (node >= num_hosts) record.statistics = switches_[node - num_hosts]->port(p).statistics();
      ports.push_back(record);
    }
  }
  CcCounters cc;
  for (int h = 0; h < num_hosts; ++h) {
    if (RunsNode(h)) cc += hosts_[h]->cc().counters();
  }
  std::vector<int64_t> cc_values(cc.size());
  for (size_t i = 0; i < cc.size(); ++i) cc_values[i] = cc[i];
  std::string mine;
  PutVector(mine, sent);
  PutVector(mine, received);
  PutVector(mine, ports);
  PutVector(mine, cc_values);
  PutVector(mine, stats_.pfc_log);
  const std::vector<std::string> in = GatherAtRankZero(std::move(mine));
  if (rank_ != 0) return;

  CcCounters cc_sum;
  std::vector<PfcEvent> log;
  std::vector<Outcome> outcomes(num_flows());
  for (const std::string& message : in) {
    ByteReader r(message);
    for (const SenderRecord& f : r.GetVector<SenderRecord>()) {
      outcomes[f.id].finish = f.finish;
      if (dependencies_ != nullptr && dependencies_->Waits(f.id)) {
        dependencies_->AdoptStart(f.id, f.start);
      }
    }
    for (const ReceiverRecord& f : r.GetVector<ReceiverRecord>()) {
      outcomes[f.id].delivered = f.delivered;
      delivered_at_[f.id] = f.delivered_at;
    }
    for (const PortRecord& p : r.GetVector<PortRecord>()) {
      LinkAt(p.node, p.port).AdoptBusyBytes(p.busy_bytes);
      if (p.paused_ever) EgressAt(p.node, p.port).AdoptPauseState(p.pause);
      if (p.node >= num_hosts)
        switches_[p.node - num_hosts]->port(p.port).AdoptStatistics(p.statistics);
    }
    const std::vector<int64_t> values = r.GetVector<int64_t>();
    if (!values.empty()) {
      CcCounters counters(hosts_[0]->cc().counters().specs());
      for (size_t i = 0; i < values.size(); ++i) counters[i] = values[i];
      cc_sum += counters;
    }
    const std::vector<PfcEvent> logged = r.GetVector<PfcEvent>();
    log.insert(log.end(), logged.begin(), logged.end());
  }
  // The PFC log in the order one loop makes it (each rank's is in that order already).
  SortAsOneLoop(log.begin(), log.end());
  stats_.pfc_log = std::move(log);
  outcomes_ = std::move(outcomes);
  collected_cc_ = std::move(cc_sum);
  collected_ = true;
}

}  // namespace dcqcn
