// DCQCN reaction point of one flow (sender NIC) as a pure state machine: it is given the time
// with every call and tells when it next needs to be called (next_deadline), so a unit test can
// drive it exactly and the simulator schedules at most one event per flow.
//
// State is lazy: it exists only after a flow's first CNP; alpha decay is computed when needed
// (bit-identical to a periodic timer); the increase timer and byte counter stop once the flow is
// back at line rate, and everything stops when the flow is done.
#pragma once

#include <cstdint>

#include "cc/dcqcn/dcqcn_params.h"

namespace dcqcn {

struct DcqcnRpCounters {
  uint64_t cnps = 0;           // CNPs received
  uint64_t cuts = 0;           // rate decreases
  uint64_t fast_recovery = 0;  // increase events by phase
  uint64_t additive = 0;
  uint64_t hyper = 0;
  uint64_t timer_events = 0;  // increase events by source
  uint64_t byte_events = 0;

  DcqcnRpCounters& operator+=(const DcqcnRpCounters& o) {
    cnps += o.cnps;
    cuts += o.cuts;
    fast_recovery += o.fast_recovery;
    additive += o.additive;
    hyper += o.hyper;
    timer_events += o.timer_events;
    byte_events += o.byte_events;
    return *this;
  }
};

class DcqcnRp {
 public:
  // Created at the flow's first CNP, which the caller then passes to OnCnp. `rate` is the
  // flow's current rate (line rate: flows start at line rate and nothing slowed them yet).
  DcqcnRp(const DcqcnParams* params, Rate line_rate, double rate, Time now);

  // Every call first runs the timers due at or before `now`, in time order.
  void OnCnp(Time now);
  void OnBytesSent(Time now, Bytes bytes);
  void AdvanceTo(Time now);
  // The flow finished: no more timers.
  void Stop();

  // When AdvanceTo must next be called; kTimeNever if no timer runs.
  Time next_deadline() const;

  double rc() const { return rc_; }
  double rt() const { return rt_; }
  // Alpha as of `now` (applies the decay ticks due by then without changing the state).
  double alpha(Time now) const;
  int timer_stage() const { return it_; }
  int byte_stage() const { return ib_; }
  Bytes bytes_to_next_increase() const { return byte_left_; }
  const DcqcnRpCounters& counters() const { return counters_; }

 private:
  void RunTimersUntil(Time now);
  void SyncAlpha(Time now);
  void Cut(Time now);
  void IncreaseEvent(bool from_timer);
  double AlphaAfterTicks(double alpha, bool flag, int64_t ticks) const;

  const DcqcnParams* p_;
  double line_;
  double rc_;
  double rt_;
  double alpha_;
  int it_ = 0;               // timer stage count
  int ib_ = 0;               // byte-counter stage count
  Bytes byte_left_ = 0;      // bytes until the next byte-counter event
  bool increasing_ = false;  // timer and byte counter running (after a cut, below line)
  Time rate_timer_at_ = kTimeNever;
  // Alpha: ticks at alpha_anchor_ + n*K (paper: anchored at the last CNP; sampled: the first).
  Time alpha_anchor_ = 0;
  bool alpha_flag_ = false;  // sampled: a CNP arrived since the last alpha tick
  // Sampled mode: decrease checks at decrease_anchor_ + n*P, scheduled only while a CNP waits.
  Time decrease_anchor_ = 0;
  Time decrease_at_ = kTimeNever;
  bool decrease_flag_ = false;
  bool stopped_ = false;
  DcqcnRpCounters counters_;
};

}  // namespace dcqcn
