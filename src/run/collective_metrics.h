// Job-level metrics of a run's collectives ([[collective]]): per iteration, when it started, how
// long it took, nccl-tests' algorithm and bus bandwidth, the ideal time and the slowdown.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "net/network.h"
#include "scenario/scenario.h"

namespace dcqcn {

struct CollectiveIteration {
  Time start = kTimeNever;  // the first start of its flows (kTimeNever: none started)
  Time end = -1;            // the last delivery of its flows (-1: not all delivered)
  bool finished() const { return end >= 0; }
  Time time() const { return end - start; }
};

// A flow of an iteration, and how much longer than ideal it took to deliver.
struct LateFlow {
  uint32_t id = 0;
  double slowdown = 0;  // (delivery - start) / IdealDelivery (ideal_times.h)
  // The ports that send its data, "node:port" (none over NVLink).
  std::vector<std::string> path;
};

struct CollectiveOutcome {
  // One iteration on an idle network (the same for every iteration): the larger of its
  // dependency chain's length, each flow taking IdealDelivery (ideal_times.h) (ACKs sharing the
  // links, as every rank receives while it sends) and a flow complete for its dependents when its
  // source host sees it (delivered, or acknowledged), and the busiest host link's or NVLink
  // port's bytes at its rate (data and the ACKs of it) plus the shortest latency of a flow: the
  // fabric between the hosts counts as non-blocking.
  Time ideal = 0;
  std::vector<CollectiveIteration> iterations;
  // The slowest finished iteration (-1: none) and its flows that were latest against their own
  // ideal, most late first (at most kLateFlows).
  int slowest = -1;
  std::vector<LateFlow> late;
  static constexpr size_t kLateFlows = 10;
};

std::vector<CollectiveOutcome> CollectiveOutcomes(const Scenario& s, const Network& net);
// summary.json's "collectives": per collective its op, algorithm, ranks (host indices), size,
// channels, each iteration's start_ns, time_ns, algbw_gbps, busbw_gbps, ideal_time_ns and
// slowdown and its flows ("flows": [first id, last id + 1]), their means over the finished
// iterations ("mean"), and the slowest iteration's latest flows ("slowest_iteration").
nlohmann::json CollectivesJson(const Scenario& s, const std::vector<CollectiveOutcome>& outcomes);
// collectives.csv: one row per collective and iteration.
std::string CollectivesCsv(const Scenario& s, const std::vector<CollectiveOutcome>& outcomes);

}  // namespace dcqcn
