// ncclFlowModel_EndToEnd.csv: SimAI's per-layer report of rank 0.
#include "run/simai_end_to_end.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace dcqcn {
namespace {

// SimAI's numbers: std::to_string(double), "%f" (NaN as glibc prints 0.0 / 0.0).
std::string Num(double v) { return std::isnan(v) ? "-nan" : fmt::format("{:f}", v); }
double Us(Time t) { return static_cast<double>(t) / static_cast<double>(kMicrosecond); }

struct Phase {
  Time compute = 0;
  Time total = 0;  // rank 0's time in its collective, update included
  Time exposed = 0;
  Time finish = -1;  // when it was done for rank 0, update included (-1: no collective)
  Bytes size = 0;
  std::optional<CollectiveOp> op;
  int group_size = 0;
};

}  // namespace

std::string SimaiEndToEndCsv(const Scenario& s, const Network& net, size_t job, const JobOutcome& o,
                             const SimaiWorkload& w) {
  const JobConfig& j = s.jobs[job];
  const JobFlows& jf = s.job_flows[job];
  const int host0 = jf.hosts[0];
  const size_t layers = jf.layer_names.size();
  // [layer][phase]: SimAI's order of phases is the workload's (forward, input, weight).
  std::vector<std::array<Phase, 3>> rows(layers);
  // When rank 0 issued each phase's collective: its compute of that phase completed (a
  // weight-gradient collective's time then counts its wait in the queue, as SimAI's does); and
  // its last compute.
  std::vector<std::array<Time, 3>> issued(layers, {-1, -1, -1});
  Time last_compute = j.start;
  for (size_t k = 0; k < jf.tasks.size(); ++k) {
    const JobTask& t = jf.tasks[k];
    if (t.rank != 0 || t.iteration != 0 || !IsCompute(t.kind)) continue;
    const Time done = o.task_done[k];
    issued[t.layer][static_cast<int>(t.kind)] = done;
    last_compute = std::max(last_compute, done);
  }
  for (size_t l = 0; l < layers; ++l) {
    const JobLayer& def = j.layers[l];  // a SimAI job's layers are not repeated
    for (int k = 0; k < 3; ++k) rows[l][k].compute = def.phases[k].compute;
  }
  for (const JobCollective& c : jf.collectives) {
    if (c.pipeline || c.iteration != 0 || c.first_rank != 0) continue;
    Phase& p = rows[c.layer][static_cast<int>(c.phase)];
    Time done = -1;
    bool complete = true;
    for (uint32_t id = c.begin; id < c.end; ++id) {
      const FlowSpec& f = s.flows[id];
      if (f.src != host0 && f.dst != host0) continue;
      const Time seen = net.flow_seen_by(id, host0);
      if (seen < 0) complete = false;
      done = std::max(done, seen);
    }
    const Time creation = issued[c.layer][static_cast<int>(c.phase)];
    if (!complete || creation < 0) continue;
    p.finish = done + j.layers[c.layer].update;
    p.total = p.finish - creation;
    p.size = c.size;
    p.op = c.op;
    p.group_size = c.group_size;
    if (c.phase != JobPhaseKind::kWeightGrad) p.exposed = p.total;
  }
  // Rank 0's end: its last compute, or a collective it waited for after it.
  Time end = last_compute;
  for (const auto& r : rows) {
    for (const Phase& p : r) end = std::max(end, p.finish);
  }
  // Its wait for the end starts a state change after the last compute (Workload's
  // check_for_sim_end).
  if (const Time wait = last_compute + j.compute_gap; layers > 0 && rows[0][2].finish > wait) {
    rows[0][2].exposed = rows[0][2].finish - wait;
  }
  const int tp = j.tp;
  const int dp = w.all_gpus / std::max(1, tp * w.pp);
  std::string out;
  // Newer SimAI versions put their summary first (Layer.cc's write_res).
  Time comp = 0, exposed_dp = 0, exposed_tp = 0, pre_bubble = 0;
  for (size_t l = 0; l < layers; ++l) {
    for (const Phase& p : rows[l]) comp += p.compute;
    exposed_dp += rows[l][2].exposed;
    exposed_tp += rows[l][0].exposed + rows[l][1].exposed;
    if (jf.layer_names[l] != "embedding_layer") {
      for (const Phase& p : rows[l]) pre_bubble += p.compute;
      pre_bubble += rows[l][0].exposed + rows[l][1].exposed;
    }
  }
  const double bubble = Us(pre_bubble) * (w.pp - 1) / (static_cast<double>(w.ga) * w.vpp);
  const double total_exposed = Us(end - comp);
  const double total_time = Us(comp) + total_exposed;
  auto share = [&](double v) {
    const double pct = v / total_time * 100;
    return fmt::format("{:.0f} ({:.2f}%)", v, std::isfinite(pct) ? pct : 0.0);
  };
  out +=
      "File name, Expose DP comm, Expose DP_EP comm, Expose TP comm, Expose_EP_comm, "
      "Expose_PP_comm, bubble time, total comp, total exposed comm, Total time\n";
  out += fmt::format("test1, {}, {}, {}, {}, {}, {}, {}, {}, {:.0f}\n", share(Us(exposed_dp)),
                     share(0), share(Us(exposed_tp)), share(0), share(0), share(bubble),
                     share(Us(comp)), share(total_exposed), total_time);
  out +=
      "layer_name,test1,fwd compute,wg compute,ig compute,fwd exposed comm,wg exposed "
      "comm,ig exposed comm,fwd total comm,algbw,busbw,wg total comm,algbw,busbw,ig total "
      "comm,algbw,busbw,workload finished at\n";
  std::array<Time, 3> sum_compute{}, sum_exposed{}, sum_total{};
  for (size_t l = 0; l < layers; ++l) {
    const std::array<Phase, 3>& r = rows[l];
    std::string line = jf.layer_names[l] + ",test1";
    // Compute and exposed in SimAI's column order: forward, weight gradient, input gradient.
    for (int k : {0, 2, 1}) line += "," + Num(Us(r[k].compute));
    for (int k : {0, 2, 1}) line += "," + Num(Us(r[k].exposed));
    for (int k : {0, 2, 1}) {
      const Phase& p = r[k];
      const double algbw = static_cast<double>(p.size) / (static_cast<double>(p.total) / 1e6) *
                           1e6 / (1024.0 * 1024 * 1024);
      const int n = k == 2 ? dp : tp;
      const double busbw = p.op ? algbw * BusFactor(*p.op, n) : 0;
      line += fmt::format(",{},{},{}", Num(Us(p.total)), Num(algbw), Num(busbw));
    }
    line += "," + Num(Us(end)) + "\n";
    out += line;
    for (int k = 0; k < 3; ++k) {
      sum_compute[k] += r[k].compute;
      sum_exposed[k] += r[k].exposed;
      sum_total[k] += r[k].total;
    }
  }
  std::string sum = "SUM,test1";
  for (int k : {0, 2, 1}) sum += "," + Num(Us(sum_compute[k]));
  for (int k : {0, 2, 1}) sum += "," + Num(Us(sum_exposed[k]));
  for (int k : {0, 2, 1}) sum += "," + Num(Us(sum_total[k])) + ",NONE,NONE";
  out += sum + "\n";
  out += fmt::format("total exposed comm,{},total comp,{},total time,{}\n", Num(total_exposed),
                     Num(Us(comp)), Num(total_time));
  return out;
}

}  // namespace dcqcn
