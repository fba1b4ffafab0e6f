// `dcqcn fluid`: fills the fluid model's parameters from the same --set keys as `dcqcn run`,
// integrates it, and writes its time series and summary.
#include "app/fluid_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <mutex>
#include <optional>
#include <sstream>
#include <string_view>
#include <thread>

#include "cc/dcqcn_params.h"
#include "core/error.h"
#include "fluid/fixed_point.h"
#include "fluid/fluid_model.h"
#include "fluid/oscillation.h"
#include "net/headers.h"
#include "output/atomic_file.h"
#include "output/staged_folder.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

constexpr int kMaxFlowColumns = 16;

template <class T>
T Positive(std::string_view option, const std::string& text,
           std::optional<T> (*parse)(std::string_view), std::string_view example) {
  const std::optional<T> v = parse(text);
  if (!v || *v <= 0) {
    throw InputError(fmt::format("{}: expected a positive value such as \"{}\", got \"{}\"", option,
                                 example, text));
  }
  return *v;
}

struct Setup {
  fluid::FluidParams params;
  fluid::FluidOptions options;
  int flows = 0;
  Time stagger = 0;
};

Setup MakeSetup(const FluidCommandOptions& o, std::vector<std::string>* warnings) {
  if (o.flows < 1) throw InputError(fmt::format("--flows: expected at least 1, got {}", o.flows));
  const Scenario s = DefaultScenario(o.sets);
  const DcqcnParams d = ResolveDcqcnParams(s);
  auto warn = [&](std::string w) {
    if (warnings) warnings->push_back(std::move(w));
  };
  if (!s.sw.ecn.enabled) throw InputError("switch.ecn.enabled: the fluid model needs ECN marking");
  if (d.cnp_interval <= 0 || d.cnp_on_ack) {
    throw InputError("cc.cnp_interval: the fluid model needs a CNP interval above 0");
  }
  if (d.mode != DcqcnParams::Mode::kPaper) {
    warn("cc.mode: the fluid model follows the paper mode (a cut per CNP)");
  }
  warn("the fluid model has no hyper increase (cc.rhai) and always clamps Rt to Rc on a cut");
  Setup st;
  fluid::FluidParams& p = st.params;
  p.capacity = Positive<Rate>("--rate", o.rate, ParseRate, "40Gbps");
  p.delay = Positive<Time>("--delay", o.delay, ParseTime, "85us");
  p.packet = o.packet.empty() ? DataFrameBytes(s.host.mtu)
                              : Positive<Bytes>("--packet", o.packet, ParseSize, "1000B");
  p.kmin = s.sw.ecn.kmin;
  p.kmax = s.sw.ecn.kmax;
  p.pmax = s.sw.ecn.pmax;
  p.g = d.g;
  p.cnp_interval = d.cnp_interval;
  p.alpha_period = d.alpha_period;
  p.timer = d.timer;
  p.byte_counter = d.byte_counter;
  p.f = d.f;
  p.rai = d.rai;
  p.min_rate = d.min_rate;
  st.options.duration = Positive<Time>("--duration", o.duration, ParseTime, "100ms");
  st.options.step = Positive<Time>("--step", o.step, ParseTime, "1us");
  st.options.sample = Positive<Time>("--sample", o.sample, ParseTime, "10us");
  if (st.options.step > p.delay) {
    warn(fmt::format("--step {} is longer than the delay; using {}", o.step, o.delay));
    st.options.step = p.delay;
  }
  st.flows = o.flows;
  if (!o.stagger.empty()) {
    const std::optional<Time> v = ParseTime(o.stagger);
    if (!v || *v < 0) {
      throw InputError(
          fmt::format("--stagger: expected a time such as \"1ms\", got \"{}\"", o.stagger));
    }
    st.stagger = *v;
  }
  return st;
}

struct Trace {
  std::vector<double> t, q, p, rc_mean, rt_mean, alpha_mean, rc_sum;
  std::vector<std::vector<double>> rc;  // first kMaxFlowColumns flows
  fluid::FluidRunStats stats;
  double wall_s = 0;
};

Trace Integrate(const Setup& st, fluid::FluidOptions options) {
  Trace tr;
  const int cols = std::min(st.flows, kMaxFlowColumns);
  tr.rc.resize(cols);
  std::vector<fluid::FluidFlow> flows = fluid::IdenticalFlows(st.flows);
  for (int i = 0; i < st.flows; ++i) flows[i].start = i * st.stagger;
  const auto t0 = std::chrono::steady_clock::now();
  tr.stats = fluid::RunFluid(st.params, flows, options, [&](const fluid::FluidState& s) {
    tr.t.push_back(s.time_s);
    tr.q.push_back(s.queue_bytes);
    tr.p.push_back(s.mark_prob);
    // Means over the flows started (flow i starts at i * stagger).
    double rc = 0, rt = 0, alpha = 0;
    int n = 0;
    for (size_t i = 0; i < s.rc_bps.size(); ++i) {
      if (static_cast<double>(flows[i].start) / kSecond > s.time_s) continue;
      rc += s.rc_bps[i];
      rt += s.rt_bps[i];
      alpha += s.alpha[i];
      ++n;
    }
    n = std::max(n, 1);
    tr.rc_mean.push_back(rc / n);
    tr.rc_sum.push_back(rc);
    tr.rt_mean.push_back(rt / n);
    tr.alpha_mean.push_back(alpha / n);
    for (int i = 0; i < cols; ++i) tr.rc[i].push_back(s.rc_bps[i]);
  });
  tr.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return tr;
}

nlohmann::json OrNull(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json FixedPointJson(const fluid::FixedPoint& fp) {
  return {{"p", fp.p},
          {"queue_bytes", OrNull(fp.queue_bytes)},
          {"on_red_curve", fp.on_curve()},
          {"alpha", fp.alpha},
          {"rc_gbps", fp.rc_bps / 1e9},
          {"rt_gbps", fp.rt_bps / 1e9}};
}

nlohmann::json StatsJson(const fluid::WindowStats& s, double scale) {
  return {{"mean", s.mean * scale},
          {"min", s.min * scale},
          {"max", s.max * scale},
          {"peak_to_peak", s.peak_to_peak() * scale},
          {"stddev", s.stddev * scale}};
}

std::string Csv(const Trace& tr) {
  std::string out = "time_ns,queue_bytes,mark_prob,rc_gbps_mean,rt_gbps_mean,alpha_mean";
  for (size_t i = 0; i < tr.rc.size(); ++i) out += fmt::format(",rc_gbps_{}", i);
  out += '\n';
  for (size_t k = 0; k < tr.t.size(); ++k) {
    out += fmt::format("{:.0f},{:.3f},{:.6g},{:.6f},{:.6f},{:.6f}", tr.t[k] * 1e9, tr.q[k], tr.p[k],
                       tr.rc_mean[k] / 1e9, tr.rt_mean[k] / 1e9, tr.alpha_mean[k]);
    for (const auto& rc : tr.rc) out += fmt::format(",{:.6f}", rc[k] / 1e9);
    out += '\n';
  }
  return out;
}

}  // namespace

CLI::App* AddFluidCommand(CLI::App& app, FluidCommandOptions& o) {
  CLI::App* c = app.add_subcommand(
      "fluid",
      "the DCQCN fluid model (CoNEXT'16) for N flows into one bottleneck: fixed point, "
      "oscillation verdict, time series");
  c->add_option("--flows", o.flows, "N, flows starting together at line rate (default 10)");
  c->add_option("--rate", o.rate, "bottleneck rate C (default 40Gbps)");
  c->add_option("--delay", o.delay, "tau*, the whole control-loop delay (default 85us)");
  c->add_option("--duration", o.duration, "time to integrate (default 100ms)");
  c->add_option("--packet", o.packet,
                "the model's packet; queue and marking count in these (default: the scenario's "
                "data frame, 1066B; the CoNEXT'16 model files use 1000B)");
  c->add_option("--stagger", o.stagger,
                "flow i starts at i times this (default 0: all start together)");
  c->add_option("--step", o.step, "RK4 step (default 1us)");
  c->add_option("--sample", o.sample, "time-series period (default 10us)");
  c->add_option("--set", o.sets,
                "a DCQCN or ECN parameter as for `dcqcn run`: --set cc.rai=10Mbps "
                "--set switch.ecn.kmax=1000KB");
  c->add_option("--out", o.out_dir, "output folder (default results/fluid/)");
  c->add_flag("--force", o.force,
              "replace an --out folder even if it holds files that are not a dcqcn result");
  c->add_flag("--quiet", o.quiet, "print nothing but errors");
  c->add_flag("--no-check", o.no_check, "skip the second run at half the step");
  c->add_flag("--map", o.map,
              "stability map: the verdict for every N in --map-flows and delay in --map-delays");
  c->add_option("--map-flows", o.map_flows, "comma-separated N values for --map");
  c->add_option("--map-delays", o.map_delays, "comma-separated delays for --map");
  c->add_option("--jobs", o.jobs, "runs in parallel for --map (default: every core)");
  return c;
}

nlohmann::json RunFluidCommand(const FluidCommandOptions& o, std::vector<std::string>* warnings) {
  const Setup st = MakeSetup(o, warnings);
  StagedFolder folder(o.out_dir, o.force);
  Trace tr;
  try {
    tr = Integrate(st, st.options);
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what());
  }
  const fluid::FluidParams& p = st.params;
  const double end = tr.t.back(), from = end / 2;
  const double c_bps = static_cast<double>(p.capacity);
  const double share = c_bps / st.flows;

  nlohmann::json j;
  j["model"] = "DCQCN fluid model, CoNEXT'16 per-flow form (docs/fluid.md)";
  j["flows"] = st.flows;
  j["rate_gbps"] = c_bps / 1e9;
  j["delay_ns"] = static_cast<double>(p.delay) / kNanosecond;
  j["duration_ns"] = std::round(end * 1e9);
  j["packet_bytes"] = p.packet;
  j["stagger_ns"] = static_cast<double>(st.stagger) / kNanosecond;
  j["parameters"] = {{"kmin_bytes", p.kmin},
                     {"kmax_bytes", p.kmax},
                     {"pmax", p.pmax},
                     {"g", p.g},
                     {"cnp_interval_ns", static_cast<double>(p.cnp_interval) / kNanosecond},
                     {"alpha_period_ns", static_cast<double>(p.alpha_period) / kNanosecond},
                     {"timer_ns", static_cast<double>(p.timer) / kNanosecond},
                     {"byte_counter_bytes", p.byte_counter},
                     {"f", p.f},
                     {"rai_gbps", static_cast<double>(p.rai) / 1e9},
                     {"min_rate_gbps", static_cast<double>(p.min_rate) / 1e9}};
  const fluid::FixedPoint exact = fluid::ExactFixedPoint(p, st.flows);
  const fluid::FixedPoint approx = fluid::ApproxFixedPoint(p, st.flows);
  j["fixed_point"] = {{"exact", FixedPointJson(exact)}, {"approx", FixedPointJson(approx)}};
  if (!exact.on_curve()) {
    j["fixed_point"]["note"] =
        fmt::format("no fixed point on the RED curve: the flows need p* = {:.4g} > pmax = {:.4g}",
                    exact.p, p.pmax);
  }
  const fluid::WindowStats q = fluid::Stats(tr.t, tr.q, from, end);
  const fluid::WindowStats rc = fluid::Stats(tr.t, tr.rc_mean, from, end);
  // Queue oscillation: a swing of more than 2 packets or 5% of the mean queue.
  const double tolerance = std::max(2.0 * static_cast<double>(p.packet), 0.05 * q.mean);
  const fluid::OscillationReport osc = fluid::Oscillation(tr.t, tr.q, from, end, tolerance);
  // Utilisation: the bottleneck is busy while the queue is positive, else it carries sum Rc.
  double busy = 0, span = 0;
  for (size_t k = 1; k < tr.t.size(); ++k) {
    if (tr.t[k] < from) continue;
    const double dt = tr.t[k] - tr.t[k - 1];
    const double carried = tr.q[k] > 0 ? 1.0 : std::min(1.0, tr.rc_sum[k] / c_bps);
    busy += carried * dt;
    span += dt;
  }
  j["window"] = {{"from_ns", from * 1e9}, {"to_ns", end * 1e9}, {"what", "the last half"}};
  j["queue_bytes"] = StatsJson(q, 1);
  j["rc_gbps_mean_of_flows"] = StatsJson(rc, 1e-9);
  // Per-flow spread at the end: how far the flows are from an equal share.
  double lo = INFINITY, hi = 0;
  for (const auto& r : tr.rc) {
    lo = std::min(lo, r.back());
    hi = std::max(hi, r.back());
  }
  j["rc_gbps_flow_spread_at_end"] = (hi - lo) / 1e9;
  j["fair_share_gbps"] = share / 1e9;
  j["oscillation"] = {
      {"verdict", std::string(fluid::VerdictName(osc.verdict))},
      {"queue_peak_to_peak_last_quarter_bytes", osc.peak_to_peak},
      {"tolerance_bytes", tolerance},
      {"period_ns", osc.period_s ? nlohmann::json(*osc.period_s * 1e9) : nlohmann::json(nullptr)}};
  j["utilisation"] = span > 0 ? nlohmann::json(busy / span) : nlohmann::json(nullptr);
  j["step_ns"] = tr.stats.step_s * 1e9;
  j["substeps"] = tr.stats.substeps;
  j["splits_at_kmin_kmax"] = tr.stats.splits;
  j["wall_time_s"] = tr.wall_s;
  if (!o.no_check) {
    fluid::FluidOptions half = st.options;
    half.step = std::max<Time>(1, st.options.step / 2);
    const Trace fine = Integrate(st, half);
    double dq = 0, drc = 0;
    for (size_t k = 0; k < tr.t.size() && k < fine.t.size(); ++k) {
      if (std::abs(tr.t[k] - fine.t[k]) > 1e-12) continue;  // samples off the common grid
      dq = std::max(dq, std::abs(tr.q[k] - fine.q[k]));
      drc = std::max(drc, std::abs(tr.rc_mean[k] - fine.rc_mean[k]));
    }
    const fluid::WindowStats fq = fluid::Stats(fine.t, fine.q, from, end);
    j["half_step_check"] = {{"step_ns", fine.stats.step_s * 1e9},
                            {"max_queue_difference_bytes", dq},
                            {"max_rc_mean_difference_gbps", drc / 1e9},
                            {"queue_mean_difference_bytes", std::abs(fq.mean - q.mean)}};
  } else {
    j["half_step_check"] = nullptr;
  }
  WriteFileAtomic(folder.path() + "/timeseries/fluid.csv", Csv(tr));
  WriteFileAtomic(folder.path() + "/summary.json", j.dump(2) + "\n");
  folder.Commit();
  return j;
}

std::string RunFluidMap(const FluidCommandOptions& o, std::vector<std::string>* warnings) {
  auto split = [](const std::string& text) {
    std::vector<std::string> out;
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, ',');) {
      if (!item.empty()) out.push_back(item);
    }
    return out;
  };
  std::vector<int> ns;
  for (const std::string& t : split(o.map_flows)) {
    int n = 0;
    try {
      n = std::stoi(t);
    } catch (const std::exception&) {
    }
    if (n < 1)
      throw InputError(fmt::format("--map-flows: expected counts such as 2,10,64, got \"{}\"", t));
    ns.push_back(n);
  }
  std::vector<std::string> delays = split(o.map_delays);
  if (ns.empty() || delays.empty()) throw InputError("--map: need at least one N and one delay");
  // Validate every delay (and the rest) before running anything.
  std::vector<Setup> setups;
  for (int n : ns) {
    for (const std::string& d : delays) {
      FluidCommandOptions one = o;
      one.flows = n;
      one.delay = d;
      setups.push_back(MakeSetup(one, setups.empty() ? warnings : nullptr));
    }
  }
  StagedFolder folder(o.out_dir, o.force);
  struct Cell {
    fluid::OscillationReport osc;
    fluid::WindowStats q, rc;
    double utilisation = 0;
    fluid::FixedPoint fp;
  };
  std::vector<Cell> cells(setups.size());
  std::atomic<size_t> next{0};
  std::mutex error_mutex;
  std::string error;
  auto worker = [&] {
    for (size_t i = next++; i < setups.size(); i = next++) {
      try {
        const Setup& st = setups[i];
        const Trace tr = Integrate(st, st.options);
        const double end = tr.t.back(), from = end / 2;
        Cell& c = cells[i];
        c.q = fluid::Stats(tr.t, tr.q, from, end);
        c.rc = fluid::Stats(tr.t, tr.rc_mean, from, end);
        const double tol = std::max(2.0 * static_cast<double>(st.params.packet), 0.05 * c.q.mean);
        c.osc = fluid::Oscillation(tr.t, tr.q, from, end, tol);
        double busy = 0, span = 0;
        for (size_t k = 1; k < tr.t.size(); ++k) {
          if (tr.t[k] < from) continue;
          const double dt = tr.t[k] - tr.t[k - 1];
          busy += (tr.q[k] > 0
                       ? 1.0
                       : std::min(1.0, tr.rc_sum[k] / static_cast<double>(st.params.capacity))) *
                  dt;
          span += dt;
        }
        c.utilisation = span > 0 ? busy / span : 0;
        c.fp = fluid::ExactFixedPoint(st.params, st.flows);
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (error.empty()) error = e.what();
      }
    }
  };
  int jobs =
      o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  jobs = std::min<int>(jobs, static_cast<int>(setups.size()));
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  if (!error.empty()) throw InputError(error);

  std::string csv =
      "flows,delay_ns,verdict,period_ns,queue_mean_bytes,queue_peak_to_peak_bytes,rc_gbps_mean,"
      "utilisation,fixed_point_queue_bytes\n";
  std::string grid = fmt::format("{:>6}", "N");
  for (const std::string& d : delays) grid += fmt::format(" {:>6}", d);
  grid += "\n";
  nlohmann::json cells_json = nlohmann::json::array();
  for (size_t r = 0; r < ns.size(); ++r) {
    grid += fmt::format("{:>6}", ns[r]);
    for (size_t k = 0; k < delays.size(); ++k) {
      const size_t i = r * delays.size() + k;
      const Cell& c = cells[i];
      const std::string verdict(fluid::VerdictName(c.osc.verdict));
      const double delay_ns = static_cast<double>(setups[i].params.delay) / kNanosecond;
      csv +=
          fmt::format("{},{:.0f},{},{},{:.1f},{:.1f},{:.6f},{:.6f},{}\n", ns[r], delay_ns, verdict,
                      c.osc.period_s ? fmt::format("{:.0f}", *c.osc.period_s * 1e9) : "", c.q.mean,
                      c.q.peak_to_peak(), c.rc.mean / 1e9, c.utilisation,
                      c.fp.queue_bytes ? fmt::format("{:.1f}", *c.fp.queue_bytes) : "");
      grid += fmt::format(" {:>6}", static_cast<char>(std::toupper(verdict[0])));
      cells_json.push_back({{"flows", ns[r]},
                            {"delay_ns", delay_ns},
                            {"verdict", verdict},
                            {"period_ns", c.osc.period_s ? nlohmann::json(*c.osc.period_s * 1e9)
                                                         : nlohmann::json(nullptr)},
                            {"queue_mean_bytes", c.q.mean},
                            {"queue_peak_to_peak_bytes", c.q.peak_to_peak()},
                            {"utilisation", c.utilisation},
                            {"fixed_point_queue_bytes", OrNull(c.fp.queue_bytes)}});
    }
    grid += "\n";
  }
  const fluid::FluidParams& p = setups.front().params;
  nlohmann::json j = {
      {"model", "DCQCN fluid model stability map (docs/fluid.md)"},
      {"rate_gbps", static_cast<double>(p.capacity) / 1e9},
      {"packet_bytes", p.packet},
      {"kmin_bytes", p.kmin},
      {"kmax_bytes", p.kmax},
      {"pmax", p.pmax},
      {"rai_gbps", static_cast<double>(p.rai) / 1e9},
      {"duration_ns", static_cast<double>(setups.front().options.duration) / kNanosecond},
      {"window", "the last half"},
      {"cells", cells_json}};
  WriteFileAtomic(folder.path() + "/map.csv", csv);
  WriteFileAtomic(folder.path() + "/summary.json", j.dump(2) + "\n");
  folder.Commit();
  return grid + "S steady, D decaying (still shrinking: run longer), O oscillating\n" +
         fmt::format("results in {}/\n", folder.dir());
}

std::string FluidSummaryText(const nlohmann::json& j, const std::string& out_dir) {
  auto num = [](const nlohmann::json& v, double scale, int digits) {
    return v.is_number() ? fmt::format("{:.{}f}", v.get<double>() * scale, digits)
                         : std::string("-");
  };
  auto queue = [&](const nlohmann::json& v) {
    return v.is_number() ? num(v, 1e-3, 1) + " KB" : std::string("none (p* > pmax)");
  };
  const nlohmann::json& ex = j["fixed_point"]["exact"];
  const nlohmann::json& ap = j["fixed_point"]["approx"];
  std::string s = fmt::format(
      "fluid model: {} flows, {:g} Gb/s, delay {:g} us, {:g} ms ({:.2f} s wall, step {:g} ns)\n",
      j["flows"].get<int>(), j["rate_gbps"].get<double>(), j["delay_ns"].get<double>() / 1e3,
      j["duration_ns"].get<double>() / 1e6, j["wall_time_s"].get<double>(),
      j["step_ns"].get<double>());
  s += fmt::format("  fixed point exact: p* {:.4f}%, q* {}; cube-root approx: p* {:.4f}%, q* {}\n",
                   ex["p"].get<double>() * 100, queue(ex["queue_bytes"]),
                   ap["p"].get<double>() * 100, queue(ap["queue_bytes"]));
  if (j["fixed_point"].contains("note"))
    s += "  " + j["fixed_point"]["note"].get<std::string>() + "\n";
  const nlohmann::json& q = j["queue_bytes"];
  const nlohmann::json& osc = j["oscillation"];
  s += fmt::format(
      "  last half: queue mean {} KB, peak-to-peak {} KB; Rc mean {} Gb/s "
      "(fair share {:.3f}), utilisation {}%\n",
      num(q["mean"], 1e-3, 1), num(q["peak_to_peak"], 1e-3, 1),
      num(j["rc_gbps_mean_of_flows"]["mean"], 1, 3), j["fair_share_gbps"].get<double>(),
      num(j["utilisation"], 100, 2));
  s += fmt::format("  {}{}\n", osc["verdict"].get<std::string>(),
                   osc["period_ns"].is_number()
                       ? fmt::format(", period {} us", num(osc["period_ns"], 1e-3, 1))
                       : std::string());
  if (j["half_step_check"].is_object()) {
    s += fmt::format("  half-step check: queue differs by at most {} B, mean Rc by {} Gb/s\n",
                     num(j["half_step_check"]["max_queue_difference_bytes"], 1, 3),
                     num(j["half_step_check"]["max_rc_mean_difference_gbps"], 1, 6));
  }
  if (!out_dir.empty()) s += fmt::format("  results in {}/\n", out_dir);
  return s;
}

}  // namespace dcqcn
