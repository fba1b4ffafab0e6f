// A team of threads that run a piece of work each, again and again, in step: the threads of a run
// split over threads, which run each window of simulated time side by side and meet at its end.
#pragma once

#include <barrier>
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
  std::barrier<> start_;
  std::barrier<> end_;
  const std::function<void(int)>* work_ = nullptr;
  bool stop_ = false;
  std::vector<std::exception_ptr> errors_;
  std::vector<std::thread> workers_;
};

}  // namespace dcqcn
