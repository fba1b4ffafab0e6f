// Large fabrics touch ~100 MB of simulator state at random (ports, flows, packets, buffer
// counters): with 4 KB pages most of those touches also miss the TLB. Backing the heap with
// 2 MB transparent huge pages removes that cost, where the kernel allows it.
#pragma once

#include <cstddef>

namespace dcqcn {

// Asks the kernel to back the process's anonymous memory (heap and large allocations) with
// huge pages, both what is in use now (collapsed in place, Linux 6.1+) and what those regions
// fault in later. Only a hint: without THP support it changes nothing, and it never changes a
// result. Returns the bytes of anonymous memory in huge pages after it (0 when unknown).
size_t PreferHugePages();

// PreferHugePages now and again as the process grows: memory allocated later (packets, flows,
// queues filling up during a run) lies in new regions that the first call did not cover.
class HugePageKeeper {
 public:
  // Calls PreferHugePages again each time the resident size has grown by `step` bytes.
  explicit HugePageKeeper(size_t step = size_t{8} << 20);
  // Cheap (reads /proc/self/statm): call it every few milliseconds of a run.
  void Update();
  // What the last call of PreferHugePages returned.
  size_t huge_bytes() const { return huge_bytes_; }

 private:
  size_t step_;
  size_t huge_bytes_ = 0;
  size_t rss_at_last_call_;
};

// The process-wide advice: a process that wants it (main(), the Python module's init) enables
// it once; runs then call KeepHugePages() now and again, from any thread, and it re-advises
// when the resident size has grown by 8 MB since the last time. Without EnableHugePages a run
// changes nothing of the process it is embedded in.
void EnableHugePages();
// Cheap (reads /proc/self/statm at most once per call, skips when another thread is at it).
void KeepHugePages();

}  // namespace dcqcn
