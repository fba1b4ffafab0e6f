// Runs a scenario: build the network, step the simulator with progress, drain, check the
// invariants and write the output folder.
#include "run/run_scenario.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

#include "core/error.h"
#include "core/huge_pages.h"
#include "engine/engine.h"
#include "net/network.h"
#include "net/network_event.h"
#include "run/node_work.h"
#include "run/rank_refusal.h"
#include "run/results.h"
#include "run/sinks.h"
#include "topology/topology_type.h"

namespace dcqcn {
namespace {

// Restarts the switch ports' statistics when the warm-up period ends.
class WarmupEnd : public EventHandler {
 public:
  explicit WarmupEnd(Network* net) : net_(net) { net->sim().EnrollObserver(*this); }
  void HandleEvent(uint32_t, uint64_t) override {
    for (auto& sw : net_->switches()) {
      for (int p = 0; p < sw->num_ports(); ++p) sw->port(p).StartStatistics();
    }
  }

 private:
  Network* net_;
};

}  // namespace

int AutoThreads(const Topology& topo) {
  // Below a few hundred hosts a window holds too little work to pay for its barrier: one
  // thread ran a k = 8 fat tree (128 hosts) in 0.26 s, two in 0.46 s; at 320 hosts (HPCC's fat
  // tree) two threads ran in 0.78 of one's time (docs/parallel.md).
  constexpr int kHostsForThreads = 256;
  if (topo.hosts < kHostsForThreads) return 1;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

std::string OneThreadOnly(const Scenario& s) {
  // A job's flows may not be built (`check`): its step rule says what they would need.
  bool ack_arrival = false;
  for (size_t j = 0; j < s.jobs.size(); ++j) {
    ack_arrival = ack_arrival || (s.jobs[j].step_done == StepDone::kAckArrival &&
                                  j < s.job_flow_counts.size() && s.job_flow_counts[j] > 0);
  }
  if (CanSplit(s.flow_level, &s.flow_after) && !ack_arrival) return "";
  if (s.flow_level) return "model = \"flow\" runs on one thread: its shares are the whole fabric's";
  return "step_done = \"ack_arrival\" runs on one thread: a sender's last ACK tells its receiver "
         "at once";
}

double ProgressFraction(Time origin, Time end, Time now, int flows_done, int flows_total) {
  if (end <= origin) return 1;
  const double by_time = static_cast<double>(now - origin) / static_cast<double>(end - origin);
  const double by_flows =
      flows_total > 0 ? static_cast<double>(flows_done) / static_cast<double>(flows_total) : 0;
  const double f = std::max(by_time, by_flows);
  return f < 0 ? 0 : (f > 1 ? 1 : f);
}

namespace {

// Throws InputError, naming the key, if `s` asks for something a run spread over MPI ranks
// cannot do yet.
void CheckRanksCanRun(const Scenario& s) {
  // What reads the whole network while it runs, which a process running part of it cannot.
  auto refuse = [&](const std::string& key, const std::string& what) {
    throw InputError(fmt::format(
        "{}: {}: {} is not yet supported in a run spread over MPI ranks (mpirun); run it in one "
        "process, with --threads",
        s.source, key, what));
  };
  if (AnyChangesLinks(s.events)) refuse("[[event]] kind", "a link event");
}

}  // namespace

nlohmann::json RunScenario(const Scenario& s, const RunOptions& options) {
  auto wall_start = std::chrono::steady_clock::now();
  NetworkConfig config = ToNetworkConfig(s);
  const int threads =
      options.threads > 0
          ? options.threads
          : std::max(1, AutoThreads(config.topology) / std::max(1, options.runs_at_once));
  const bool over_ranks = options.ranks != nullptr && options.ranks->ranks() > 1;
  // Each process runs `threads` parts (a network that cannot be split has one, run whole by
  // every process).
  config.parts = threads * (over_ranks ? options.ranks->ranks() : 1);
  std::unique_ptr<Network> built;
  std::string refused;
  try {
    if (over_ranks) CheckRanksCanRun(s);
    // Read (and so checked) even where one part leaves nothing to place.
    if (!options.placement_from.empty()) {
      config.node_work = ReadNodeWork(options.placement_from, config.topology);
    }
    built = std::make_unique<Network>(std::move(config));
  } catch (const InputError& e) {
    if (!over_ranks) throw;
    refused = e.what();
  }
  // Over ranks, before their first exchange: what every rank refused ends them all cleanly.
  if (over_ranks) AgreeBeforeRun(*options.ranks, refused);
  Network& net = *built;
  const std::unique_ptr<Engine> engine = MakeEngine(net, options.ranks);
  // Built: most of the state the run touches is allocated now; the rest follows as it grows.
  KeepHugePages();
  // The outputs, then whatever the caller adds (the HPCC-format files of `dcqcn ns3`).
  std::vector<std::unique_ptr<OutputSink>> own_sinks = ScenarioSinks(s);
  std::vector<OutputSink*> sinks;
  for (auto& sink : own_sinks) sinks.push_back(sink.get());
  sinks.insert(sinks.end(), options.extra_sinks.begin(), options.extra_sinks.end());
  for (OutputSink* sink : sinks) sink->Start(*engine, options.out_dir);
  // Queue statistics count over the active interval, after the warm-up.
  WarmupEnd warmup(&net);
  if (s.output.warmup < s.duration - net.first_start()) {
    net.sim().ScheduleKeyed(net.first_start() + s.output.warmup, &warmup, 0, 0, warmup, 0);
  }

  // Run in slices so the progress line stays live and a stop request is seen without a check
  // per event; with check_invariants, short slices so that the checks come often.
  const uint64_t slice = options.check_invariants ? 1024 : 1 << 16;
  DeadlockDetector deadlocks(s.output.deadlock_time);
  std::vector<Deadlock> found;
  // Slices end when the detector wants to look (a slice's end changes nothing in the run), and
  // it looks only then (DeadlockDetector::next_look): it reads the network and schedules
  // nothing.
  const bool watch = s.output.deadlock_time > 0;
  auto look_for_deadlocks = [&](Time until) {
    if (!watch || engine->next_time() <= until) return;  // cut short by the event budget
    for (Deadlock& d : deadlocks.Check(net, engine->PausedQueues(), until)) {
      found.push_back(std::move(d));
    }
  };
  while (!engine->all_done() && engine->pending() > 0 && engine->next_time() <= s.duration) {
    const Time until = watch ? std::min(s.duration, deadlocks.next_look()) : s.duration;
    engine->RunUntil(until, slice);
    look_for_deadlocks(until);
    if (options.stop_on_deadlock && !found.empty()) break;
    KeepHugePages();
    if (options.on_progress) {
      const int total = static_cast<int>(net.num_flows());
      options.on_progress({engine->Now(), s.duration,
                           ProgressFraction(net.first_start(), s.duration, engine->Now(),
                                            engine->flows_done(), total),
                           engine->events_executed(), engine->flows_done(), total,
                           net.first_start()});
    }
    if (options.check_invariants) net.CheckInvariants(false);
    bool stop = options.stop != nullptr && options.stop->load();
    if (engine->ranks() > 1) {
      // Every rank stops at the same slice, when any was asked to (mpirun forwards the signal
      // to each, not at the same instant), so that all of them end cleanly.
      for (const std::vector<int64_t>& r : options.ranks->AllGather({stop ? 1 : 0})) {
        stop = stop || r[0] != 0;
      }
    }
    if (stop) throw Interrupted("interrupted: no results written");
  }

  RunInfo info;
  if (engine->all_done()) {
    info.sim_time = engine->last_finish();
    // Let what is still in flight (duplicate packets, final PFC RESUMEs) land, then every
    // buffer counter must be back at zero. Finished flows' retransmission timers may still be
    // pending (they do nothing once they fire): the drain lasts until they have fired too, so
    // that a short `duration` still ends in an empty event queue. The run is over: link events
    // still to come do not happen.
    net.EndLinkEvents();
    engine->RunUntil(info.sim_time + std::max(s.duration, s.host.rto));
    info.drained = engine->pending() == 0;
  } else {
    // Stopped at a deadlock: the run ends when it qualified (nothing in it has moved since).
    info.stopped_early = !found.empty() && options.stop_on_deadlock;
    info.sim_time = info.stopped_early ? found.front().at : s.duration;
  }
  deadlocks.MarkStanding(net, engine->PausedQueues(), found);
  info.deadlocks = std::move(found);
  net.CheckInvariants(info.drained);
  if (s.flow_level) net.CountFlowLevelTraffic();
  engine->CollectResults();  // over ranks: rank 0's network answers for all of them
  net.ReleaseRunState();     // the results' own memory takes its place
  for (OutputSink* sink : sinks) sink->Collect();
  // Over ranks, rank 0 writes, also where every process ran all of the network.
  const bool writes = !over_ranks || options.ranks->rank() == 0;
  info.events = engine->events_executed();
  info.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (!writes) return {};
  info.outcomes = FlowOutcomesOf(net);
  info.unfinished = UnfinishedReasons(net, info);
  for (OutputSink* sink : sinks) sink->Finish(info);
  nlohmann::json summary = Summary(s, net, info);
  if (s.flow_level) {
    const FlowLevelFabric& f = *net.flow_level();
    summary["model"] = {
        {"name", "flow"},
        {"leaves_out",
         "queues, ECN marks, PFC pauses, drops and congestion control's dynamics: each flow "
         "streams at its max-min fair share of the ports its packets would cross, recomputed "
         "whenever a flow starts or stops (docs/flow-level.md); the counters of those are 0"},
        {"reshares", f.reshares()},
        {"streams_reshared", f.streams_reshared()}};
  }
  if (const std::string why = OneThreadOnly(s); !why.empty()) {
    if (threads > 1) summary["threads"] = {{"asked", threads}, {"ran", 1}, {"why", why}};
    // Over ranks such a network is not split: every process runs all of it.
    if (over_ranks) {
      summary["ranks"] = {{"asked", options.ranks->ranks()}, {"split", false}, {"why", why}};
    }
  }
  for (OutputSink* sink : sinks) sink->Summarize(summary);
  if (options.after_run) options.after_run(net);
  // A stop that came after the last slice: nothing more is written.
  ThrowIfStopped(options.stop);
  if (!options.out_dir.empty()) {
    for (OutputSink* sink : sinks) sink->Write(net, info, summary, options.out_dir);
  }
  return summary;
}

}  // namespace dcqcn
