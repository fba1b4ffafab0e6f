// A network spread over processes (`mpirun -np P dcqcn run`): each runs its share of the parts
// as WindowEngine runs them on threads, and between windows the ranks exchange what crossed
// between them through RankExchange (MPI in run/). A packet crossing into another rank's part is
// copied there, with its congestion-control header, and freed here; in the receiving rank it
// takes the place in the sealed box of its sender's part that a thread of one process would
// have found it in, so that it is taken in in the same order. A flow exists in every process its
// packets reach; the counters and the loop's state are summed over the ranks, and at the end
// what the results read is brought to rank 0.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "engine/window_engine.h"

namespace dcqcn {

class RankEngine final : public WindowEngine {
 public:
  // `ranks` has more than one rank and `net` more than one part.
  RankEngine(Network& net, RankExchange* ranks);
  Time Now() const override { return totals_.now; }
  uint64_t events_executed() const override { return totals_.events; }
  size_t pending() const override { return totals_.pending; }
  Time next_time() override { return totals_.next; }
  int flows_done() const override { return static_cast<int>(totals_.flows_done); }
  Time last_finish() const override { return totals_.last_finish; }
  int rank() const override { return rank_; }
  int ranks() const override { return ranks_; }
  bool RunsNode(int node) const override { return Runs(net_.placement().thread_of[node]); }
  std::vector<PausedQueue> PausedQueues() const override;
  std::vector<std::string> GatherAtRankZero(std::string mine) override;
  void CollectResults() override;

 private:
  // What every rank learns at each window's start: the earliest event anywhere and the events
  // run so far; and, at the end of RunUntil (SumTotals), the rest of the loop's state.
  struct Totals {
    Time earliest = kTimeNever;  // of any part's events or sealed arrivals
    uint64_t events = 0;
    Time now = 0;
    uint64_t pending = 0;
    Time next = kTimeNever;
    int64_t flows_done = 0;
    Time last_finish = 0;
  };
  bool NextWindow(bool first, Time* earliest) override;
  bool AfterWindow() override { return true; }  // flows are not retired over ranks
  void AfterMerge() override { SumTotals(); }
  void Seen(std::vector<TapRecord> seen) override;
  // The rank that runs part `t` (consecutive parts, neighbouring regions, go together), and
  // whether it is this one.
  int RankOfPart(int t) const { return static_cast<int>(int64_t{t} * ranks_ / parts()); }
  bool Runs(int t) const { return RankOfPart(t) == rank_; }
  // At each window's start: what the last window sealed for other ranks' parts is sent there
  // and what they sealed for this one's taken (into their parts' sealed boxes here); every rank
  // learns the earliest event anywhere and the events run so far.
  Totals ExchangeCrossings();
  // The counters and the loop's state summed over the ranks.
  void SumTotals();
  RankExchange* exchange_;
  int rank_;
  int ranks_;
  // Each receiving half's place in Network::receiving_halves() (alike in every rank: what
  // crosses between ranks names its link by it).
  std::unordered_map<const Link*, uint32_t> receiving_half_index_;
  Totals totals_;
  // What this rank's taps saw in the last window, for rank 0 to show them.
  std::vector<TapRecord> taps_for_rank_zero_;
  bool collected_ = false;
};

}  // namespace dcqcn
