// Running a network split over threads: windows of simulated time run side by side, what crossed
// between threads taken in at the next window's start, and the parts' records merged between
// windows into what one event loop would have recorded.
#include <algorithm>

#include "net/network.h"

namespace dcqcn {

Time Network::Now() const {
  if (ranks_ > 1) return totals_.now;
  Time now = observers_.Now();
  for (const auto& part : parts_) now = std::max(now, part->sim.Now());
  return now;
}

uint64_t Network::events_executed() const {
  if (ranks_ > 1) return totals_.events;
  uint64_t n = observers_.events_executed();
  for (const auto& part : parts_) n += part->sim.events_executed();
  return n;
}

size_t Network::pending() const {
  if (ranks_ > 1) return totals_.pending;
  size_t n = observers_.pending();
  for (const auto& part : parts_) n += part->sim.pending();
  return n;
}

Time Network::next_time() {
  if (ranks_ > 1) return totals_.next;
  Time next = observers_.next_time();
  for (auto& part : parts_) next = std::min({next, part->sim.next_time(), part->sealed_first});
  return next;
}

void Network::RunUntil(Time until, uint64_t max_events) {
  if (parts_.size() == 1) return parts_[0]->sim.RunUntil(until, max_events);
  if (team_ == nullptr && local_ > 0) team_ = std::make_unique<ThreadTeam>(local_);
  // Over ranks, every window starts with the exchange between them, which also tells the
  // earliest event anywhere and the events run so far; every rank leaves the loop alike.
  Totals totals = ranks_ > 1 ? ExchangeCrossings() : Totals{};
  const uint64_t first_event = ranks_ > 1 ? totals.events : events_executed();
  for (bool first = true;; first = false) {
    Time earliest = kTimeNever;  // of any part's events, or arrivals sealed for one
    if (ranks_ > 1) {
      if (!first) {
        totals = ExchangeCrossings();
        if (totals.events - first_event >= max_events) break;
      }
      earliest = totals.earliest;
    } else {
      for (auto& part : parts_) {
        earliest = std::min({earliest, part->sim.next_time(), part->sealed_first});
      }
    }
    const Time observed = observers_.next_time();
    if (std::min(earliest, observed) > until) break;
    // A window ends before anything sent in it can arrive in another thread, at an observer,
    // or at `until`.
    Time limit = std::min(until, observed);
    if (earliest != kTimeNever && placement_.lookahead != kTimeNever) {
      limit = std::min(limit, earliest + placement_.lookahead - 1);
    }
    if (earliest <= limit) RunWindow(limit);
    MergeLogs();
    if (observed <= limit) {
      // Observers run after every other event of their instant, and read what they observe at
      // that time.
      for (auto& part : parts_) part->sim.AdvanceTo(limit);
      MergeCounters();
      if (ranks_ > 1) SumTotals();  // what they read (flows done, counters) over every rank
      observers_.RunUntil(limit);
    }
    if (ranks_ > 1) continue;  // over ranks flows are not retired (RetireFinished)
    size_t finished = 0;
    for (const auto& part : parts_) finished += part->finished.size();
    if (finished >= next_retire_) RetireFinished();
    if (events_executed() - first_event >= max_events) break;
  }
  // Between calls every packet is on its link, the counters are summed, and every clock reads
  // the last event's time, as in one loop.
  for (int t = first_local_; t < first_local_ + local_; ++t) TakeIn(t, window_parity_ ^ 1);
  MergeCounters();
  if (ranks_ > 1) SumTotals();
  for (auto& part : parts_) part->sealed_first = kTimeNever;
  const Time now = Now();
  for (auto& part : parts_) part->sim.AdvanceTo(now);
  observers_.AdvanceTo(now);
}

void Network::RunWindow(Time limit) {
  const int parity = window_parity_;
  const int first = first_local_;
  if (local_ > 0)
    team_->Run([this, limit, parity, first](int i) {
      const int t = first + i;
      TakeIn(t, parity ^ 1);
      parts_[t]->sim.RunUntil(limit);
      Seal(t, parity);
    });
  window_parity_ ^= 1;
}

void Network::TakeIn(int t, int parity) {
  for (auto& from : parts_) {
    std::vector<Crossing>& box = from->sealed[parity][t];
    for (const Crossing& c : box) c.link->Enqueue(c.arrival, c.packet);
    box.clear();
  }
}

void Network::Seal(int t, int parity) {
  Part& part = *parts_[t];
  Time first = kTimeNever;
  for (size_t to = 0; to < part.outbox.size(); ++to) {
    std::vector<Crossing>& out = part.outbox[to];
    for (const Crossing& c : out) first = std::min(first, c.arrival);
    // The sealed box of this parity was taken in at the start of this window: it is empty.
    std::swap(out, part.sealed[parity][to]);
  }
  part.sealed_first = first;
}

void Network::MergeCounters() {
  std::vector<const NetStats*> counters;
  for (const auto& part : parts_) counters.push_back(&part->stats);
  stats_.SetCountersToSumOf(counters);
}

void Network::MergeLogs() {
  const size_t logged = stats_.pfc_log.size();
  for (auto& part : parts_) {
    std::vector<PfcEvent>& log = part->stats.pfc_log;
    stats_.pfc_log.insert(stats_.pfc_log.end(), log.begin(), log.end());
    log.clear();
  }
  SortAsOneLoop(stats_.pfc_log.begin() + static_cast<std::ptrdiff_t>(logged), stats_.pfc_log.end());
  if (deferred_taps_.empty()) return;
  std::vector<TapRecord> seen;
  for (auto& part : parts_) {
    seen.insert(seen.end(), part->taps.begin(), part->taps.end());
    part->taps.clear();
  }
  if (ranks_ > 1) {
    // Rank 0 shows them, with every rank's, at the next exchange (ExchangeCrossings).
    taps_for_rank_zero_ = std::move(seen);
    return;
  }
  ShowTaps(seen);
}

void Network::ShowTaps(std::vector<TapRecord>& seen) {
  SortAsOneLoop(seen.begin(), seen.end());
  for (const TapRecord& r : seen) deferred_taps_[r.tap]->tap()->OnPacket(r.packet, r.time);
}

}  // namespace dcqcn
