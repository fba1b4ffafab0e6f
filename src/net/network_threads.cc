// Running a network split over threads: windows of simulated time run side by side, what crossed
// between threads taken in at the next window's start, and the parts' records merged between
// windows into what one event loop would have recorded.
#include <algorithm>

#include "net/network.h"

namespace dcqcn {

namespace {

// Records of several parts in the order one loop makes them: by time, then by the key of the
// event that made them (unique per event); one event's records are in one part, in order.
template <class Record>
void SortAsOneLoop(typename std::vector<Record>::iterator first,
                   typename std::vector<Record>::iterator last) {
  std::stable_sort(first, last, [](const Record& a, const Record& b) {
    return a.time < b.time || (a.time == b.time && a.order < b.order);
  });
}

}  // namespace

Time Network::Now() const {
  Time now = observers_.Now();
  for (const auto& part : parts_) now = std::max(now, part->sim.Now());
  return now;
}

uint64_t Network::events_executed() const {
  uint64_t n = observers_.events_executed();
  for (const auto& part : parts_) n += part->sim.events_executed();
  return n;
}

size_t Network::pending() const {
  size_t n = observers_.pending();
  for (const auto& part : parts_) n += part->sim.pending();
  return n;
}

Time Network::next_time() {
  Time next = observers_.next_time();
  for (auto& part : parts_) next = std::min({next, part->sim.next_time(), part->sealed_first});
  return next;
}

void Network::RunUntil(Time until, uint64_t max_events) {
  if (parts_.size() == 1) return parts_[0]->sim.RunUntil(until, max_events);
  if (team_ == nullptr) team_ = std::make_unique<ThreadTeam>(threads());
  const uint64_t first_event = events_executed();
  for (;;) {
    Time earliest = kTimeNever;  // of any part's events, or arrivals sealed for one
    for (auto& part : parts_) {
      earliest = std::min({earliest, part->sim.next_time(), part->sealed_first});
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
      observers_.RunUntil(limit);
    }
    size_t finished = 0;
    for (const auto& part : parts_) finished += part->finished.size();
    if (finished >= next_retire_) RetireFinished();
    if (events_executed() - first_event >= max_events) break;
  }
  // Between calls every packet is on its link, the counters are summed, and every clock reads
  // the last event's time, as in one loop.
  for (int t = 0; t < threads(); ++t) TakeIn(t, window_parity_ ^ 1);
  MergeCounters();
  for (auto& part : parts_) part->sealed_first = kTimeNever;
  const Time now = Now();
  for (auto& part : parts_) part->sim.AdvanceTo(now);
  observers_.AdvanceTo(now);
}

void Network::RunWindow(Time limit) {
  const int parity = window_parity_;
  team_->Run([this, limit, parity](int t) {
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
  SortAsOneLoop<PfcEvent>(stats_.pfc_log.begin() + static_cast<std::ptrdiff_t>(logged),
                          stats_.pfc_log.end());
  if (deferred_taps_.empty()) return;
  std::vector<TapRecord> seen;
  for (auto& part : parts_) {
    seen.insert(seen.end(), part->taps.begin(), part->taps.end());
    part->taps.clear();
  }
  SortAsOneLoop<TapRecord>(seen.begin(), seen.end());
  for (const TapRecord& r : seen) r.tap->OnPacket(r.packet, r.time);
}

}  // namespace dcqcn
