// Running a network spread over processes: the exchange between windows, the sums over ranks,
// and the results brought to rank 0 at the end.
#include "engine/rank_engine.h"

#include <algorithm>
#include <type_traits>
#include <utility>

#include "core/byte_message.h"
#include "core/error.h"

namespace dcqcn {

namespace {

// The parts rank `rank` of `ranks` runs, as RankEngine::RankOfPart spreads `parts`: (first,
// count).
std::pair<int, int> LocalParts(int parts, int rank, int ranks) {
  int first = parts;
  int count = 0;
  for (int t = parts; t-- > 0;) {
    if (static_cast<int>(int64_t{t} * ranks / parts) == rank) {
      first = t;
      ++count;
    }
  }
  return {first, count};
}

}  // namespace

RankEngine::RankEngine(Network& net, RankExchange* ranks)
    : WindowEngine(
          net,
          LocalParts(static_cast<int>(net.parts().size()), ranks->rank(), ranks->ranks()).first,
          LocalParts(static_cast<int>(net.parts().size()), ranks->rank(), ranks->ranks()).second),
      exchange_(ranks),
      rank_(ranks->rank()),
      ranks_(ranks->ranks()) {
  const auto& halves = net.receiving_halves();
  for (size_t i = 0; i < halves.size(); ++i) {
    receiving_half_index_[halves[i].get()] = static_cast<uint32_t>(i);
  }
  SumTotals();  // what is pending, before the first RunUntil
}

bool RankEngine::NextWindow(bool first, Time* earliest) {
  // Every window starts with the exchange between the ranks, which also tells the earliest
  // event anywhere and the events run so far; every rank leaves the loop alike.
  const Totals totals = ExchangeCrossings();
  if (first) {
    first_event_ = totals.events;
  } else if (totals.events - first_event_ >= max_events_) {
    return false;
  }
  *earliest = totals.earliest;
  return true;
}

void RankEngine::Seen(std::vector<TapRecord> seen) {
  // Rank 0 shows them, with every rank's, at the next exchange (ExchangeCrossings).
  taps_for_rank_zero_ = std::move(seen);
}

RankEngine::Totals RankEngine::ExchangeCrossings() {
  const int parity = window_parity_ ^ 1;  // what the last window sealed
  // This rank's earliest event and events run; the observers run alike in every rank and count
  // once, in rank 0.
  Time earliest = kTimeNever;
  uint64_t events = rank_ == 0 ? net_.sim().events_executed() : 0;
  for (int t = first_local_; t < first_local_ + local_; ++t) {
    earliest = std::min({earliest, parts_[t]->sim.next_time(), sealed_[t].first});
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
    for (int t = 0; t < parts(); ++t) {
      std::vector<Crossing>& box = sealed_[u].boxes[parity][t];
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
  const auto& halves = net_.receiving_halves();
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
      std::vector<Crossing>& box = sealed_[u].boxes[parity][t];
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
        if (p->type != PacketType::kPause) net_.EnsureFlow(p->flow);
        if (link >= halves.size()) throw InvariantError("no such link between ranks");
        box.push_back({halves[link].get(), arrival, p});
      }
    }
  }
  for (const TapRecord& t : seen) {
    if (t.tap >= deferred_taps_.size()) throw InvariantError("no such tap between ranks");
  }
  ShowTaps(seen);
  return totals;
}

void RankEngine::SumTotals() {
  // Every rank's part of the loop's state and of the counters (the observers count in rank 0).
  Simulator& observers = net_.sim();
  Time now = observers.Now();
  uint64_t events = rank_ == 0 ? observers.events_executed() : 0;
  uint64_t pending = rank_ == 0 ? observers.pending() : 0;
  Time next = observers.next_time();
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
  NetStats& stats = net_.stats();
  std::vector<int64_t> mine = {
      now, static_cast<int64_t>(events), static_cast<int64_t>(pending), next, done, last_finish};
  const auto put = [&](auto m) { mine.push_back(static_cast<int64_t>(stats.*m)); };
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
  stats.SetCountersToSumOf(counters);
}

std::vector<PausedQueue> RankEngine::PausedQueues() const {
  // Every rank's, in the order of the switches, as one process lists them.
  std::string mine;
  for (const PausedQueue& v : net_.PausedQueues()) {
    PutBytes(mine, v.queue);
    PutBytes(mine, v.since);
    PutVector(mine, v.in_ports);
    PutVector(mine, v.flows);
  }
  std::vector<PausedQueue> queues;
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

std::vector<std::string> RankEngine::GatherAtRankZero(std::string mine) {
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

void RankEngine::CollectResults() {
  if (collected_) return;
  collected_ = true;
  const Network& net = net_;
  // What this rank ran, for rank 0.
  std::vector<SenderRecord> sent;
  std::vector<ReceiverRecord> received;
  for (uint32_t id = 0; id < net.num_flows(); ++id) {
    const FlowSpec& spec = net.flow_spec(id);
    if (RunsNode(spec.src)) sent.push_back({id, net.flow_finish(id), net.flow_start(id)});
    if (RunsNode(spec.dst)) {
      received.push_back({id, net.flow_delivered(id), net.flow_delivered_at(id)});
    }
  }
  const int num_hosts = net.config().topology.hosts;
  std::vector<PortRecord> ports;
  for (int node = 0; node < net.config().topology.num_nodes(); ++node) {
    if (!RunsNode(node)) continue;
    for (int p = 0; p < net.num_ports(node); ++p) {
      const EgressPort& port = net.egress(node, p);
      PortRecord record{node, p, port.link().busy_bytes(), port.pause_state() != nullptr, {}, {}};
      if (record.paused_ever) record.pause = *port.pause_state();
      if (node >= num_hosts) {
        record.statistics = net.switches()[node - num_hosts]->port(p).statistics();
      }
      ports.push_back(record);
    }
  }
  CcCounters cc;
  for (int h = 0; h < num_hosts; ++h) {
    if (RunsNode(h)) cc += net_.hosts()[h]->cc().counters();
  }
  std::vector<int64_t> cc_values(cc.size());
  for (size_t i = 0; i < cc.size(); ++i) cc_values[i] = cc[i];
  std::string mine;
  PutVector(mine, sent);
  PutVector(mine, received);
  PutVector(mine, ports);
  PutVector(mine, cc_values);
  PutVector(mine, net.stats().pfc_log);
  const std::vector<std::string> in = GatherAtRankZero(std::move(mine));
  if (rank_ != 0) return;

  CcCounters cc_sum;
  std::vector<PfcEvent> log;
  std::vector<Network::Outcome> outcomes(net.num_flows());
  for (const std::string& message : in) {
    ByteReader r(message);
    for (const SenderRecord& f : r.GetVector<SenderRecord>()) {
      outcomes[f.id].finish = f.finish;
      net_.AdoptStart(f.id, f.start);
    }
    for (const ReceiverRecord& f : r.GetVector<ReceiverRecord>()) {
      outcomes[f.id].delivered = f.delivered;
      net_.AdoptDeliveredAt(f.id, f.delivered_at);
    }
    for (const PortRecord& p : r.GetVector<PortRecord>()) {
      EgressPort& port = net_.egress(p.node, p.port);
      port.link().AdoptBusyBytes(p.busy_bytes);
      if (p.paused_ever) port.AdoptPauseState(p.pause);
      if (p.node >= num_hosts) {
        net_.switches()[p.node - num_hosts]->port(p.port).AdoptStatistics(p.statistics);
      }
    }
    const std::vector<int64_t> values = r.GetVector<int64_t>();
    if (!values.empty()) {
      CcCounters counters(net_.hosts()[0]->cc().counters().specs());
      for (size_t i = 0; i < values.size(); ++i) counters[i] = values[i];
      cc_sum += counters;
    }
    const std::vector<PfcEvent> logged = r.GetVector<PfcEvent>();
    log.insert(log.end(), logged.begin(), logged.end());
  }
  // The PFC log in the order one loop makes it (each rank's is in that order already).
  SortAsOneLoop(log.begin(), log.end());
  net_.stats().pfc_log = std::move(log);
  net_.AdoptOutcomes(std::move(outcomes));
  net_.AdoptCcCounters(std::move(cc_sum));
}

}  // namespace dcqcn
