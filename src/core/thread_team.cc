// Rounds of work on a team of threads: a release to start, a count down to end.
#include "core/thread_team.h"

namespace dcqcn {

namespace {

// Returns once `a` no longer holds `old`: spins for about 50 us, then sleeps (std::atomic::wait).
template <class T>
T AwaitChange(const std::atomic<T>& a, T old) {
  constexpr int kSpins = 1000;
  for (int i = 0; i < kSpins; ++i) {
    const T now = a.load(std::memory_order_acquire);
    if (now != old) return now;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  T now;
  while ((now = a.load(std::memory_order_acquire)) == old) a.wait(old, std::memory_order_acquire);
  return now;
}

}  // namespace

ThreadTeam::ThreadTeam(int threads) : errors_(threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { Worker(i); });
}

ThreadTeam::~ThreadTeam() {
  stop_.store(true, std::memory_order_relaxed);
  round_.fetch_add(1, std::memory_order_release);
  round_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadTeam::Work(int i) {
  try {
    (*work_)(i);
  } catch (...) {
    errors_[i] = std::current_exception();
  }
}

void ThreadTeam::Worker(int i) {
  uint64_t seen = 0;
  for (;;) {
    seen = AwaitChange(round_, seen);
    if (stop_.load(std::memory_order_relaxed)) return;
    Work(i);
    if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) remaining_.notify_one();
  }
}

void ThreadTeam::Run(const std::function<void(int)>& work) {
  work_ = &work;
  remaining_.store(size() - 1, std::memory_order_relaxed);
  round_.fetch_add(1, std::memory_order_release);
  round_.notify_all();
  Work(0);
  for (int left = remaining_.load(std::memory_order_acquire); left != 0;) {
    left = AwaitChange(remaining_, left);
  }
  for (std::exception_ptr& e : errors_) {
    if (e) {
      std::exception_ptr first = e;
      for (std::exception_ptr& other : errors_) other = nullptr;
      std::rethrow_exception(first);
    }
  }
}

}  // namespace dcqcn
