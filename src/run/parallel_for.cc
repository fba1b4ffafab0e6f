// A fixed pool of threads drawing indices from one counter: runs of very different lengths
// balance themselves, and nothing is queued ahead.
#include "run/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace dcqcn {

bool ParallelFor(size_t n, int jobs, const std::function<bool(size_t)>& work) {
  std::atomic<size_t> next{0};
  std::atomic<bool> stopped{false};
  auto worker = [&] {
    for (size_t i = next++; i < n && !stopped; i = next++) {
      if (!work(i)) stopped = true;
    }
  };
  const size_t threads_wanted = std::min<size_t>(static_cast<size_t>(std::max(jobs, 1)), n);
  std::vector<std::thread> threads;
  for (size_t t = 1; t < threads_wanted; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  return !stopped;
}

}  // namespace dcqcn
