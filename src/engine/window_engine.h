// A network split over several loops, run on threads: windows of simulated time run side by
// side, each no longer than the smallest delay between two parts' nodes (ThreadPlacement::
// lookahead), so that nothing sent in a window can arrive in another part within it. What the
// parts' links sent into other parts is sealed at a window's end and taken in at the next one's
// start; observers (samplers, link events) run in between, every part stopped; what the parts
// logged (PFC frames) and their taps saw is merged into one loop's order. RankEngine runs this
// loop over processes as well.
#pragma once

#include <algorithm>
#include <array>
#include <iterator>
#include <memory>
#include <vector>

#include "core/thread_team.h"
#include "engine/engine.h"
#include "engine/thread_choice.h"

namespace dcqcn {

class WindowEngine : public Engine {
 public:
  // Runs every part of `net` in this process.
  explicit WindowEngine(Network& net)
      : WindowEngine(net, 0, static_cast<int>(net.parts().size())) {}
  ~WindowEngine() override;
  void RunUntil(Time until, uint64_t max_events = UINT64_MAX) override;
  Time Now() const override;
  uint64_t events_executed() const override;
  size_t pending() const override;
  Time next_time() override;
  void Tap(int node, int port, PacketTap* on_send, PacketTap* on_receive) override;
  // How its windows have run, on the threads or on the calling thread alone (ThreadChoice).
  const ThreadChoice& thread_choice() const { return choice_; }
  void set_thread_choice(ThreadChoice choice) { choice_ = choice; }

 protected:
  // Runs parts [first_local, first_local + local) of `net`.
  WindowEngine(Network& net, int first_local, int local);

  // What a tap saw in its part, kept until it is shown it between windows.
  struct TapRecord {
    Time time;
    uint64_t order;  // the key of the event that saw it (Simulator::running_order)
    uint32_t tap;    // the DeferredTap's place in deferred_taps_ (alike in every rank)
    Packet packet;
  };
  // What the parts sent into other parts in the last window: by sending part, window parity
  // and receiving part (two by parity: the one window's boxes are taken in while the next's are
  // filled), and the earliest arrival sealed in each part.
  struct Sealed {
    std::array<std::vector<std::vector<Crossing>>, 2> boxes;
    Time first = kTimeNever;
  };

  // At the start of each window: the earliest event of any part, or arrival sealed for one
  // (kTimeNever: none), into `earliest`; false to stop before it (the event budget is spent).
  virtual bool NextWindow(bool first, Time* earliest);
  // At the end of each window: false to stop (the event budget is spent).
  virtual bool AfterWindow();
  // Once the parts' counters are merged (at an observer's instant, and at the end).
  virtual void AfterMerge() {}
  // What the taps saw in the last window, in no order.
  virtual void Seen(std::vector<TapRecord> seen) { ShowTaps(seen); }
  // Shows the taps what they saw, in one loop's order.
  void ShowTaps(std::vector<TapRecord>& seen);
  // Records of several parts in the order one loop makes them: by time, then by the key of the
  // event that made them (unique per event); one event's records are in one part, in order.
  template <class Iterator>
  static void SortAsOneLoop(Iterator first, Iterator last) {
    using Record = typename std::iterator_traits<Iterator>::value_type;
    std::stable_sort(first, last, [](const Record& a, const Record& b) {
      return a.time < b.time || (a.time == b.time && a.order < b.order);
    });
  }
  int parts() const { return static_cast<int>(parts_.size()); }

  const std::vector<std::unique_ptr<Part>>& parts_;
  std::vector<Sealed> sealed_;  // by part
  int window_parity_ = 0;
  int first_local_;  // the parts this process runs: [first_local_, first_local_ + local_)
  int local_;
  uint64_t first_event_ = 0;  // of this RunUntil
  uint64_t max_events_ = UINT64_MAX;
  // Taps, each recording what it sees in its part for the real one to see later.
  class DeferredTap;
  std::vector<std::unique_ptr<DeferredTap>> deferred_taps_;
  std::vector<std::vector<TapRecord>> taps_;  // by part: what its taps saw in this window

 private:
  // One window up to `limit` on every part this process runs.
  void RunWindow(Time limit);
  // Part `t`'s start of a window: it takes in what other parts sent it in the last one.
  void TakeIn(int t, int parity);
  // Part `t`'s end of a window: it seals what it sent.
  void Seal(int t, int parity);
  // The parts' counters as one loop's (Network::stats()).
  void MergeCounters();
  // What the parts logged (PFC frames) and their taps saw, in one loop's order.
  void MergeLogs();
  std::unique_ptr<ThreadTeam> team_;
  ThreadChoice choice_;  // each window on the threads, or on this thread alone
};

}  // namespace dcqcn
