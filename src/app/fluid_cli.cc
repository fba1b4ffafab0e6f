// `dcqcn fluid`'s options.
#include "app/fluid_cli.h"

#include <string>

#include "app/whole_number.h"

namespace dcqcn {

CLI::App* AddFluidCommand(CLI::App& app, FluidCommandOptions& o) {
  CLI::App* c = app.add_subcommand(
      "fluid",
      "the DCQCN fluid model (CoNEXT'16) for N flows into one bottleneck: fixed point, "
      "oscillation verdict, time series");
  c->add_option("scenario", o.scenario,
                "an incast scenario (TOML, as for `dcqcn run`; --set applies on top): N = its "
                "flows, C = the slowest link on every flow's path, tau* = the base RTT of the "
                "path, the flows' starts and every DCQCN and ECN parameter. --flows, --rate, "
                "--delay and --stagger override what it gives");
  // Optional values, set only when given, so that the scenario's stand otherwise.
  c->add_option_function<int>(
       "--flows", [&o](const int& v) { o.flows = v; },
       "N, flows starting together at line rate (default: the scenario's flows, else 10)")
      ->check(WholeNumberAtLeast(1, " (or omit it for the scenario's flows)"));
  c->add_option_function<std::string>(
      "--rate", [&o](const std::string& v) { o.rate = v; },
      "bottleneck rate C (default: the scenario's bottleneck, else 40Gbps)");
  c->add_option_function<std::string>(
      "--delay", [&o](const std::string& v) { o.delay = v; },
      "tau*, the whole control-loop delay (default: the scenario's base RTT, else 85us)");
  c->add_option("--duration", o.duration, "time to integrate (default 100ms)");
  c->add_option("--packet", o.packet,
                "the model's packet; queue and marking count in these (default: the scenario's "
                "data frame, 1066B; the CoNEXT'16 model files use 1000B)");
  c->add_option_function<std::string>(
      "--stagger", [&o](const std::string& v) { o.stagger = v; },
      "flow i starts at i times this (default: the scenario's starts, else 0: all together)");
  c->add_option("--step", o.step, "RK4 step (default 1us)");
  c->add_option("--sample", o.sample, "time-series period (default 10us)");
  c->add_option("--set", o.sets,
                "a scenario key as for `dcqcn run`, e.g. the DCQCN and ECN parameters: --set "
                "cc.rai=10Mbps --set switch.ecn.kmax=1000KB");
  c->add_option("--out", o.out_dir, "output folder (default results/fluid/)");
  c->add_flag("--force", o.force,
              "replace an --out folder even if it holds files that are not a dcqcn result");
  c->add_flag("--quiet", o.quiet, "print nothing but errors");
  c->add_flag("--no-check", o.no_check, "skip the second run at half the step");
  c->add_flag("--map", o.map,
              "stability map: the verdict for every N in --map-flows and delay in --map-delays");
  c->add_option("--map-flows", o.map_flows, "comma-separated N values for --map");
  c->add_option("--map-delays", o.map_delays, "comma-separated delays for --map");
  c->add_option("--map-param", o.map_param,
                "KEY=V1,V2,...: a third --map axis, any key --set accepts (e.g. "
                "cc.rai=5Mbps,10Mbps,40Mbps); one grid per value");
  c->add_option("--jobs", o.jobs, "runs in parallel for --map (default: every core)")
      ->check(WholeNumberAtLeast(1, " (or omit it for every core)"));
  return c;
}

}  // namespace dcqcn
