// The one worker pool of the run layer: sweeps run their runs on it, fluid maps their cells, and
// an MPI sweep's ranks draw their runs from the same queue (run/sweep_ranks.cc).
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>

namespace dcqcn {

// Indices [0, n) handed out in order to whoever asks (threads, or the ranks an MPI sweep serves),
// until they run out or the queue is stopped. Thread-safe.
class WorkQueue {
 public:
  explicit WorkQueue(size_t n) : n_(n) {}
  // The next index, or nullopt once every index is handed out or the queue is stopped.
  std::optional<size_t> Next() {
    if (stopped_) return std::nullopt;
    const size_t i = next_++;
    if (i >= n_ || stopped_) return std::nullopt;
    return i;
  }
  // No index is handed out after this.
  void Stop() { stopped_ = true; }
  bool stopped() const { return stopped_; }

 private:
  const size_t n_;
  std::atomic<size_t> next_{0};
  std::atomic<bool> stopped_{false};
};

// Calls work(i) for every index of `queue` until it is drained, on this thread; stops the queue
// when a call returns false.
void Drain(WorkQueue& queue, const std::function<bool(size_t)>& work);

// Calls work(i) for every i in [0, n), on `jobs` threads (this one among them), handing the
// indices out in order (a WorkQueue). Once a call returns false no further index is handed out;
// returns false then. jobs < 1 means 1. `work` must not throw (catch and record instead).
bool ParallelFor(size_t n, int jobs, const std::function<bool(size_t)>& work);

}  // namespace dcqcn
