// The run's result files: flows.csv (one row per flow), links.csv (the cabling) and summary.json
// (the headline numbers).
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "net/deadlock_detector.h"
#include "net/network.h"
#include "output/convergence.h"
#include "output/metrics.h"
#include "scenario/scenario.h"

namespace dcqcn {

struct RunInfo {
  Time sim_time = 0;  // when the run ended: the last flow's finish, or the duration
  double wall_time_s = 0;
  uint64_t events = 0;
  bool drained = false;  // the network emptied after the last flow finished
  // Per-flow delivered-bytes samples for the convergence time (empty: not recorded).
  std::vector<Time> sample_times;
  DeliveredSamples delivered;
  // Every flow's outcome (FlowOutcomesOf), for flows.csv and summary.json.
  FlowOutcomes outcomes;
  // PFC deadlocks found (output.deadlock_time), in the order found.
  std::vector<Deadlock> deadlocks;
  // Why each flow did not finish (UnfinishedReasons), by flow id; empty when all did.
  std::vector<uint8_t> unfinished;
  // The run was stopped at a deadlock (--stop-on-deadlock), before `duration`.
  bool stopped_early = false;
};

// Why a flow did not finish, in flows.csv's `unfinished` column: it waited for flows that did
// not complete; it starts after the run's end; a PFC deadlock standing at the end held it; a
// link down left it no way to its other end; static routes loop it (its packets' TTL runs
// out); the run was stopped early at a deadlock; or it was still under way at the end.
enum class Unfinished : uint8_t {
  kFinished,
  kWaiting,
  kNotStarted,
  kDeadlocked,
  kCutOff,
  kTtlLoop,
  kRunStopped,
  kOutOfTime
};
std::string_view UnfinishedName(Unfinished why);
// Every flow's Unfinished, by flow id (empty when every flow finished); `info.outcomes` and
// `info.deadlocks` are filled.
std::vector<uint8_t> UnfinishedReasons(const Network& net, const RunInfo& info);

// What the metrics need of each flow, in flow-id order, read from `net` (which must outlive it)
// as they are asked for: only the ideal FCTs (a route walk each) are computed up front.
FlowOutcomes FlowOutcomesOf(const Network& net);
// How long `port` was paused up to `end`, summed over classes (links.csv, pfc.spread).
Time PausedTime(const EgressPort& port, Time end);
// The flows a deadlock still standing at the end left unfinished, each with when it began.
std::map<uint32_t, Time> FlowsLeftInDeadlock(const RunInfo& info);
// flows.csv of the run of scenario `s` on `net` (from an HPCC topology file with src_node and
// dst_node, the file's node ids; after a deadlock, deadlocked_since_ns: when the deadlock that
// left the flow unfinished began; when a flow is unfinished, `unfinished`: why), handed to `sink`
// in pieces of about 1 MB (a run of millions of flows never holds it as one string).
void FlowsCsvTo(const Scenario& s, const Network& net, const RunInfo& info,
                const std::function<void(std::string_view)>& sink);
// Every port of every node, what it is cabled to and how busy it was:
// node,port,peer,peer_port,rate_gbps,delay_ns,utilisation (wire bytes sent over the active
// interval [active_start, end]; empty when it is empty); from an HPCC topology file also
// node_id,peer_id (that file's node ids).
std::string LinksCsv(const Network& net, Time active_start, Time end);
// Every flow's max-min fair share (core/max_min.h) in Gb/s of line rate, by flow id, over the
// links its data takes and its own rate limit, for the flows active by `end`; empty unless at
// least two flows were active and all of them at one instant (when jain_fairness has a value).
std::vector<double> MaxMinSharesGbps(const Scenario& s, const Network& net,
                                     const FlowOutcomes& outcomes, Time end);
// `s` is the scenario `net` was built from (its name, seed, [output] and [cc]).
nlohmann::json Summary(const Scenario& s, const Network& net, const RunInfo& info);

// summary.json's "cc": the algorithm, its profile and its own named counters.
nlohmann::json CcJson(const CcConfig& cc, const CcCounters& counters);

// Peak resident memory of this process so far, in MiB (getrusage's ru_maxrss).
double PeakRssMb();

}  // namespace dcqcn
