// `dcqcn run`: simulate a scenario and write its output folder.
#pragma once

#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/rank_exchange.h"
#include "net/topology.h"
#include "scenario/scenario.h"

namespace dcqcn {

class Network;
class OutputSink;

// Where a run stands, reported between slices of events (RunOptions::on_progress).
struct RunProgress {
  Time now = 0;
  Time end = 0;         // the scenario's duration: the run stops there at the latest
  double fraction = 0;  // done, 0..1 (ProgressFraction)
  uint64_t events = 0;
  int flows_done = 0;
  int flows_total = 0;
  Time origin = 0;  // the first flow's start, where the active interval and its times begin
};

struct RunOptions {
  std::string out_dir;  // empty: do not write files (tests, benchmarks); else an empty folder
  // Set asynchronously (a signal handler) to stop the run: RunScenario throws Interrupted.
  const std::atomic<bool>* stop = nullptr;
  // Outputs beyond the scenario's own (run/sinks.h), walked after them: `dcqcn ns3` adds its
  // HPCC-format FCT and PFC files. Not owned.
  std::vector<OutputSink*> extra_sinks = {};
  // Called with the finished network before the output folder is written: a look at the
  // network for tests and embedders, not an output.
  std::function<void(const Network&)> after_run;
  // Verify conservation and buffer accounting (Network::CheckInvariants) every 1024 events, not
  // only at the end: slower, for tests and for chasing a bug.
  bool check_invariants = false;
  // Called after every slice of 65,536 events (about every 10 ms of wall time), on the thread
  // that runs: the command line's progress line, the Python module's progress callback and
  // Ctrl-C check.
  std::function<void(const RunProgress&)> on_progress = nullptr;
  // Threads to split the run over (Network's parts): the results are the same for any.
  // 0: automatic, AutoThreads shared among `runs_at_once` (at least one each).
  int threads = 1;
  // A run folder of an earlier run of the same topology: its links.csv's bytes place the
  // nodes on the threads by the work each did (ReadNodeWork) instead of by their ports. ""
  // (default): by ports. Speed only: the results are the same.
  std::string placement_from = {};
  // Runs the caller runs at once (a sweep's or a search's jobs), which share the cores an
  // automatic thread count hands out.
  int runs_at_once = 1;
  // End the run at the first PFC deadlock found (output.deadlock_time), as if its duration
  // had come.
  bool stop_on_deadlock = false;
  // The processes the run is spread over (`mpirun -np P dcqcn run`), each with `threads`
  // threads; null: this one alone. Every rank calls RunScenario alike; rank 0 writes `out_dir`
  // and the others pass none. Not owned.
  RankExchange* ranks = nullptr;
};

// The threads a run is split over when the user does not say: every core for a network of a
// few hundred hosts or more, else one.
int AutoThreads(const Topology& topo);
// Why a run of `s` runs on one thread whatever it is asked for ("" when it splits): the flow
// level's shares are the whole fabric's (net/flow_level_fabric.h). A run asked for more says so
// in summary.json ("threads"), and `dcqcn check` prints it.
std::string OneThreadOnly(const Scenario& s);

// How far a run is, in 0..1. It ends when every flow has finished or at `end`, whichever comes
// first, so this is the larger of the share of the active interval [origin, end] before `now`
// and the share of the flows finished (an HPCC input's stop time is often far beyond its last
// flow: by time alone its run would seem to stop at 5%).
double ProgressFraction(Time origin, Time end, Time now, int flows_done = 0, int flows_total = 0);

// Runs the scenario to completion (all flows done, or its duration) and returns summary.json's
// content. Throws InputError for scenarios that cannot be built, InvariantError on a bug,
// Interrupted when `stop` was set.
nlohmann::json RunScenario(const Scenario& s, const RunOptions& options);

}  // namespace dcqcn
