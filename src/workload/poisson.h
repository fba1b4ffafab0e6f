// The poisson workload: per-host Poisson flow arrivals at a target load with sizes from a CDF,
// and optional incast events on top (design 1.2 [workload] type = "poisson").
#pragma once

#include <vector>

#include "net/flow_spec.h"
#include "workload/flow_tags.h"
#include "workload/workload_config.h"

namespace dcqcn {

// RNG streams of the two random processes, distinct from every other consumer's, so that adding
// incast events never changes the background flows and vice versa.
inline constexpr uint64_t kPoissonRngStream = 13;
inline constexpr uint64_t kIncastEventRngStream = 14;

// Appends the flows of a poisson workload (s.workload.type == "poisson") to `flows`:
//   background: every host h draws exponential gaps of mean 8 * mean_size / (load * rate_h)
//     (rate_h its link rate, mean_size the CDF's exact mean) and starts a flow at every arrival
//     in [start, start + window), of a size drawn from the CDF, to a host drawn uniformly from
//     the others. Hosts are drawn in index order from Rng(seed, kPoissonRngStream).
//   incast events (incast_fanin > 0): exponential gaps of mean 1 / incast_rate over the same
//     window, from Rng(seed, kIncastEventRngStream); each event draws a receiver uniformly, then
//     incast_fanin distinct senders uniformly from the other hosts, each sending incast_size.
// The new flows are sorted by start time (ties keep generation order: background by host, then
// incast events); all use the workload's priority. Throws InputError for parameters that do not
// fit the topology (the loader reports the same with line numbers first).
void GeneratePoisson(const WorkloadInput& s, std::vector<FlowSpec>& flows, FlowTags& tags);

// The mean number of flows a host with link rate `rate` starts per second at `load` for a CDF
// whose mean size is `mean_size` bytes: load * rate / (8 * mean_size).
double PoissonArrivalsPerSecond(double load, Rate rate, double mean_size);

}  // namespace dcqcn
