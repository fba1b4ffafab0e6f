// `dcqcn fluid`: fills the fluid model's parameters from the same --set keys as `dcqcn run`,
// integrates it, and writes its time series and summary.
#include "run/fluid_driver.h"

#include <fmt/format.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>

#include "cc/dcqcn/dcqcn_algorithm.h"
#include "cc/dcqcn/dcqcn_params.h"
#include "core/error.h"
#include "fluid/fixed_point.h"
#include "fluid/fluid_model.h"
#include "fluid/oscillation.h"
#include "net/headers.h"
#include "net/network.h"
#include "output/atomic_file.h"
#include "output/staged_folder.h"
#include "run/parallel_for.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

constexpr int kMaxFlowColumns = 16;
// Bounds on the work and memory of one integration, far beyond the paper's cases (64 flows, 100
// ms in 1 us steps, 1e5 steps): integration steps (0.3 to 3 us each, for 1 to 64 flows; the
// half-step check doubles them), samples written, flows, and the history the delay keeps
// (flows x delay / step points, tens of bytes each).
constexpr double kMaxFluidSteps = 1e8;
constexpr double kMaxFluidSamples = 1e7;
constexpr int kMaxFluidFlows = 100000;
constexpr double kMaxFluidHistory = 2e7;

template <class T>
T Positive(std::string_view option, const std::string& text,
           std::optional<T> (*parse)(std::string_view, std::string*), std::string_view example) {
  std::string beyond;
  const std::optional<T> v = parse(text, &beyond);
  if (!v || *v <= 0) {
    throw InputError(fmt::format(
        "{}: expected a positive value {}, got \"{}\"", option,
        beyond.empty() ? fmt::format("such as \"{}\"", example) : "of " + beyond, text));
  }
  return *v;
}

// The flag defaults where neither a flag nor a scenario gives N, C or tau*.
constexpr int kDefaultFlows = 10;
constexpr const char* kDefaultRate = "40Gbps";
constexpr const char* kDefaultDelay = "85us";

// What an incast scenario implies for the model (docs/fluid.md, "From a scenario file").
struct Incast {
  int flows = 0;
  std::string receiver;      // "h0"
  Rate capacity = 0;         // C: the slowest link that every flow's path crosses
  std::string bottleneck;    // that link, "s0 -> h0"
  Time delay = 0;            // tau*: the longest control loop over the flows
  Time delay_min = 0;        // the shortest
  Time propagation = 0;      // of the longest loop: twice the path's link delays
  Time serialisation = 0;    // of the longest loop: a data frame out and a CNP back per hop
  int hops = 0;              // links on that flow's path
  std::vector<Time> starts;  // per flow, from the first flow's start
  Time first_start = 0;
  Bytes min_size = 0;  // the smallest flow's size
};

std::string NodeList(const TopologyConfig& topo, const std::set<int>& nodes) {
  std::vector<std::string> names;
  for (int n : nodes) {
    if (names.size() == 4) {
      names.push_back("...");
      break;
    }
    names.push_back(topo.node_name(n));
  }
  return fmt::format("{}", fmt::join(names, ", "));
}

// N, C and tau* of the incast `s`, with the paths its packets take in the network `dcqcn run`
// would build. Throws InputError naming `path` for anything but N flows into one receiver.
Incast ReadIncast(const Scenario& s, const std::string& path, std::vector<std::string>* warnings) {
  const std::string need =
      "the fluid model needs N senders into one receiver (workload.type = \"incast\", or "
      "[[flow]] tables that all have the same dst)";
  const std::string workload = s.workload.type.empty() || s.workload.type == "incast"
                                   ? std::string()
                                   : fmt::format(" (workload.type = \"{}\")", s.workload.type);
  if (s.flows.empty()) {
    throw InputError(fmt::format("{}: not an incast: the scenario has no flows; {}", path, need));
  }
  if (!s.flow_after.empty()) {
    throw InputError(fmt::format(
        "{}: the fluid model has no flow dependencies ([[flow]] after); {}", path, need));
  }
  std::set<int> receivers;
  for (const FlowSpec& f : s.flows) receivers.insert(f.dst);
  if (receivers.size() > 1) {
    throw InputError(fmt::format("{}: not an incast{}: its {} flows go to {} receivers ({}); {}",
                                 path, workload, s.flows.size(), receivers.size(),
                                 NodeList(s.topology, receivers), need));
  }
  const Network net(ToNetworkConfig(s));
  const TopologyConfig& topo = s.topology;
  const int n = static_cast<int>(s.flows.size());
  std::vector<std::vector<LinkSpec>> paths;
  std::map<std::pair<int, int>, int> crossings;  // (from, to): flows whose path crosses it
  for (uint32_t id = 0; id < net.num_flows(); ++id) {
    paths.push_back(net.PathOf(id));
    for (const LinkSpec& l : paths.back()) ++crossings[{l.a, l.b}];
  }
  Incast inc;
  inc.flows = n;
  inc.receiver = topo.node_name(s.flows.front().dst);
  // C: the slowest link every flow crosses (the nearest the receiver of equally slow ones).
  for (const LinkSpec& l : paths.front()) {
    if (crossings[{l.a, l.b}] == n && (inc.capacity == 0 || l.rate <= inc.capacity)) {
      inc.capacity = l.rate;
      inc.bottleneck = fmt::format("{} -> {}", topo.node_name(l.a), topo.node_name(l.b));
    }
  }
  if (inc.capacity == 0) {
    throw InputError(
        fmt::format("{}: not an incast: no link is on every flow's path; {}", path, need));
  }
  // tau*: data out to the receiver, CNP back over the same cables (full duplex: the same rate
  // and delay each way). RED marks at dequeue, so no queueing delay is part of the loop.
  const WireFormat& w = s.wire;
  const Bytes frame = w.DataFrame(s.host.mtu);
  inc.delay_min = kTimeNever;
  for (int i = 0; i < n; ++i) {
    Time propagation = 0, serialisation = 0;
    for (const LinkSpec& l : paths[i]) {
      propagation += 2 * l.delay;
      serialisation += w.TxTime(frame, l.rate) + w.TxTime(w.cnp_frame, l.rate);
      if (l.rate < inc.capacity && warnings) {
        warnings->push_back(fmt::format(
            "{}: flow {}'s path crosses {} -> {} at {}, slower than the shared bottleneck {} "
            "at {}: the model limits every flow only by the shared bottleneck",
            path, i, topo.node_name(l.a), topo.node_name(l.b), FormatRate(l.rate), inc.bottleneck,
            FormatRate(inc.capacity)));
      }
    }
    const Time loop = propagation + serialisation;
    inc.delay_min = std::min(inc.delay_min, loop);
    if (loop > inc.delay) {
      inc.delay = loop;
      inc.propagation = propagation;
      inc.serialisation = serialisation;
      inc.hops = static_cast<int>(paths[i].size());
    }
  }
  if (inc.delay_min != inc.delay && warnings) {
    warnings->push_back(fmt::format(
        "{}: the flows' control loops differ ({} to {}); tau* is the longest, the model has one",
        path, FormatTime(inc.delay_min), FormatTime(inc.delay)));
  }
  inc.first_start = kTimeNever;
  inc.min_size = s.flows.front().size;
  for (const FlowSpec& f : s.flows) {
    inc.first_start = std::min(inc.first_start, f.start);
    inc.min_size = std::min(inc.min_size, f.size);
  }
  for (const FlowSpec& f : s.flows) inc.starts.push_back(f.start - inc.first_start);
  return inc;
}

struct Setup {
  fluid::FluidParams params;
  fluid::FluidOptions options;
  int flows = 0;
  std::vector<Time> starts;  // per flow
  std::optional<Time> stagger;
  std::string scenario;   // the file, or empty
  nlohmann::json origin;  // where N, C, tau* and the starts came from
  nlohmann::json loop;    // the scenario's control loop, or null
};

Setup MakeSetup(const FluidCommandOptions& o, std::vector<std::string>* warnings) {
  auto warn = [&](std::string w) {
    if (warnings) warnings->push_back(std::move(w));
  };
  const Scenario s =
      o.scenario.empty() ? DefaultScenario(o.sets) : LoadScenarioFile(o.scenario, o.sets);
  const std::string where = o.scenario.empty() ? std::string() : o.scenario + ": ";
  if (s.cc.algorithm != DcqcnAlgorithm().name) {
    throw InputError(fmt::format("{}cc.algorithm: the fluid model is {}'s, got \"{}\"", where,
                                 DcqcnAlgorithm().label, s.cc.algorithm));
  }
  std::optional<Incast> inc;
  if (!o.scenario.empty()) inc = ReadIncast(s, o.scenario, warnings);
  const DcqcnParams d = ResolveDcqcnParams(s);
  if (!s.sw.ecn.enabled) {
    throw InputError(where + "switch.ecn.enabled: the fluid model needs ECN marking");
  }
  if (d.cnp_interval <= 0 || d.cnp_on_ack) {
    throw InputError(where + "cc.cnp_interval: the fluid model needs a CNP interval above 0");
  }
  if (d.mode != DcqcnParams::Mode::kPaper) {
    warn("cc.mode: the fluid model follows the paper mode (a cut per CNP)");
  }
  warn("the fluid model has no hyper increase (cc.rhai) and always clamps Rt to Rc on a cut");
  Setup st;
  st.scenario = o.scenario;
  // "flag" when given, else "scenario" (with the file and how) when there is one, else "default".
  auto origin = [&](bool flag, const std::string& how) {
    if (flag) return nlohmann::json{{"from", "flag"}};
    if (inc) return nlohmann::json{{"from", "scenario"}, {"scenario", o.scenario}, {"how", how}};
    return nlohmann::json{{"from", "default"}};
  };
  st.flows = o.flows ? *o.flows : inc ? inc->flows : kDefaultFlows;
  if (st.flows < 1) throw InputError(fmt::format("--flows: expected at least 1, got {}", st.flows));
  if (st.flows > kMaxFluidFlows) {
    throw InputError(fmt::format("{}: {} flows; the fluid model takes at most {}",
                                 o.flows ? "--flows" : where + "the incast", st.flows,
                                 kMaxFluidFlows));
  }
  const Rate capacity =
      o.rate || !inc ? Positive<Rate>("--rate", o.rate.value_or(kDefaultRate), ParseRate, "40Gbps")
                     : inc->capacity;
  const Time delay = o.delay || !inc ? Positive<Time>("--delay", o.delay.value_or(kDefaultDelay),
                                                      ParseTime, "85us")
                                     : inc->delay;
  const Bytes packet = o.packet.empty() ? s.wire.DataFrame(s.host.mtu)
                                        : Positive<Bytes>("--packet", o.packet, ParseSize, "1000B");
  // The bottleneck port's thresholds (switch.ecn.by_rate may give ports of C their own).
  st.params = fluid::FluidParamsFrom(s.sw.ecn.ForPortRate(capacity), d, capacity, packet, delay);
  const fluid::FluidParams& p = st.params;
  st.options.duration = Positive<Time>("--duration", o.duration, ParseTime, "100ms");
  st.options.step = Positive<Time>("--step", o.step, ParseTime, "1us");
  st.options.sample = Positive<Time>("--sample", o.sample, ParseTime, "10us");
  st.options.stop = o.stop;
  // What sets tau*, for the messages: the flag, else the scenario.
  const std::string delay_name = o.delay || !inc ? "--delay" : where + "tau*";
  const bool step_is_delay = st.options.step > p.delay;
  if (step_is_delay) {
    warn(fmt::format("--step {} is longer than the delay; using {}", o.step, FormatTime(p.delay)));
    st.options.step = p.delay;
  }
  const auto ratio = [](Time a, Time b) { return static_cast<double>(a) / static_cast<double>(b); };
  if (const double steps = ratio(st.options.duration, st.options.step); steps > kMaxFluidSteps) {
    // Name what the user set: the step, or the delay when that cut the step.
    const std::string step = step_is_delay ? fmt::format("{} {} (a step is at most the delay)",
                                                         delay_name, FormatTime(p.delay))
                                           : fmt::format("--step {}", FormatTime(st.options.step));
    throw InputError(fmt::format("{} over --duration {} is {:.3g} steps; at most {:.0e}", step,
                                 FormatTime(st.options.duration), steps, kMaxFluidSteps));
  }
  if (const double samples = ratio(st.options.duration, st.options.sample);
      samples > kMaxFluidSamples) {
    throw InputError(fmt::format("--sample {} over --duration {} is {:.3g} samples; at most {:.0e}",
                                 FormatTime(st.options.sample), FormatTime(st.options.duration),
                                 samples, kMaxFluidSamples));
  }
  if (const double history = st.flows * (ratio(p.delay, st.options.step) + 1);
      history > kMaxFluidHistory) {
    // A --delay given is as much the cause as the step: name it.
    if (o.delay) {
      throw InputError(fmt::format(
          "--delay {} at --step {}: {} flows keep {:.3g} history points; at most {:.0e} (take a "
          "shorter delay or a longer step)",
          FormatTime(p.delay), FormatTime(st.options.step), st.flows, history, kMaxFluidHistory));
    }
    throw InputError(fmt::format(
        "--step {}: {} flows over a delay of {} keep {:.3g} history points; at most {:.0e} "
        "(take a longer step)",
        FormatTime(st.options.step), st.flows, FormatTime(p.delay), history, kMaxFluidHistory));
  }
  st.starts.assign(st.flows, 0);
  std::string starts_from = "default";
  if (o.stagger) {
    const std::optional<Time> v = ParseTime(*o.stagger);
    if (!v || *v < 0) {
      throw InputError(
          fmt::format("--stagger: expected a time such as \"1ms\", got \"{}\"", *o.stagger));
    }
    st.stagger = *v;
    for (int i = 0; i < st.flows; ++i) st.starts[i] = i * *v;
    starts_from = "flag";
  } else if (inc && !o.flows) {
    st.starts = inc->starts;
    starts_from = "scenario";
  }
  st.origin = {
      {"flows", origin(o.flows.has_value(),
                       inc ? fmt::format("{} flows into {}", inc->flows, inc->receiver) : "")},
      {"rate",
       origin(o.rate.has_value(),
              inc ? fmt::format("the slowest link every flow crosses: {}", inc->bottleneck) : "")},
      {"delay", origin(o.delay.has_value(),
                       inc ? fmt::format("base RTT over {} links: {} propagation (twice "
                                         "the link delays) + {} serialising one data "
                                         "frame out and one CNP back per link",
                                         inc->hops, FormatTime(inc->propagation),
                                         FormatTime(inc->serialisation))
                           : "")},
      {"starts", starts_from == "scenario"
                     ? origin(false, fmt::format("the flows' starts, from the first at {}",
                                                 FormatTime(inc->first_start)))
                     : nlohmann::json{{"from", starts_from}}}};
  if (inc) {
    st.loop = {{"receiver", inc->receiver},
               {"bottleneck", inc->bottleneck},
               {"bottleneck_gbps", static_cast<double>(inc->capacity) / 1e9},
               {"hops", inc->hops},
               {"delay_ns", static_cast<double>(inc->delay) / kNanosecond},
               {"delay_min_ns", static_cast<double>(inc->delay_min) / kNanosecond},
               {"propagation_ns", static_cast<double>(inc->propagation) / kNanosecond},
               {"serialisation_ns", static_cast<double>(inc->serialisation) / kNanosecond},
               {"data_frame_bytes", s.wire.DataFrame(s.host.mtu)},
               {"cnp_frame_bytes", s.wire.cnp_frame},
               {"first_start_ns", static_cast<double>(inc->first_start) / kNanosecond}};
    // The model's flows never end; the scenario's may end well within the integrated time.
    const double finish_s =
        static_cast<double>(inc->min_size) * 8 / (static_cast<double>(p.capacity) / st.flows);
    if (finish_s < static_cast<double>(st.options.duration) / kSecond) {
      warn(fmt::format(
          "{}: the model's flows never end, but a flow of {} at the fair share C/N would end "
          "after about {:.3g} ms, within --duration {}",
          o.scenario, FormatSize(inc->min_size), finish_s * 1e3, o.duration));
    }
  } else {
    st.loop = nullptr;
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
  for (int i = 0; i < st.flows; ++i) flows[i].start = st.starts[i];
  const auto t0 = std::chrono::steady_clock::now();
  tr.stats = fluid::RunFluid(st.params, flows, options, [&](const fluid::FluidState& s) {
    tr.t.push_back(s.time_s);
    tr.q.push_back(s.queue_bytes);
    tr.p.push_back(s.mark_prob);
    // Means over the flows started.
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

nlohmann::json ParamsJson(const fluid::FluidParams& p) {
  return {{"kmin_bytes", p.kmin},
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
}

// The share of [from, end] that the bottleneck is busy: all of it while the queue is positive,
// else sum Rc / C.
double Utilisation(const Trace& tr, double from, double c_bps) {
  double busy = 0, span = 0;
  for (size_t k = 1; k < tr.t.size(); ++k) {
    if (tr.t[k] < from) continue;
    const double dt = tr.t[k] - tr.t[k - 1];
    busy += (tr.q[k] > 0 ? 1.0 : std::min(1.0, tr.rc_sum[k] / c_bps)) * dt;
    span += dt;
  }
  return span > 0 ? busy / span : NAN;
}

// "a,b,c" as a list; empty items dropped.
std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
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

nlohmann::json RunFluidCommand(const FluidCommandOptions& o, std::vector<std::string>* warnings) {
  if (!o.map_param.empty()) throw InputError("--map-param: a third axis of --map; add --map");
  const Setup st = MakeSetup(o, warnings);
  StagedFolder folder(o.out_dir, o.force, o.stop);
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
  j["scenario"] = st.scenario.empty() ? nlohmann::json(nullptr) : nlohmann::json(st.scenario);
  j["flows"] = st.flows;
  j["rate_gbps"] = c_bps / 1e9;
  j["delay_ns"] = static_cast<double>(p.delay) / kNanosecond;
  j["origin"] = st.origin;
  j["control_loop"] = st.loop;
  j["duration_ns"] = std::round(end * 1e9);
  j["packet_bytes"] = p.packet;
  j["stagger_ns"] = st.stagger ? nlohmann::json(static_cast<double>(*st.stagger) / kNanosecond)
                               : nlohmann::json(0);
  nlohmann::json starts = nlohmann::json::array();
  for (Time t : st.starts) starts.push_back(static_cast<double>(t) / kNanosecond);
  j["flow_starts_ns"] = starts;
  j["parameters"] = ParamsJson(p);
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
  const double utilisation = Utilisation(tr, from, c_bps);
  j["utilisation"] =
      std::isnan(utilisation) ? nlohmann::json(nullptr) : nlohmann::json(utilisation);
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
  std::vector<int> ns;
  for (const std::string& t : SplitList(o.map_flows)) {
    int n = 0;
    try {
      n = std::stoi(t);
    } catch (const std::exception&) {
    }
    if (n < 1)
      throw InputError(fmt::format("--map-flows: expected counts such as 2,10,64, got \"{}\"", t));
    ns.push_back(n);
  }
  std::vector<std::string> delays = SplitList(o.map_delays);
  if (ns.empty() || delays.empty()) throw InputError("--map: need at least one N and one delay");
  // The third axis: one --set KEY=V per value ("" = no third axis).
  std::string param_key;
  std::vector<std::string> values = {""};
  if (!o.map_param.empty()) {
    const size_t eq = o.map_param.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw InputError(
          fmt::format("--map-param {}: expected KEY=V1,V2,... such as cc.rai=5Mbps,10Mbps,40Mbps",
                      o.map_param));
    }
    param_key = o.map_param.substr(0, eq);
    values = SplitList(o.map_param.substr(eq + 1));
    if (values.empty()) throw InputError(fmt::format("--map-param {}: no values", o.map_param));
    if (std::set<std::string>(values.begin(), values.end()).size() != values.size()) {
      throw InputError(fmt::format("--map-param {}: a value is repeated", o.map_param));
    }
  }
  // v: the third axis's value; nullptr = leave the key as it is.
  auto cell_options = [&](int n, const std::string& d, const std::string* v) {
    FluidCommandOptions one = o;
    one.flows = n;
    one.delay = d;
    if (v != nullptr && !param_key.empty()) one.sets.push_back(param_key + "=" + *v);
    return one;
  };
  // Validate the rest before the third axis, so that its errors name --map-param alone.
  std::vector<std::string> all_warnings;
  MakeSetup(cell_options(ns.front(), delays.front(), nullptr), &all_warnings);
  std::vector<fluid::FluidParams> value_params;
  for (const std::string& v : values) {
    if (param_key.empty()) break;
    try {
      value_params.push_back(
          MakeSetup(cell_options(ns.front(), delays.front(), &v), &all_warnings).params);
    } catch (const InputError& e) {
      throw InputError(fmt::format("--map-param {}={}: {}", param_key, v, e.what()));
    }
  }
  if (values.size() > 1 &&
      std::all_of(value_params.begin(), value_params.end(),
                  [&](const fluid::FluidParams& p) { return p == value_params.front(); })) {
    all_warnings.push_back(
        fmt::format("--map-param {}: every value gives the same fluid model (it reads no such "
                    "key); the grids will be the same",
                    param_key));
  }
  if (warnings) {
    std::set<std::string> seen;
    for (std::string& w : all_warnings) {
      if (seen.insert(w).second) warnings->push_back(std::move(w));
    }
  }
  // Every cell, in the order (value, N, delay).
  std::vector<Setup> setups;
  for (const std::string& v : values) {
    for (int n : ns) {
      for (const std::string& d : delays)
        setups.push_back(MakeSetup(cell_options(n, d, &v), nullptr));
    }
  }
  StagedFolder folder(o.out_dir, o.force, o.stop);
  struct Cell {
    fluid::OscillationReport osc;
    fluid::WindowStats q, rc;
    double utilisation = 0;
    fluid::FixedPoint fp;
  };
  std::vector<Cell> cells(setups.size());
  std::mutex error_mutex;
  std::string error;
  std::atomic<bool> interrupted{false};
  auto work = [&](size_t i) {
    try {
      const Setup& st = setups[i];
      const Trace tr = Integrate(st, st.options);
      const double end = tr.t.back(), from = end / 2;
      Cell& c = cells[i];
      c.q = fluid::Stats(tr.t, tr.q, from, end);
      c.rc = fluid::Stats(tr.t, tr.rc_mean, from, end);
      const double tol = std::max(2.0 * static_cast<double>(st.params.packet), 0.05 * c.q.mean);
      c.osc = fluid::Oscillation(tr.t, tr.q, from, end, tol);
      c.utilisation = Utilisation(tr, from, static_cast<double>(st.params.capacity));
      c.fp = fluid::ExactFixedPoint(st.params, st.flows);
    } catch (const Interrupted&) {
      interrupted = true;
      return false;  // no further cell
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (error.empty()) error = e.what();
    }
    return true;
  };
  const int jobs =
      o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  ParallelFor(setups.size(), jobs, work);
  if (interrupted) throw Interrupted("interrupted: no results written");
  if (!error.empty()) throw InputError(error);

  // A value as a CSV cell: quoted when it holds a quote (commas split the list already).
  auto csv_cell = [](const std::string& v) {
    if (v.find('"') == std::string::npos) return v;
    std::string out = "\"";
    for (char ch : v) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
  };
  std::string csv = param_key.empty() ? std::string() : csv_cell(param_key) + ",";
  csv +=
      "flows,delay_ns,verdict,period_ns,queue_mean_bytes,queue_peak_to_peak_bytes,rc_gbps_mean,"
      "utilisation,fixed_point_queue_bytes\n";
  std::string grid;
  nlohmann::json cells_json = nlohmann::json::array();
  size_t i = 0;
  for (const std::string& v : values) {
    if (!param_key.empty()) grid += fmt::format("{}={}\n", param_key, v);
    grid += fmt::format("{:>6}", "N");
    for (const std::string& d : delays) grid += fmt::format(" {:>6}", d);
    grid += "\n";
    for (int n : ns) {
      grid += fmt::format("{:>6}", n);
      for (size_t k = 0; k < delays.size(); ++k, ++i) {
        const Cell& c = cells[i];
        const std::string verdict(fluid::VerdictName(c.osc.verdict));
        const double delay_ns = static_cast<double>(setups[i].params.delay) / kNanosecond;
        if (!param_key.empty()) csv += csv_cell(v) + ",";
        csv += fmt::format("{},{:.0f},{},{},{:.1f},{:.1f},{:.6f},{:.6f},{}\n", n, delay_ns, verdict,
                           c.osc.period_s ? fmt::format("{:.0f}", *c.osc.period_s * 1e9) : "",
                           c.q.mean, c.q.peak_to_peak(), c.rc.mean / 1e9, c.utilisation,
                           c.fp.queue_bytes ? fmt::format("{:.1f}", *c.fp.queue_bytes) : "");
        grid += fmt::format(" {:>6}", static_cast<char>(std::toupper(verdict[0])));
        nlohmann::json cell = {{"flows", n},
                               {"delay_ns", delay_ns},
                               {"verdict", verdict},
                               {"period_ns", c.osc.period_s ? nlohmann::json(*c.osc.period_s * 1e9)
                                                            : nlohmann::json(nullptr)},
                               {"queue_mean_bytes", c.q.mean},
                               {"queue_peak_to_peak_bytes", c.q.peak_to_peak()},
                               {"utilisation", c.utilisation},
                               {"fixed_point_queue_bytes", OrNull(c.fp.queue_bytes)}};
        if (!param_key.empty()) cell["param"] = v;
        cells_json.push_back(std::move(cell));
      }
      grid += "\n";
    }
  }
  const Setup& first = setups.front();
  const fluid::FluidParams& p = first.params;
  nlohmann::json j = {
      {"model", "DCQCN fluid model stability map (docs/fluid.md)"},
      {"scenario",
       first.scenario.empty() ? nlohmann::json(nullptr) : nlohmann::json(first.scenario)},
      {"rate_gbps", static_cast<double>(p.capacity) / 1e9},
      {"origin", {{"rate", first.origin["rate"]}, {"starts", first.origin["starts"]}}},
      {"packet_bytes", p.packet},
      {"kmin_bytes", p.kmin},
      {"kmax_bytes", p.kmax},
      {"pmax", p.pmax},
      {"rai_gbps", static_cast<double>(p.rai) / 1e9},
      {"parameters", ParamsJson(p)},
      {"duration_ns", static_cast<double>(first.options.duration) / kNanosecond},
      {"window", "the last half"},
      {"map_flows", ns},
      {"map_delays", delays},
      {"map_param", nullptr},
      {"cells", cells_json}};
  if (!param_key.empty()) {
    nlohmann::json per_value = nlohmann::json::array();
    for (size_t k = 0; k < values.size(); ++k) {
      const Setup& st = setups[k * ns.size() * delays.size()];
      per_value.push_back({{"value", values[k]},
                           {"rate_gbps", static_cast<double>(st.params.capacity) / 1e9},
                           {"parameters", ParamsJson(st.params)}});
    }
    j["map_param"] = {{"key", param_key}, {"values", values}, {"by_value", per_value}};
  }
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
  if (j["scenario"].is_string()) {
    // Where N, C and tau* came from, when a scenario could have given them.
    auto from = [&](const char* key) {
      const nlohmann::json& o = j["origin"][key];
      const std::string f = o["from"].get<std::string>();
      return f == "scenario" ? fmt::format("scenario: {}", o["how"].get<std::string>())
                             : fmt::format("--{}", key);
    };
    s += fmt::format("  from {}: N ({}), C ({}), tau* ({})\n", j["scenario"].get<std::string>(),
                     from("flows"), from("rate"), from("delay"));
  }
  if (j["fixed_point"].contains("note"))
    s += "  " + j["fixed_point"]["note"].get<std::string>() + "\n";
  const nlohmann::json& q = j["queue_bytes"];
  const nlohmann::json& osc = j["oscillation"];
  const double from_ms = j["window"]["from_ns"].get<double>() / 1e6;
  const double to_ms = j["window"]["to_ns"].get<double>() / 1e6;
  s += fmt::format(
      "  last half ({:g} to {:g} ms): queue mean {} KB, peak-to-peak {} KB; Rc mean {} Gb/s "
      "(fair share {:.3f}), utilisation {}%\n",
      from_ms, to_ms, num(q["mean"], 1e-3, 1), num(q["peak_to_peak"], 1e-3, 1),
      num(j["rc_gbps_mean_of_flows"]["mean"], 1, 3), j["fair_share_gbps"].get<double>(),
      num(j["utilisation"], 100, 2));
  // The verdict is the last quarter's of that window (fluid/oscillation.h), not the last half's.
  s += fmt::format(
      "  {}: queue peak-to-peak {} KB over its last quarter ({:g} to {:g} ms), "
      "tolerance {} KB{}\n",
      osc["verdict"].get<std::string>(), num(osc["queue_peak_to_peak_last_quarter_bytes"], 1e-3, 1),
      from_ms + 0.75 * (to_ms - from_ms), to_ms, num(osc["tolerance_bytes"], 1e-3, 1),
      osc["period_ns"].is_number() ? fmt::format("; period {} us", num(osc["period_ns"], 1e-3, 1))
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
