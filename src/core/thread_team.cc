// Two barriers per round: one releases the workers onto the work, one waits for them all.
#include "core/thread_team.h"

namespace dcqcn {

ThreadTeam::ThreadTeam(int threads) : start_(threads), end_(threads), errors_(threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { Worker(i); });
}

ThreadTeam::~ThreadTeam() {
  stop_ = true;
  start_.arrive_and_wait();
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
  for (;;) {
    start_.arrive_and_wait();
    if (stop_) return;
    Work(i);
    end_.arrive_and_wait();
  }
}

void ThreadTeam::Run(const std::function<void(int)>& work) {
  work_ = &work;
  start_.arrive_and_wait();
  Work(0);
  end_.arrive_and_wait();
  for (std::exception_ptr& e : errors_) {
    if (e) {
      std::exception_ptr first = e;
      for (std::exception_ptr& other : errors_) other = nullptr;
      std::rethrow_exception(first);
    }
  }
}

}  // namespace dcqcn
