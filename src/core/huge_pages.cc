// Transparent huge pages for the heap: madvise(MADV_HUGEPAGE), then MADV_COLLAPSE.
#include "core/huge_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>

namespace dcqcn {
namespace {

constexpr uintptr_t kHugePage = uintptr_t{2} << 20;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

#ifndef MADV_COLLAPSE
constexpr int MADV_COLLAPSE = 25;  // Linux 6.1; older kernels answer EINVAL
#endif

size_t RssBytes() {
  std::ifstream statm("/proc/self/statm");  // sizes in pages: total, then resident
  size_t total = 0, resident = 0;
  statm >> total >> resident;
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

// Whole 2 MB pages of [start, end) into huge pages, now and when they fault in later. Errors
// are expected (THP disabled, a kernel before 6.1) and only mean no huge pages.
void Advise(uintptr_t start, uintptr_t end) {
  const uintptr_t first = (start + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t last = end & ~(kHugePage - 1);
  if (first >= last) return;
  void* addr = reinterpret_cast<void*>(first);
  if (madvise(addr, last - first, MADV_HUGEPAGE) == 0) madvise(addr, last - first, MADV_COLLAPSE);
}

}  // namespace

size_t PreferHugePages() {
  // The sanitizers' shadow memory is huge and sparse, and they keep it out of huge pages.
  if (kSanitized) return 0;
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  // A region is "start-end perms offset dev inode [path]", then lines such as "Rss: 12 kB".
  bool candidate = false;
  uintptr_t start = 0, end = 0;
  while (std::getline(smaps, line)) {
    std::istringstream in(line);
    std::string first;
    in >> first;
    const size_t dash = first.find('-');
    if (dash != std::string::npos && first.back() != ':') {
      // Private writable memory that is the heap or anonymous (large allocations), not a file,
      // the stack or the kernel's special mappings.
      std::string perms, offset, dev, path;
      uint64_t inode = 1;
      in >> perms >> offset >> dev >> inode >> path;
      candidate = perms == "rw-p" && inode == 0 && (path.empty() || path == "[heap]");
      start = std::stoull(first.substr(0, dash), nullptr, 16);
      end = std::stoull(first.substr(dash + 1), nullptr, 16);
    } else if (first == "Rss:" && candidate) {
      // Only regions mostly in use: a sparse one (a thread's stack, a reservation) would grow by
      // the untouched parts of its huge pages.
      size_t rss_kb = 0;
      in >> rss_kb;
      if (rss_kb * 1024 * 2 >= end - start) Advise(start, end);
    }
  }
  std::ifstream rollup("/proc/self/smaps_rollup");
  while (std::getline(rollup, line)) {
    if (line.rfind("AnonHugePages:", 0) == 0) return std::stoull(line.substr(14)) * 1024;
  }
  return 0;
}

HugePageKeeper::HugePageKeeper(size_t step) : step_(step) {
  huge_bytes_ = PreferHugePages();
  rss_at_last_call_ = RssBytes();
}

void HugePageKeeper::Update() {
  const size_t rss = RssBytes();
  if (rss < rss_at_last_call_ + step_) return;
  huge_bytes_ = PreferHugePages();
  rss_at_last_call_ = rss;
}

namespace {

std::atomic<bool> g_enabled{false};
std::mutex g_mutex;
std::optional<HugePageKeeper> g_keeper;  // under g_mutex

}  // namespace

void EnableHugePages() { g_enabled.store(true); }

void KeepHugePages() {
  if (!g_enabled.load(std::memory_order_relaxed)) return;
  std::unique_lock lock(g_mutex, std::try_to_lock);
  if (!lock.owns_lock()) return;  // another run is advising right now
  if (!g_keeper) {
    g_keeper.emplace();
  } else {
    g_keeper->Update();
  }
}

}  // namespace dcqcn
