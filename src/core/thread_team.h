// A team of threads that run a piece of work each, again and again, in step: the threads of a run
// split over threads, which run each window of simulated time side by side and meet at its end.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace dcqcn {

class ThreadTeam {
 public:
  // `threads` - 1 workers are started; the caller's thread is the team's thread 0.
  explicit ThreadTeam(int threads);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;
  int size() const { return static_cast<int>(errors_.size()); }
  // Runs work(i) on thread i for every i (the caller's as 0) and returns when every thread has
  // returned; what writes work(i) did are then visible here. If any threw, rethrows the first
  // (by thread) once all have returned.
  void Run(const std::function<void(int)>& work);

 private:
  void Work(int i);
  void Worker(int i);
  // A round starts when round_ moves on and ends when remaining_ reaches 0. Threads wait for
  // either by spinning briefly (rounds are short: a window of a few hundred microseconds, the
  // threads' ends a few microseconds apart), then asleep (more threads than cores, or a long
  // pause between rounds).
  std::atomic<uint64_t> round_{0};
  std::atomic<int> remaining_{0};
  std::atomic<bool> stop_{false};
  const std::function<void(int)>* work_ = nullptr;
  std::vector<std::exception_ptr> errors_;
  std::vector<std::thread> workers_;
};

}  // namespace dcqcn
