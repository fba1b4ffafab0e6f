// PFC deadlock detection: a set of switch egress queues, each holding data and paused by its
// peer, where each waits on the next one's PAUSE in a cycle, and none has moved for
// `deadlock_time` (Hu et al., "Deadlocks in Datacenter Networks", HotNets'16: a cyclic buffer
// dependency). It reads the network between run slices and schedules nothing, so a run gives
// the same results with it as without; what it reports comes from when each pause began, so it
// does not depend on when it looks either, as long as it looks at next_look() (a deadlock a
// watchdog breaks soon after it qualified is still seen).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/units.h"

namespace dcqcn {

class Network;

struct DeadlockQueue {
  int node = 0;  // the switch's node id
  int port = 0;
  int priority = 0;
  auto operator<=>(const DeadlockQueue&) const = default;
};

// A switch egress queue that holds data and is paused by its peer, as the detector reads it:
// Network::PausedQueues lists a process's, an engine's those of every process of the run.
struct PausedQueue {
  DeadlockQueue queue;
  Time since = 0;                  // paused without a break since then
  std::vector<uint16_t> in_ports;  // the ports its packets came in on, ascending, once each
  std::vector<uint32_t> flows;     // its packets' flows, ascending, once each
};

struct Deadlock {
  Time since = 0;                    // the last of the cycle's pauses began then
  Time at = 0;                       // since + deadlock_time: when it qualified
  std::vector<DeadlockQueue> cycle;  // each waits on the next's PAUSE (the last on the first)
  std::vector<uint32_t> flows;       // the flows whose packets wait in those queues
  bool to_end = false;               // still standing when the run ended (MarkStanding)
};

class DeadlockDetector {
 public:
  explicit DeadlockDetector(Time deadlock_time) : deadlock_time_(deadlock_time) {}
  // The deadlocks the network is in at `now`, when its paused queues are `queues`, that have
  // lasted `deadlock_time`, each reported once (a cycle found again later is the same deadlock
  // while it lasts).
  std::vector<Deadlock> Check(const Network& net, const std::vector<PausedQueue>& queues, Time now);
  // At the end of a run: sets to_end on those of `found` the network is still in.
  void MarkStanding(const Network& net, const std::vector<PausedQueue>& queues,
                    std::vector<Deadlock>& found) const;
  // "s1:2:3": switch, port, priority, as summary.json lists a cycle.
  static std::string Name(const Network& net, const DeadlockQueue& q);
  // When to look next: `deadlock_time` after the last look (a cycle that lasts that long is
  // seen), or sooner, when a cycle seen but not yet stuck long enough would qualify.
  Time next_look() const { return next_look_; }

 private:
  // Every cycle of paused queues the network is in now, however long it has lasted.
  std::vector<Deadlock> Cycles(const Network& net, const std::vector<PausedQueue>& queues) const;
  Time deadlock_time_;
  Time next_look_ = deadlock_time_;
  std::set<std::pair<Time, std::vector<DeadlockQueue>>> reported_;  // (since, cycle)
};

}  // namespace dcqcn
