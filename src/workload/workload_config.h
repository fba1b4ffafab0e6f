// A generated workload as a scenario describes it ([workload]); GenerateWorkload makes its flows.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.h"
#include "net/topology.h"

namespace dcqcn {

struct WorkloadConfig {
  std::string type;          // "" (none) | incast | permutation | poisson
  std::vector<int> senders;  // incast: explicit sender hosts
  int sender_count = 0;      // incast: or the first N hosts other than the receiver
  int receiver = 0;          // incast
  Bytes size = 0;
  Time start = 0;
  int priority = 3;
  // poisson: every host starts flows as a Poisson process during [start, start + window), at the
  // mean rate load * (its link rate) / (8 * mean flow size), sizes drawn from `cdf`, each to a
  // host drawn uniformly from the others (HPCC's traffic generator does the same).
  std::string cdf;  // "websearch" | "hadoop" | an HPCC-format CDF file (resolved path)
  double load = 0;  // offered load, fraction 0..1 of each host's link rate
  Time window = 0;  // arrivals happen during this long a time after `start`
  // Incast events on top of the Poisson load ([workload.incast]): Poisson events at
  // `incast_rate` per second during the same window; each picks a receiver and `incast_fanin`
  // distinct senders at random, which all start a flow of `incast_size` bytes at the same time.
  // Tag of the generated flows: "incast", "permutation", "background" (poisson) by default;
  // the poisson workload's incast events are always tagged "incast".
  std::string tag;
  int incast_fanin = 0;  // 0 = no incast events
  Bytes incast_size = 0;
  double incast_rate = 0;  // events per second
};

// What a generator reads besides its [workload] table.
struct WorkloadInput {
  const WorkloadConfig& workload;
  const Topology& topology;  // the hosts and their links
  uint64_t seed = 1;
  std::string_view source;  // the input it came from, for messages
};

}  // namespace dcqcn
