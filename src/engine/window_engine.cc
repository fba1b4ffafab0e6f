// Running a network split over threads: windows of simulated time run side by side, what crossed
// between parts taken in at the next window's start, and the parts' records merged between
// windows into what one event loop would have recorded.
#include "engine/window_engine.h"

#include <algorithm>
#include <chrono>

namespace dcqcn {

// A tap of a split run: records what it sees in its part, for the real one to see later.
class WindowEngine::DeferredTap final : public PacketTap {
 public:
  DeferredTap(std::vector<TapRecord>* seen, const Simulator* sim, PacketTap* tap, uint32_t index)
      : seen_(seen), sim_(sim), tap_(tap), index_(index) {}
  void OnPacket(const Packet& p, Time now) override {
    seen_->push_back({now, sim_->running_order(), index_, p});
  }
  PacketTap* tap() const { return tap_; }

 private:
  std::vector<TapRecord>* seen_;
  const Simulator* sim_;
  PacketTap* tap_;
  uint32_t index_;
};

WindowEngine::WindowEngine(Network& net, int first_local, int local)
    : Engine(net),
      parts_(net.parts()),
      sealed_(net.parts().size()),
      first_local_(first_local),
      local_(local),
      taps_(net.parts().size()),
      choice_(local > 1) {
  for (Sealed& s : sealed_) {
    for (auto& boxes : s.boxes) boxes.resize(parts_.size());
  }
  // Flows retire between windows, every part stopped (AfterWindow).
  net.SetRetireAtStart(false);
}

WindowEngine::~WindowEngine() = default;

Time WindowEngine::Now() const {
  Time now = net_.sim().Now();
  for (const auto& part : parts_) now = std::max(now, part->sim.Now());
  return now;
}

uint64_t WindowEngine::events_executed() const {
  uint64_t n = net_.sim().events_executed();
  for (const auto& part : parts_) n += part->sim.events_executed();
  return n;
}

size_t WindowEngine::pending() const {
  size_t n = net_.sim().pending();
  for (const auto& part : parts_) n += part->sim.pending();
  return n;
}

Time WindowEngine::next_time() {
  Time next = net_.sim().next_time();
  for (size_t t = 0; t < parts_.size(); ++t) {
    next = std::min({next, parts_[t]->sim.next_time(), sealed_[t].first});
  }
  return next;
}

void WindowEngine::Tap(int node, int port, PacketTap* on_send, PacketTap* on_receive) {
  // Both run in `node`'s part; they see what it shows them in order between windows.
  auto deferred = [&](PacketTap* tap) -> PacketTap* {
    if (tap == nullptr) return nullptr;
    const int t = net_.placement().thread_of[node];
    deferred_taps_.push_back(std::make_unique<DeferredTap>(
        &taps_[t], &parts_[t]->sim, tap, static_cast<uint32_t>(deferred_taps_.size())));
    return deferred_taps_.back().get();
  };
  net_.Tap(node, port, deferred(on_send), deferred(on_receive));
}

bool WindowEngine::NextWindow(bool first, Time* earliest) {
  if (first) first_event_ = events_executed();
  *earliest = kTimeNever;
  for (size_t t = 0; t < parts_.size(); ++t) {
    *earliest = std::min({*earliest, parts_[t]->sim.next_time(), sealed_[t].first});
  }
  return true;
}

bool WindowEngine::AfterWindow() {
  if (net_.RetireDue()) net_.RetireFinished(Now());
  return events_executed() - first_event_ < max_events_;
}

void WindowEngine::RunUntil(Time until, uint64_t max_events) {
  if (team_ == nullptr && local_ > 1) team_ = std::make_unique<ThreadTeam>(local_);
  max_events_ = max_events;
  const Time lookahead = net_.placement().lookahead;
  Simulator& observers = net_.sim();
  for (bool first = true;; first = false) {
    Time earliest = kTimeNever;  // of any part's events, or arrivals sealed for one
    if (!NextWindow(first, &earliest)) break;
    const Time observed = observers.next_time();
    if (std::min(earliest, observed) > until) break;
    // A window ends before anything sent in it can arrive in another part, at an observer, or
    // at `until`.
    Time limit = std::min(until, observed);
    if (earliest != kTimeNever && lookahead != kTimeNever) {
      limit = std::min(limit, earliest + lookahead - 1);
    }
    if (earliest <= limit) RunWindow(limit);
    MergeLogs();
    if (observed <= limit) {
      // Observers run after every other event of their instant, and read what they observe at
      // that time.
      for (const auto& part : parts_) part->sim.AdvanceTo(limit);
      MergeCounters();
      observers.RunUntil(limit);
    }
    if (!AfterWindow()) break;
  }
  for (int t = first_local_; t < first_local_ + local_; ++t) TakeIn(t, window_parity_ ^ 1);
  MergeCounters();
  for (Sealed& s : sealed_) s.first = kTimeNever;
  const Time now = Now();
  for (const auto& part : parts_) part->sim.AdvanceTo(now);
  observers.AdvanceTo(now);
}

void WindowEngine::RunWindow(Time limit) {
  const int parity = window_parity_;
  const int first = first_local_;
  if (local_ > 0) {
    const auto work = [this, limit, parity, first](int i) {
      const int t = first + i;
      TakeIn(t, parity ^ 1);
      parts_[t]->sim.RunUntil(limit);
      Seal(t, parity);
    };
    if (local_ == 1) {
      work(0);  // nothing to choose between
    } else {
      const uint64_t events_before = events_executed();
      const auto start = std::chrono::steady_clock::now();
      if (choice_.on_threads()) {
        team_->Run(work);
      } else {
        for (int i = 0; i < local_; ++i) work(i);
      }
      choice_.Record(
          events_executed() - events_before,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  }
  window_parity_ ^= 1;
}

void WindowEngine::TakeIn(int t, int parity) {
  for (Sealed& from : sealed_) {
    std::vector<Crossing>& box = from.boxes[parity][t];
    for (const Crossing& c : box) c.link->Enqueue(c.arrival, c.packet);
    box.clear();
  }
}

void WindowEngine::Seal(int t, int parity) {
  Part& part = *parts_[t];
  Sealed& sealed = sealed_[t];
  Time first = kTimeNever;
  for (size_t to = 0; to < part.outbox.size(); ++to) {
    std::vector<Crossing>& out = part.outbox[to];
    for (const Crossing& c : out) first = std::min(first, c.arrival);
    // The sealed box of this parity was taken in at the start of this window: it is empty.
    std::swap(out, sealed.boxes[parity][to]);
  }
  sealed.first = first;
}

void WindowEngine::MergeCounters() {
  std::vector<const NetStats*> counters;
  for (const auto& part : parts_) counters.push_back(&part->stats);
  net_.stats().SetCountersToSumOf(counters);
  AfterMerge();
}

void WindowEngine::MergeLogs() {
  std::vector<PfcEvent>& merged = net_.stats().pfc_log;
  const size_t logged = merged.size();
  for (const auto& part : parts_) {
    std::vector<PfcEvent>& log = part->stats.pfc_log;
    merged.insert(merged.end(), log.begin(), log.end());
    log.clear();
  }
  SortAsOneLoop(merged.begin() + static_cast<std::ptrdiff_t>(logged), merged.end());
  if (deferred_taps_.empty()) return;
  std::vector<TapRecord> seen;
  for (std::vector<TapRecord>& taps : taps_) {
    seen.insert(seen.end(), taps.begin(), taps.end());
    taps.clear();
  }
  Seen(std::move(seen));
}

void WindowEngine::ShowTaps(std::vector<TapRecord>& seen) {
  SortAsOneLoop(seen.begin(), seen.end());
  for (const TapRecord& r : seen) deferred_taps_[r.tap]->tap()->OnPacket(r.packet, r.time);
}

}  // namespace dcqcn
