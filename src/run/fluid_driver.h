// `dcqcn fluid`: the DCQCN fluid model (src/fluid/) for N flows into one bottleneck, with its
// fixed point, an oscillation verdict and the check against a run at half the step.
#pragma once

#include <atomic>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dcqcn {

// Options as typed; RunFluidCommand validates them (InputError naming the option). N, C, tau*
// and the starts left unset come from the scenario file when there is one, else the defaults.
struct FluidCommandOptions {
  std::string scenario;      // an incast scenario: N, C, tau*, starts, parameters (empty: none)
  std::optional<int> flows;  // N; default 10
  std::optional<std::string> rate;   // C; default 40Gbps
  std::optional<std::string> delay;  // tau*, the whole control-loop delay; default 85us
  std::string duration = "100ms";
  std::string packet{};                // empty: the scenario's data frame (host.mtu + headers)
  std::optional<std::string> stagger;  // flow i starts at i * stagger
  std::string step = "1us";
  std::string sample = "10us";
  std::vector<std::string> sets;  // any scenario key, as for `dcqcn run`
  std::string out_dir = "results/fluid";
  bool force = false;
  bool quiet = false;
  bool no_check = false;  // skip the run at half the step
  // --map: the verdict for every (N, delay) pair, and every value of map_param, instead of one
  // run.
  bool map = false;
  std::string map_flows = "2,4,6,8,10,12,16,24,32,48,64";
  std::string map_delays = "4us,10us,25us,40us,55us,70us,85us,100us";
  std::string map_param;                    // KEY=V1,V2,...: a third axis, any key --set accepts
  int jobs = 0;                             // 0 = every core
  const std::atomic<bool>* stop = nullptr;  // set by a signal handler: stop, write nothing
};

// Runs the model, writes timeseries/fluid.csv and summary.json into the output folder (staged and
// swapped in whole) and returns the summary. Warnings (parameters the model ignores) go to
// `warnings`. Throws Interrupted, having written nothing, once `stop` is set.
nlohmann::json RunFluidCommand(const FluidCommandOptions& options,
                               std::vector<std::string>* warnings);

// --map: runs the model (without the half-step check) for every N in map_flows, delay in
// map_delays and value of map_param in parallel, writes map.csv ([<map_param key>,]flows,
// delay_ns,verdict,period_ns,queue_mean_bytes,queue_peak_to_peak_bytes,rc_gbps_mean,
// utilisation,fixed_point_queue_bytes) and summary.json, and returns the grids as text (one per
// map_param value; rows N, columns delay; S steady, D decaying, O oscillating). Throws
// Interrupted, having written nothing, once `stop` is set.
std::string RunFluidMap(const FluidCommandOptions& options, std::vector<std::string>* warnings);

// The lines `dcqcn fluid` prints for a summary.
std::string FluidSummaryText(const nlohmann::json& summary, const std::string& out_dir);

}  // namespace dcqcn
