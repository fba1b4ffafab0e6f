// A training job's compute replayed from its flows' outcomes, and what it measures.
#include "run/job_metrics.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>

namespace dcqcn {
namespace {

double Ns(Time t) { return static_cast<double>(t) / 1e3; }

double Gbps(Bytes bytes, Time t) {
  return t > 0 ? 8.0 * static_cast<double>(bytes) / (static_cast<double>(t) / 1e3) : 0;
}

// nccl-tests' bus factor of a job collective (a pipeline transfer: 1).
double Factor(const JobCollective& c) { return c.pipeline ? 1.0 : BusFactor(c.op, c.group_size); }

JobOutcome Replay(const Scenario& s, const Network& net, const JobConfig& job, const JobFlows& jf) {
  JobOutcome o;
  const FlowAfter& after = s.flow_after;
  const uint32_t first_task = jf.tasks.empty() ? 0 : jf.tasks.front().id & ~FlowAfter::kTask;
  // The collective each flow belongs to.
  std::vector<int> owner(jf.flow_end - jf.flow_begin, -1);
  for (size_t c = 0; c < jf.collectives.size(); ++c) {
    for (uint32_t id = jf.collectives[c].begin; id < jf.collectives[c].end; ++id) {
      owner[id - jf.flow_begin] = static_cast<int>(c);
    }
  }
  o.task_done.assign(jf.tasks.size(), -1);
  // When `host` saw `id` complete (-1: never).
  auto seen = [&](uint32_t id, int host) -> Time {
    if (FlowAfter::IsTask(id)) return o.task_done[(id & ~FlowAfter::kTask) - first_task];
    return net.flow_seen_by(id, host);
  };
  const int n = static_cast<int>(jf.hosts.size());
  o.ranks.assign(job.iterations, std::vector<JobRankIteration>(n));
  // The collective flow `id` belongs to, or an update task follows (nullptr: another task, or
  // not a job collective's).
  auto collective_of = [&](uint32_t id) -> const JobCollective* {
    if (id != FlowAfter::kNone && FlowAfter::IsTask(id)) {
      const JobTask& t = jf.tasks[(id & ~FlowAfter::kTask) - first_task];
      return t.kind == JobTaskKind::kUpdate ? &jf.collectives[t.collective] : nullptr;
    }
    if (id == FlowAfter::kNone || id < jf.flow_begin || id >= jf.flow_end ||
        owner[id - jf.flow_begin] < 0) {
      return nullptr;
    }
    return &jf.collectives[owner[id - jf.flow_begin]];
  };
  std::vector<Time> stream(n, job.start);  // each rank's time accounted for so far
  std::vector<int> open(n, 0);             // each rank's iteration being accounted
  // Closes rank g's iteration i: it ends when everything it left running is done as g sees it,
  // or when g's next iteration starts computing (`limit`), not before its last compute. The time
  // after its last compute is the exposed tail of what ended last (its weight gradients).
  auto close = [&](int g, int i, Time limit) {
    JobRankIteration& r = o.ranks[i][g];
    r.start = i == 0 ? job.start : o.ranks[i - 1][g].end;
    Time all = -1;
    uint32_t last = FlowAfter::kNone;
    for (const uint32_t p : jf.iteration_end[i][g]) {
      const Time at = seen(p, jf.hosts[g]);
      if (at < 0) return false;
      if (at >= all) all = at, last = p;
    }
    const Time end = std::max(stream[g], std::min(all, limit));
    if (const JobCollective* c = collective_of(last); c != nullptr && end > stream[g]) {
      (c->pipeline ? r.exposed_pp : r.exposed[static_cast<int>(c->group)]) += end - stream[g];
    }
    r.end = stream[g] = end;
    return true;
  };
  for (size_t k = 0; k < jf.tasks.size(); ++k) {
    const JobTask& t = jf.tasks[k];
    const FlowAfter::Task& spec = after.task(t.id);
    // Its prerequisites' last completion, and which one it was.
    Time latest = -1;
    uint32_t last = FlowAfter::kNone;
    bool complete = true;
    if (spec.row != FlowAfter::kNoRow) {
      for (const uint32_t p : after.row(spec.row)) {
        const Time at = seen(p, spec.host);
        if (at < 0) complete = false;
        if (at >= latest) latest = at, last = p;
      }
    }
    const Time ready = std::max(spec.not_before, latest);
    if (!complete) continue;  // it never ran, nor did anything after it on this rank
    o.task_done[k] = spec.row == FlowAfter::kNoRow ? spec.not_before + spec.delay
                                                   : std::max(spec.not_before, ready + spec.delay);
    if (!IsCompute(t.kind)) continue;  // not on the compute stream
    const int g = t.rank;
    while (open[g] < t.iteration) close(g, open[g]++, ready);
    JobRankIteration& r = o.ranks[t.iteration][g];
    const Time idle = std::max<Time>(0, ready - stream[g]);
    if (const JobCollective* c = collective_of(last); c != nullptr && idle > 0) {
      if (c->pipeline) {
        // Before the transfer started the peer stage was still computing: bubble.
        const Time started = std::max(stream[g], net.flow_start(last));
        const Time pp = std::clamp<Time>(ready - started, 0, idle);
        r.exposed_pp += pp;
        r.bubble += idle - pp;
      } else {
        r.exposed[static_cast<int>(c->group)] += idle;
      }
    } else {
      r.bubble += idle;  // waiting for its own start time or a compute task of another stream
    }
    r.compute += spec.delay;
    stream[g] = o.task_done[k];
  }
  for (int g = 0; g < n; ++g) {
    while (open[g] < job.iterations && close(g, open[g], kTimeNever)) ++open[g];
    for (int i = open[g]; i < job.iterations; ++i) o.ranks[i][g].end = -1;
  }
  // An iteration is over when every rank finished it.
  o.iteration_end.assign(job.iterations, -1);
  for (int i = 0; i < job.iterations; ++i) {
    Time end = 0;
    for (int g = 0; g < n && end >= 0; ++g) {
      end = o.ranks[i][g].finished() ? std::max(end, o.ranks[i][g].end) : -1;
    }
    o.iteration_end[i] = end;
  }
  for (const JobCollective& c : jf.collectives) {
    JobCollectiveOutcome co;
    Time end = 0;
    bool all = true;
    for (uint32_t id = c.begin; id < c.end; ++id) {
      co.start = std::min(co.start, net.flow_start(id));
      const Time d = net.flow_delivered_at(id);
      if (d < 0) all = false;
      end = std::max(end, d);
    }
    if (all) co.end = end;
    o.collectives.push_back(co);
  }
  return o;
}

std::string GroupName(const JobCollective& c) {
  return c.pipeline ? "pp" : std::string(Name(c.group));
}

}  // namespace

std::vector<JobOutcome> JobOutcomes(const Scenario& s, const Network& net) {
  std::vector<JobOutcome> out;
  for (size_t j = 0; j < s.jobs.size(); ++j)
    out.push_back(Replay(s, net, s.jobs[j], s.job_flows[j]));
  return out;
}

nlohmann::json JobsJson(const Scenario& s, const std::vector<JobOutcome>& outcomes) {
  nlohmann::json all = nlohmann::json::array();
  for (size_t j = 0; j < outcomes.size(); ++j) {
    const JobConfig& job = s.jobs[j];
    const JobFlows& jf = s.job_flows[j];
    const JobOutcome& o = outcomes[j];
    const int n = static_cast<int>(jf.hosts.size());
    nlohmann::json out;
    out["name"] = job.name;
    out["ranks"] = n;
    out["tp"] = job.tp;
    out["pp"] = job.pp;
    out["dp"] = n / (job.tp * job.pp);
    out["ep"] = job.ep;
    out["micro_batches"] = job.micro_batches;
    out["flows"] = {jf.flow_begin, jf.flow_end};
    nlohmann::json its = nlohmann::json::array();
    Time previous = job.start;
    int finished = 0;
    double sum = 0;
    for (int i = 0; i < job.iterations; ++i) {
      nlohmann::json it;
      const Time end = o.iteration_end[i];
      if (end < 0 || previous < 0) {
        it["time_ns"] = it["end_ns"] = nullptr;
        previous = -1;
      } else {
        it["time_ns"] = Ns(end - previous);
        it["end_ns"] = Ns(end);
        sum += Ns(end - previous);
        ++finished;
        previous = end;
      }
      // Means over the ranks that finished it, of their own iterations (each from its previous
      // iteration's end to its own).
      double rank_time = 0, compute = 0, pp = 0, bubble = 0;
      std::array<double, 4> exposed{};
      int counted = 0;
      for (const JobRankIteration& r : o.ranks[i]) {
        if (!r.finished()) continue;
        ++counted;
        rank_time += Ns(r.end - r.start);
        compute += Ns(r.compute);
        pp += Ns(r.exposed_pp);
        bubble += Ns(r.bubble);
        for (size_t g = 0; g < exposed.size(); ++g) exposed[g] += Ns(r.exposed[g]);
      }
      const double d = counted > 0 ? counted : 1;
      it["rank_time_ns"] = rank_time / d;
      it["compute_ns"] = compute / d;
      nlohmann::json ex;
      double total = 0;
      for (size_t g = 0; g < exposed.size(); ++g) {
        ex[std::string(kJobGroupNames[g])] = exposed[g] / d;
        total += exposed[g] / d;
      }
      ex["pp"] = pp / d;
      total += pp / d;
      it["exposed_comm_ns"] = std::move(ex);
      it["exposed_comm_total_ns"] = total;
      it["bubble_ns"] = bubble / d;
      its.push_back(std::move(it));
    }
    out["iterations"] = std::move(its);
    out["finished_iterations"] = finished;
    out["mean_iteration_time_ns"] = finished > 0 ? nlohmann::json(sum / finished) : nullptr;
    // Collectives: their count and mean busbw by group and phase.
    std::map<std::string, std::pair<int, double>> busbw;
    for (size_t c = 0; c < jf.collectives.size(); ++c) {
      const JobCollective& jc = jf.collectives[c];
      const JobCollectiveOutcome& co = o.collectives[c];
      if (!co.finished()) continue;
      auto& [count, bw] = busbw[fmt::format("{}_{}", GroupName(jc), Name(jc.phase))];
      ++count;
      bw += Gbps(jc.size, co.end - co.start) * Factor(jc);
    }
    nlohmann::json bws;
    for (const auto& [key, v] : busbw) {
      bws[key] = {{"collectives", v.first}, {"mean_busbw_gbps", v.second / v.first}};
    }
    out["collectives"] = std::move(bws);
    all.push_back(std::move(out));
  }
  return all;
}

std::string JobsCsv(const Scenario& s, const std::vector<JobOutcome>& outcomes) {
  std::string out =
      "job,iteration,rank,host,stage,start_ns,end_ns,time_ns,compute_ns,exposed_tp_ns,"
      "exposed_dp_ns,exposed_ep_ns,exposed_dp_ep_ns,exposed_pp_ns,bubble_ns\n";
  for (size_t j = 0; j < outcomes.size(); ++j) {
    const JobConfig& job = s.jobs[j];
    const JobFlows& jf = s.job_flows[j];
    const int n = static_cast<int>(jf.hosts.size());
    const int per_stage = n / job.pp;
    for (int i = 0; i < job.iterations; ++i) {
      for (int g = 0; g < n; ++g) {
        const JobRankIteration& r = outcomes[j].ranks[i][g];
        out += fmt::format("{},{},{},{},{},{:.3f},", job.name, i, g, jf.hosts[g], g / per_stage,
                           Ns(r.start));
        if (!r.finished()) {
          out += ",,,,,,,,\n";
          continue;
        }
        out += fmt::format("{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f}\n",
                           Ns(r.end), Ns(r.end - r.start), Ns(r.compute), Ns(r.exposed[0]),
                           Ns(r.exposed[1]), Ns(r.exposed[2]), Ns(r.exposed[3]), Ns(r.exposed_pp),
                           Ns(r.bubble));
      }
    }
  }
  return out;
}

std::string JobTimelineCsv(const Scenario& s, const std::vector<JobOutcome>& outcomes) {
  std::string out = "job,iteration,rank,host,stage,micro_batch,layer,phase,start_ns,end_ns\n";
  for (size_t j = 0; j < outcomes.size(); ++j) {
    const JobFlows& jf = s.job_flows[j];
    const int per_stage = static_cast<int>(jf.hosts.size()) / s.jobs[j].pp;
    for (size_t k = 0; k < jf.tasks.size(); ++k) {
      const JobTask& t = jf.tasks[k];
      const Time done = outcomes[j].task_done[k];
      if (!IsCompute(t.kind) || done < 0) continue;
      const Time delay = s.flow_after.task(t.id).delay;
      fmt::format_to(std::back_inserter(out),
                     FMT_COMPILE("{},{},{},{},{},{},{},{},{:.3f},{:.3f}\n"), s.jobs[j].name,
                     t.iteration, t.rank, jf.hosts[t.rank], t.rank / per_stage, t.micro_batch,
                     jf.layer_names[t.layer], Name(PhaseOf(t.kind)), Ns(done - delay), Ns(done));
    }
  }
  return out;
}

std::string JobCollectivesCsv(const Scenario& s, const std::vector<JobOutcome>& outcomes) {
  std::string out =
      "job,iteration,micro_batch,stage,layer,phase,group,first_rank,op,size_bytes,group_ranks,"
      "flows,start_ns,end_ns,time_ns,algbw_gbps,busbw_gbps\n";
  for (size_t j = 0; j < outcomes.size(); ++j) {
    const JobFlows& jf = s.job_flows[j];
    for (size_t c = 0; c < jf.collectives.size(); ++c) {
      const JobCollective& jc = jf.collectives[c];
      const JobCollectiveOutcome& co = outcomes[j].collectives[c];
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},", s.jobs[j].name, jc.iteration,
                         jc.micro_batch, jc.stage, jc.layer < 0 ? "" : jf.layer_names[jc.layer],
                         Name(jc.phase), GroupName(jc), jc.first_rank,
                         jc.pipeline ? "send" : Name(jc.op), jc.size, jc.group_size,
                         jc.end - jc.begin);
      out += co.start == kTimeNever ? "" : fmt::format("{:.3f}", Ns(co.start));
      if (co.finished()) {
        const double algbw = Gbps(jc.size, co.end - co.start);
        out += fmt::format(",{:.3f},{:.3f},{:.6g},{:.6g}\n", Ns(co.end), Ns(co.end - co.start),
                           algbw, algbw * Factor(jc));
      } else {
        out += ",,,,\n";
      }
    }
  }
  return out;
}

}  // namespace dcqcn
