// A fixed pool of threads drawing indices from one queue: runs of very different lengths
// balance themselves, and nothing is queued ahead.
#include "run/parallel_for.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace dcqcn {

void Drain(WorkQueue& queue, const std::function<bool(size_t)>& work) {
  while (const std::optional<size_t> i = queue.Next()) {
    if (!work(*i)) queue.Stop();
  }
}

bool ParallelFor(size_t n, int jobs, const std::function<bool(size_t)>& work) {
  WorkQueue queue(n);
  const size_t threads_wanted = std::min<size_t>(static_cast<size_t>(std::max(jobs, 1)), n);
  std::vector<std::thread> threads;
  for (size_t t = 1; t < threads_wanted; ++t) threads.emplace_back([&] { Drain(queue, work); });
  Drain(queue, work);
  for (std::thread& t : threads) t.join();
  return !queue.stopped();
}

}  // namespace dcqcn
