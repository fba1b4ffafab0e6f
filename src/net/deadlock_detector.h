// PFC deadlock detection: a set of switch egress queues, each holding data and paused by its
// peer, where each waits on the next one's PAUSE in a cycle, and none has moved for
// `deadlock_time` (Hu et al., "Deadlocks in Datacenter Networks", HotNets'16: a cyclic buffer
// dependency). It reads the network between run slices and schedules nothing, so a run gives
// the same results with it as without; what it reports comes from when each pause began, so it
// does not depend on when it looks either.
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

struct Deadlock {
  Time since = 0;                    // the last of the cycle's pauses began then
  Time at = 0;                       // since + deadlock_time: when it qualified
  std::vector<DeadlockQueue> cycle;  // each waits on the next's PAUSE (the last on the first)
  std::vector<uint32_t> flows;       // the flows whose packets wait in those queues
};

class DeadlockDetector {
 public:
  explicit DeadlockDetector(Time deadlock_time) : deadlock_time_(deadlock_time) {}
  // The deadlocks the network is in at `now` that have lasted `deadlock_time`, each reported
  // once (a cycle found again later is the same deadlock while it lasts).
  std::vector<Deadlock> Check(const Network& net, Time now);
  // "s1:2:3": switch, port, priority, as summary.json lists a cycle.
  static std::string Name(const Network& net, const DeadlockQueue& q);

 private:
  Time deadlock_time_;
  std::set<std::pair<Time, std::vector<DeadlockQueue>>> reported_;  // (since, cycle)
};

}  // namespace dcqcn
