#include "engine/thread_choice.h"

namespace dcqcn {

void ThreadChoice::Record(uint64_t events, double seconds) {
  ++windows_[on_threads_ ? 1 : 0];
  if (!threads_) return;
  trial_events_ += events;
  trial_seconds_ += seconds;
  if (trial_seconds_ < trial_seconds_limit_) return;
  rate_[on_threads_ ? 1 : 0] = static_cast<double>(trial_events_) / trial_seconds_;
  trial_events_ = 0;
  trial_seconds_ = 0;
  if (probing_) {
    // Both ways measured back to back: keep the faster.
    probing_ = false;
    on_threads_ = rate_[1] >= rate_[0];
    trials_since_probe_ = 0;
  } else if (++trials_since_probe_ >= kTrialsBetweenProbes) {
    probing_ = true;
    on_threads_ = !on_threads_;
  }
}

}  // namespace dcqcn
