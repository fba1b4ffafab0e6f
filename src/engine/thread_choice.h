// Whether a split run's windows run on its threads side by side or one after another on the
// calling thread: whichever has lately executed more events per second of wall time. Results are
// the same either way (a window's parts never see each other's events within it); only the speed
// differs. On idle cores the threads win; when other work shares the cores, a thread waits at
// every window's barrier for one the system has descheduled (a k = 6 fat tree took 2.2 s on two
// threads against 1.2 s on one while a test suite ran), and the calling thread alone wins.
#pragma once

#include <cstdint>

namespace dcqcn {

class ThreadChoice {
 public:
  // Each way is measured over a trial of kTrialSeconds of wall time; the way in use is kept for
  // kTrialsBetweenProbes trials before the other is tried again for one (the first right after
  // the first trial). A wrong probe costs at most its trial: about 1/11 of the time.
  static constexpr double kTrialSeconds = 0.02;
  static constexpr int kTrialsBetweenProbes = 10;

  // `threads` = false: there is one thread; the calling thread runs every window.
  // `trial_seconds` 0: every window is a trial (tests mix both ways so).
  explicit ThreadChoice(bool threads, double trial_seconds = kTrialSeconds)
      : threads_(threads), on_threads_(threads), trial_seconds_limit_(trial_seconds) {}
  // Whether the next window runs on the threads.
  bool on_threads() const { return on_threads_; }
  // After each window: the events it executed and the wall time it took.
  void Record(uint64_t events, double seconds);
  // Windows run so far on the threads and on the calling thread alone.
  uint64_t windows_on_threads() const { return windows_[1]; }
  uint64_t windows_alone() const { return windows_[0]; }

 private:
  bool threads_;
  bool on_threads_;
  double trial_seconds_limit_;
  bool probing_ = false;  // this trial tries the other way
  int trials_since_probe_ = kTrialsBetweenProbes;
  uint64_t trial_events_ = 0;
  double trial_seconds_ = 0;
  double rate_[2] = {0, 0};  // events per second of the last trial, alone and on the threads
  uint64_t windows_[2] = {0, 0};
};

}  // namespace dcqcn
