// The run layer's worker pool: every index once, in order per thread, stop on the first false.
#include "run/parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <vector>

namespace dcqcn {
namespace {

TEST(ParallelFor, EveryIndexOnceWhateverTheJobs) {
  for (int jobs : {-1, 0, 1, 2, 3, 16}) {
    std::vector<std::atomic<int>> seen(100);
    EXPECT_TRUE(ParallelFor(seen.size(), jobs, [&](size_t i) {
      ++seen[i];
      return true;
    }));
    for (size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], 1) << jobs << " " << i;
  }
  EXPECT_TRUE(ParallelFor(0, 4, [](size_t) { return false; })) << "nothing to do";
}

TEST(ParallelFor, NoIndexIsHandedOutAfterAFalse) {
  // One thread: indices in order, and the one that returns false is the last.
  std::vector<size_t> order;
  EXPECT_FALSE(ParallelFor(10, 1, [&](size_t i) {
    order.push_back(i);
    return i != 3;
  }));
  EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3}));
  // Several threads: the false is reported; what the others run meanwhile depends on how
  // they are scheduled, but once the queue is stopped it hands nothing out.
  std::atomic<int> calls = 0;
  EXPECT_FALSE(ParallelFor(1000, 4, [&](size_t i) {
    ++calls;
    return i != 500;
  }));
  EXPECT_GE(calls.load(), 1);
  WorkQueue queue(10);
  EXPECT_EQ(queue.Next(), std::optional<size_t>(0));
  queue.Stop();
  EXPECT_EQ(queue.Next(), std::nullopt);
  EXPECT_EQ(queue.Next(), std::nullopt);
}

}  // namespace
}  // namespace dcqcn
