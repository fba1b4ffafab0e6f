// Runs a scenario: build the network, step the simulator with progress, drain, check the
// invariants and write the output folder.
#include "run/run_scenario.h"

#include <chrono>
#include <memory>

#include "core/error.h"
#include "core/huge_pages.h"
#include "net/network.h"
#include "output/atomic_file.h"
#include "output/pcap_capture.h"
#include "output/timeseries.h"
#include "run/progress.h"
#include "run/results.h"
#include "scenario/resolved_toml.h"

namespace dcqcn {
namespace {

// Restarts the switch ports' statistics when the warm-up period ends.
class WarmupEnd : public EventHandler {
 public:
  explicit WarmupEnd(Network* net) : net_(net) {}
  void HandleEvent(uint32_t, uint64_t) override {
    for (auto& sw : net_->switches()) {
      for (int p = 0; p < sw->num_ports(); ++p) sw->port(p).StartStatistics();
    }
  }

 private:
  Network* net_;
};

}  // namespace

nlohmann::json RunScenario(const Scenario& s, const RunOptions& options) {
  auto wall_start = std::chrono::steady_clock::now();
  Network net(ToNetworkConfig(s));
  // Built: most of the state the run touches is allocated now; the rest follows as it grows.
  KeepHugePages();
  Simulator& sim = net.sim();
  // Written as the run goes, into the (staged) output folder.
  std::unique_ptr<PcapCapture> capture;
  if (s.output.pcap.enabled() && !options.out_dir.empty()) {
    capture = std::make_unique<PcapCapture>(s.output.pcap, &net, options.out_dir + "/capture.pcap");
  }
  TimeSeriesSampler sampler(&net, s.output);
  ProgressLine progress(options.progress, net.first_start(), s.duration);
  // Queue statistics count over the active interval, after the warm-up.
  WarmupEnd warmup(&net);
  if (s.output.warmup < s.duration - net.first_start()) {
    sim.Schedule(net.first_start() + s.output.warmup, &warmup, 0, 0);
  }

  // Run in slices so the progress line stays live and a stop request is seen without a check
  // per event; with check_invariants, short slices so that the checks come often.
  const uint64_t slice = options.check_invariants ? 1024 : 1 << 16;
  while (!net.all_done() && sim.pending() > 0 && sim.next_time() <= s.duration) {
    sim.RunUntil(s.duration, slice);
    KeepHugePages();
    progress.Update(sim.Now(), sim.events_executed(), net.flows_done(),
                    static_cast<int>(net.num_flows()));
    if (options.on_progress) {
      options.on_progress({sim.Now(), ProgressFraction(net.first_start(), s.duration, sim.Now()),
                           sim.events_executed(), net.flows_done(),
                           static_cast<int>(net.num_flows())});
    }
    if (options.check_invariants) net.CheckInvariants(false);
    if (options.stop != nullptr && options.stop->load()) {
      progress.Finish();
      throw Interrupted("interrupted: no results written");
    }
  }
  progress.Finish();

  RunInfo info;
  if (net.all_done()) {
    info.sim_time = net.last_finish();
    // Let what is still in flight (duplicate packets, final PFC RESUMEs) land, then every
    // buffer counter must be back at zero.
    sim.RunUntil(info.sim_time + s.duration);
    info.drained = sim.pending() == 0;
  } else {
    info.sim_time = s.duration;
  }
  net.CheckInvariants(info.drained);
  info.events = sim.events_executed();
  info.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  info.sample_times = sampler.times();
  info.delivered = sampler.DeliveredByFlow();
  info.outcomes = FlowOutcomes(net);

  nlohmann::json summary = Summary(s, net, info);
  if (capture) {
    capture->Close();
    summary["capture"] = {{"file", "capture.pcap"},
                          {"packets", capture->packets()},
                          {"stopped_at_max_packets", capture->full()}};
  }
  if (options.after_run) options.after_run(net);
  if (!options.out_dir.empty()) {
    const std::string& dir = options.out_dir;
    // Written piece by piece: with millions of flows each is too large to hold as one string.
    AtomicFileWriter resolved(dir + "/resolved.toml");
    ResolvedTomlTo(s, [&](std::string_view piece) { resolved.Write(piece); });
    resolved.Commit();
    AtomicFileWriter flows(dir + "/flows.csv");
    FlowsCsvTo(s, net, info, [&](std::string_view piece) { flows.Write(piece); });
    flows.Commit();
    WriteFileAtomic(dir + "/links.csv", LinksCsv(net));
    sampler.Write(dir);
    WriteFileAtomic(dir + "/summary.json", summary.dump(2) + "\n");
  }
  return summary;
}

}  // namespace dcqcn
