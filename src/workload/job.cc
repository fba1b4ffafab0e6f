// A training job expanded into flows and compute tasks (the schedule is in job.h).
#include "workload/job.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "core/error.h"
#include "workload/collective_builder.h"
#include "workload/collectives.h"

namespace dcqcn {
namespace {

// Where each rank sits in the job's parallel dimensions.
struct Layout {
  int n = 0, tp = 1, dp = 1, pp = 1, ep = 1;
  int tp_rank(int g) const { return g % tp; }
  int dp_rank(int g) const { return (g / tp) % dp; }
  int stage(int g) const { return g / (tp * dp); }
  int rank(int stage, int dp_rank, int tp_rank) const {
    return (stage * dp + dp_rank) * tp + tp_rank;
  }
  // The ranks of g's group of `kind`, in ring order.
  std::vector<int> Group(JobGroup kind, int g) const {
    std::vector<int> out;
    const int s = stage(g), d = dp_rank(g), t = tp_rank(g);
    switch (kind) {
      case JobGroup::kTp:
        for (int k = 0; k < tp; ++k) out.push_back(rank(s, d, k));
        break;
      case JobGroup::kDp:
        for (int k = 0; k < dp; ++k) out.push_back(rank(s, k, t));
        break;
      case JobGroup::kEp:
        for (int k = d / ep * ep; k < d / ep * ep + ep; ++k) out.push_back(rank(s, k, t));
        break;
      case JobGroup::kDpEp:
        for (int k = d % ep; k < dp; k += ep) out.push_back(rank(s, k, t));
        break;
    }
    return out;
  }
  int GroupSize(JobGroup kind) const {
    switch (kind) {
      case JobGroup::kTp:
        return tp;
      case JobGroup::kDp:
        return dp;
      case JobGroup::kEp:
        return ep;
      case JobGroup::kDpEp:
        return dp / ep;
    }
    return 1;
  }
  // The groups of `kind` among stage s's ranks, each once.
  std::vector<std::vector<int>> Groups(JobGroup kind, int s) const {
    std::vector<std::vector<int>> out;
    std::set<int> seen;
    for (int d = 0; d < dp; ++d) {
      for (int t = 0; t < tp; ++t) {
        const int g = rank(s, d, t);
        if (seen.count(g)) continue;
        out.push_back(Group(kind, g));
        seen.insert(out.back().begin(), out.back().end());
      }
    }
    return out;
  }
};

Layout LayoutOf(const JobConfig& j, int n) {
  Layout l;
  l.n = n;
  l.tp = j.tp;
  l.pp = j.pp;
  l.ep = j.ep;
  l.dp = n / (j.tp * j.pp);
  return l;
}

// The layers with their repeats unrolled: indices into j.layers.
// The layers in order, each repeat times, the list blocks times.
std::vector<int> Unrolled(const JobConfig& j) {
  std::vector<int> out;
  for (int b = 0; b < j.blocks; ++b) {
    for (size_t i = 0; i < j.layers.size(); ++i) {
      for (int k = 0; k < j.layers[i].repeat; ++k) out.push_back(static_cast<int>(i));
    }
  }
  return out;
}

int64_t UnrolledCount(const JobConfig& j) {
  int64_t per_block = 0;
  for (const JobLayer& l : j.layers) per_block += l.repeat;
  return per_block * j.blocks;
}

// Stage s's layers, [first, last) of the unrolled layers: a contiguous, balanced share.
std::pair<int, int> StageLayers(int layers, int pp, int s) {
  return {static_cast<int>(int64_t{layers} * s / pp),
          static_cast<int>(int64_t{layers} * (s + 1) / pp)};
}

const std::string& AlgorithmFor(const JobConfig& j, CollectiveOp op) {
  return op == CollectiveOp::kAllToAll ? j.alltoall_algorithm : j.allreduce_algorithm;
}

// A collective of the group on `group_hosts`: channels 0 is the group's ranks in one server
// (SimAI's MockNccl: a channel per GPU of the group in the first server; 1 off a rail fabric).
CollectiveConfig ConfigFor(const JobConfig& j, CollectiveOp op, Bytes size,
                           const std::vector<int>& group_hosts, int gpus_per_server) {
  CollectiveConfig c;
  c.op = op;
  c.algorithm = AlgorithmFor(j, op);
  c.size = size;
  c.channels = j.channels;
  if (c.channels == 0) {
    c.channels = gpus_per_server > 0
                     ? static_cast<int>(ByServer(group_hosts, gpus_per_server).front().size())
                     : 1;
  }
  c.rotate_rings = j.rotate_rings;
  // PXN is what NCCL does wherever a ring or a send leaves by another rail's NIC; the other
  // algorithms have no such choice here.
  c.pxn = j.pxn && (c.algorithm == "ring" || c.algorithm == "direct");
  c.qps_per_connection = j.qps_per_connection;
  c.connection = j.connection;
  c.priority = j.priority;
  c.start = j.start;
  return c;
}

// A stage's order of micro-batch passes under 1F1B: (backward?, micro-batch).
std::vector<std::pair<bool, int>> OneFOneB(int pp, int s, int m) {
  std::vector<std::pair<bool, int>> ops;
  const int warmup = std::min(pp - s - 1, m);
  int f = 0, b = 0;
  for (; f < warmup; ++f) ops.emplace_back(false, f);
  while (f < m) {
    ops.emplace_back(false, f++);
    ops.emplace_back(true, b++);
  }
  while (b < m) ops.emplace_back(true, b++);
  return ops;
}

std::string PhaseKey(size_t layer, JobPhaseKind k, std::string_view what) {
  return fmt::format("layer[{}].{}_{}", layer, Name(k), what);
}

}  // namespace

CollectiveProblem CheckJob(const JobConfig& j, const CollectiveHosts& where) {
  const int n = j.ranks_count(where.hosts);
  if (n < 1) return {"ranks", "a job needs at least one rank"};
  std::map<int, size_t> seen;
  for (size_t r = 0; r < j.ranks.size() && !j.all_ranks; ++r) {
    if (j.ranks[r] < 0 || j.ranks[r] >= where.hosts) {
      return {"ranks", fmt::format("ranks[{}] = {} is not a host index (0 to {})", r, j.ranks[r],
                                   where.hosts - 1)};
    }
    const auto [it, fresh] = seen.emplace(j.ranks[r], r);
    if (!fresh) {
      return {"ranks", fmt::format("host {} is listed twice (ranks[{}] and ranks[{}])", j.ranks[r],
                                   it->second, r)};
    }
  }
  if (n % (j.tp * j.pp) != 0) {
    return {j.pp > 1 ? "pp" : "tp",
            fmt::format("tp x pp = {} x {} = {} does not divide the {} ranks", j.tp, j.pp,
                        j.tp * j.pp, n)};
  }
  const int dp = n / (j.tp * j.pp);
  if (dp % j.ep != 0) {
    return {"ep", fmt::format("ep = {} does not divide the data-parallel size {} (ranks / (tp x "
                              "pp) = {} / {})",
                              j.ep, dp, n, j.tp * j.pp)};
  }
  if (j.layers.empty()) return {"layer", "a job needs at least one [[job.layer]]"};
  if (j.weight_grad_order == WeightGradOrder::kNewestFirst &&
      j.connection == CollectiveConnection::kPersistent) {
    // A queue pair sends in the order its transfers were posted: the issue order.
    return {"weight_grad_order",
            "\"newest_first\" needs connection = \"per_flow\" (a persistent connection carries "
            "its group's collectives in the order they were issued)"};
  }
  if (j.pxn && where.gpus_per_server == 0) {
    return {"pxn", "only on a topology of servers (rail or simai_file)"};
  }
  if (UnrolledCount(j) > kMaxJobLayers) {
    return {"blocks", fmt::format("{} layers (repeats and blocks included); at most {}",
                                  UnrolledCount(j), kMaxJobLayers)};
  }
  const int layers = static_cast<int>(Unrolled(j).size());
  if (layers < j.pp) {
    return {"pp", fmt::format("{} stages but {} layers (repeats included): a stage would have no "
                              "layers",
                              j.pp, layers)};
  }
  if (j.pp > 1 && j.pp_size <= 0) {
    return {"pp_size", fmt::format("required with pp = {}: the bytes of a micro-batch's "
                                   "activations between stages",
                                   j.pp)};
  }
  const Layout l = LayoutOf(j, n);
  const std::vector<int> hosts = j.rank_hosts(where.hosts);
  for (size_t i = 0; i < j.layers.size(); ++i) {
    for (int k = 0; k < 3; ++k) {
      const JobPhase& p = j.layers[i].phases[k];
      const auto kind = static_cast<JobPhaseKind>(k);
      if (!p.op) {
        if (p.size > 0) {
          return {PhaseKey(i, kind, "size"),
                  fmt::format("{} bytes but no {}_comm", p.size, Name(kind))};
        }
        continue;
      }
      if (p.size <= 0) {
        return {PhaseKey(i, kind, "size"), fmt::format("required with {}_comm", Name(kind))};
      }
      if (l.GroupSize(p.group) < 2) continue;  // a group of one rank communicates nothing
      std::vector<int> group_hosts;
      for (int g : l.Group(p.group, 0)) group_hosts.push_back(hosts[g]);
      const CollectiveConfig c = ConfigFor(j, *p.op, p.size, group_hosts, where.gpus_per_server);
      if (c.channels > 64) {
        return {"channels", fmt::format("0 gives the {} group {} channels (its ranks in a "
                                        "server); at most 64",
                                        Name(p.group), c.channels)};
      }
      const CollectiveAlgorithm* a = FindCollectiveAlgorithm(c.algorithm);
      const std::string alg_key =
          *p.op == CollectiveOp::kAllToAll ? "alltoall_algorithm" : "allreduce_algorithm";
      if (a == nullptr || !a->implements(*p.op)) {
        return {alg_key, fmt::format("\"{}\" does not implement {} ({})", c.algorithm, Name(*p.op),
                                     PhaseKey(i, kind, "comm"))};
      }
      if (CollectiveProblem q = a->check(c, group_hosts, where); !q.key.empty()) {
        return {alg_key, fmt::format("{} on a {} group ({}): {}", c.algorithm, Name(p.group),
                                     PhaseKey(i, kind, "comm"), q.message)};
      }
    }
  }
  return {};
}

std::vector<std::vector<int>> JobConnectedHosts(const JobConfig& j, const CollectiveHosts& where) {
  const int n = j.ranks_count(where.hosts);
  const Layout l = LayoutOf(j, n);
  const std::vector<int> host = j.rank_hosts(where.hosts);
  const std::vector<int> unrolled = Unrolled(j);
  std::vector<std::vector<int>> out;
  for (int s = 0; s < l.pp; ++s) {
    const auto [first, last] = StageLayers(static_cast<int>(unrolled.size()), l.pp, s);
    std::array<bool, kJobGroupNames.size()> runs{};
    for (int u = first; u < last; ++u) {
      for (const JobPhase& p : j.layers[unrolled[u]].phases) {
        if (p.op) runs[static_cast<int>(p.group)] = true;
      }
    }
    for (size_t kind = 0; kind < runs.size(); ++kind) {
      if (!runs[kind] || l.GroupSize(static_cast<JobGroup>(kind)) < 2) continue;
      for (const std::vector<int>& group : l.Groups(static_cast<JobGroup>(kind), s)) {
        std::vector<int>& hosts = out.emplace_back();
        for (int g : group) hosts.push_back(host[g]);
      }
    }
    if (s + 1 == l.pp) continue;
    for (int d = 0; d < l.dp; ++d) {
      for (int t = 0; t < l.tp; ++t) {
        out.push_back({host[l.rank(s, d, t)], host[l.rank(s + 1, d, t)]});
      }
    }
  }
  return out;
}

uint64_t JobFlowCount(const JobConfig& j, const CollectiveHosts& where) {
  const int n = j.ranks_count(where.hosts);
  const Layout l = LayoutOf(j, n);
  const std::vector<int> hosts = j.rank_hosts(where.hosts);
  const std::vector<int> unrolled = Unrolled(j);
  uint64_t per_iteration = 0;
  for (int layer : unrolled) {
    for (int k = 0; k < 3; ++k) {
      const JobPhase& p = j.layers[layer].phases[k];
      if (!p.op || l.GroupSize(p.group) < 2) continue;
      std::vector<int> group_hosts;
      for (int g : l.Group(p.group, 0)) group_hosts.push_back(hosts[g]);
      const CollectiveConfig c = ConfigFor(j, *p.op, p.size, group_hosts, where.gpus_per_server);
      const uint64_t one =
          FindCollectiveAlgorithm(c.algorithm)
              ->flows_per_channel(c, CeilDiv(c.size, c.channels), group_hosts, where) *
          static_cast<uint64_t>(c.channels) *
          static_cast<uint64_t>(std::max(1, c.qps_per_connection));
      // Every stage's groups run it: n / group_size groups over the job, each stage its share.
      const uint64_t groups =
          static_cast<uint64_t>(n / l.GroupSize(p.group)) / static_cast<uint64_t>(l.pp);
      const uint64_t times = k == 2 ? 1 : static_cast<uint64_t>(j.micro_batches);
      per_iteration += one * groups * times;
    }
  }
  // Pipeline transfers: each micro-batch forward and back across each stage boundary.
  per_iteration += uint64_t{2} * static_cast<uint64_t>(j.micro_batches) *
                   static_cast<uint64_t>(l.pp - 1) * static_cast<uint64_t>(l.tp * l.dp);
  return per_iteration * static_cast<uint64_t>(j.iterations);
}

namespace {

class JobExpander {
 public:
  JobExpander(const JobConfig& j, const CollectiveHosts& where, const std::string& name,
              std::vector<FlowSpec>& flows, FlowAfter& after, FlowTags& tags)
      : j_(j), where_(where), flows_(flows), after_(after) {
    const int n = j.ranks_count(where.hosts);
    l_ = LayoutOf(j, n);
    out_.hosts = j.rank_hosts(where.hosts);
    out_.stages = j.pp;
    unrolled_ = Unrolled(j);
    std::vector<int> seen(j.layers.size(), 0);  // occurrences of each layer so far
    for (size_t u = 0; u < unrolled_.size(); ++u) {
      const JobLayer& layer = j.layers[unrolled_[u]];
      const int k = seen[unrolled_[u]]++;
      out_.layer_names.push_back(layer.repeat * j.blocks > 1 ? fmt::format("{}.{}", layer.name, k)
                                                             : layer.name);
    }
    for (size_t g = 0; g < kJobGroupNames.size(); ++g) {
      group_tag_[g] = tags.Index(fmt::format("{}-{}", name, kJobGroupNames[g]));
    }
    pp_tag_ = tags.Index(fmt::format("{}-pp", name));
    cursor_.resize(n);
    dp_stream_.resize(n);
    dp_queue_.assign(n, FlowAfter::kNoQueue);
    wg_done_.assign(unrolled_.size(), std::vector<std::vector<uint32_t>>(n));
  }

  JobFlows Run() {
    out_.flow_begin = static_cast<uint32_t>(flows_.size());
    for (int it = 0; it < j_.iterations; ++it) Iteration(it);
    out_.flow_end = static_cast<uint32_t>(flows_.size());
    if (j_.step_done != StepDone::kDelivered) {
      // Receivers see the job's transfers complete when their senders have the last ACK.
      after_.receiver_sees_ack.resize(out_.flow_end, 0);
      std::fill(
          after_.receiver_sees_ack.begin() + out_.flow_begin, after_.receiver_sees_ack.end(),
          j_.step_done == StepDone::kAcked ? FlowAfter::kAckOnIdlePath : FlowAfter::kAckArrival);
    }
    return std::move(out_);
  }

 private:
  void Iteration(int it) {
    const int m = j_.micro_batches;
    // Pipeline transfers of this iteration, by (micro-batch, receiving rank).
    activations_.assign(m, std::vector<uint32_t>(l_.n, FlowAfter::kNone));
    gradients_.assign(m, std::vector<uint32_t>(l_.n, FlowAfter::kNone));
    std::vector<std::vector<std::pair<bool, int>>> order(l_.pp);
    for (int s = 0; s < l_.pp; ++s) order[s] = OneFOneB(l_.pp, s, m);
    std::vector<size_t> next(l_.pp, 0);
    // Each stage's passes in its order, one whenever what it receives from a neighbour exists:
    // every flow and task is made after what it waits for.
    for (bool progress = true; progress;) {
      progress = false;
      for (int s = 0; s < l_.pp; ++s) {
        while (next[s] < order[s].size()) {
          const auto [backward, mb] = order[s][next[s]];
          const int first = l_.rank(s, 0, 0);
          if (!backward && s > 0 && activations_[mb][first] == FlowAfter::kNone) break;
          if (backward && s + 1 < l_.pp && gradients_[mb][first] == FlowAfter::kNone) break;
          if (backward) {
            Backward(it, s, mb);
          } else {
            Forward(it, s, mb);
          }
          ++next[s];
          progress = true;
        }
      }
    }
    for (int s = 0; s < l_.pp; ++s) {
      if (next[s] != order[s].size()) throw InvariantError("job: the 1F1B schedule is stuck");
    }
    std::vector<std::vector<uint32_t>> end(l_.n);
    for (int g = 0; g < l_.n; ++g) {
      end[g] = cursor_[g];
      end[g].insert(end[g].end(), dp_stream_[g].begin(), dp_stream_[g].end());
      // Newest first, the queue orders the next iteration's: only this one's are waited for.
      if (j_.weight_grad_order == WeightGradOrder::kNewestFirst) dp_stream_[g].clear();
    }
    out_.iteration_end.push_back(std::move(end));
  }

  std::vector<int> StageRanks(int s) const {
    std::vector<int> out;
    for (int d = 0; d < l_.dp; ++d) {
      for (int t = 0; t < l_.tp; ++t) out.push_back(l_.rank(s, d, t));
    }
    return out;
  }

  // A task on rank g after its stream's cursor and `extra` (and compute_gap, but for its first);
  // the cursor moves to it.
  uint32_t Compute(int g, Time delay, JobTaskKind kind, int it, int mb, int layer,
                   const std::vector<uint32_t>& extra = {}) {
    if (!cursor_[g].empty()) delay += j_.compute_gap;  // not its first
    std::vector<uint32_t> row = cursor_[g];
    row.insert(row.end(), extra.begin(), extra.end());
    const uint32_t id = Task(g, row, delay, kind, it, mb, layer);
    cursor_[g] = {id};
    return id;
  }

  uint32_t Task(int g, const std::vector<uint32_t>& row, Time delay, JobTaskKind kind, int it,
                int mb, int layer, uint32_t queue = FlowAfter::kNoQueue,
                uint32_t releases = FlowAfter::kNoQueue) {
    const uint32_t id = after_.AddTask({.host = out_.hosts[g],
                                        .row = row.empty() ? FlowAfter::kNoRow : after_.AddRow(row),
                                        .delay = delay,
                                        .not_before = j_.start,
                                        .queue = queue,
                                        .releases = releases});
    out_.tasks.push_back({id, g, it, mb, layer, kind});
    return id;
  }

  // Runs phase `p` of `layer` for every group of stage s; gates[g]: the task that issues it on
  // rank g. Returns each rank's final flows (empty where the group is one rank).
  std::vector<std::vector<uint32_t>> Collective(int it, int s, int mb, int layer, JobPhaseKind kind,
                                                const JobPhase& p,
                                                const std::vector<uint32_t>& gates,
                                                const std::vector<uint32_t>* releases = nullptr) {
    std::vector<std::vector<uint32_t>> final(l_.n);
    if (!p.op || l_.GroupSize(p.group) < 2) return final;
    const CollectiveAlgorithm& algorithm = *FindCollectiveAlgorithm(AlgorithmFor(j_, *p.op));
    for (const std::vector<int>& group : l_.Groups(p.group, s)) {
      JobCollective record{.iteration = it,
                           .micro_batch = mb,
                           .stage = s,
                           .layer = layer,
                           .phase = kind,
                           .group = p.group,
                           .op = *p.op,
                           .size = p.size,
                           .group_size = l_.GroupSize(p.group),
                           .first_rank = group.front(),
                           .begin = static_cast<uint32_t>(flows_.size())};
      Communicator& comm = CommunicatorOf(p.group, group);
      comm.config.op = *p.op;
      comm.config.algorithm = std::string(algorithm.name);
      comm.config.size = p.size;
      std::vector<uint32_t> group_gates;
      for (int g : group) group_gates.push_back(gates[g]);
      comm.builder->GateEveryFlow(group_gates);
      // Each transfer's latency once it is ready, and SimAI's processing of some ring steps.
      const Time send = j_.send_latency;
      const Time processing = algorithm.name == "ring" ? j_.processing_latency : 0;
      const CollectiveOp op = *p.op;
      const int ranks = static_cast<int>(group.size());
      const int channels = comm.config.channels;
      comm.builder->DelaySteps([=](int step) {
        return send +
               (processing > 0 && ProcessedRingStep(op, ranks, channels, step) ? processing : 0);
      });
      comm.builder->Once(algorithm, CeilDiv(p.size, comm.config.channels));
      for (size_t k = 0; k < group.size(); ++k) final[group[k]] = comm.builder->final()[k];
      record.end = static_cast<uint32_t>(flows_.size());
      if (releases != nullptr) {  // done for the rank: its queue goes to the next
        for (int g : group) {
          // A rank with no transfer in it is done once its turn came.
          Task(g, final[g].empty() ? std::vector<uint32_t>{gates[g]} : final[g], 0,
               JobTaskKind::kDone, it, mb, layer, FlowAfter::kNoQueue, (*releases)[g]);
          out_.tasks.back().collective = static_cast<int>(out_.collectives.size());
        }
      }
      out_.collectives.push_back(record);
      if (const Time update = j_.layers[unrolled_[layer]].update; update > 0) {
        for (int g : group) {
          final[g] = {Task(g, final[g], update, JobTaskKind::kUpdate, it, mb, layer)};
          out_.tasks.back().collective = static_cast<int>(out_.collectives.size() - 1);
        }
      }
    }
    return final;
  }

  // A pipeline transfer from rank g to rank to after g's cursor; returns its flow id.
  uint32_t Send(int it, int mb, int g, int to, bool backward) {
    const auto id = static_cast<uint32_t>(flows_.size());
    FlowSpec f;
    f.src = out_.hosts[g];
    f.dst = out_.hosts[to];
    f.size = j_.pp_size;
    f.start = j_.start;
    f.priority = j_.priority;
    f.tag = pp_tag_;
    flows_.push_back(f);
    after_.Assign(id, cursor_[g].empty() ? FlowAfter::kNoRow : after_.AddRow(cursor_[g]), 0);
    out_.collectives.push_back(
        {.iteration = it,
         .micro_batch = mb,
         .stage = l_.stage(g),
         .layer = -1,
         .phase = backward ? JobPhaseKind::kInputGrad : JobPhaseKind::kForward,
         .pipeline = true,
         .size = j_.pp_size,
         .group_size = 2,
         .first_rank = g,
         .begin = id,
         .end = id + 1});
    return id;
  }

  void Forward(int it, int s, int mb) {
    const auto [first, last] = StageLayers(static_cast<int>(unrolled_.size()), l_.pp, s);
    const std::vector<int> ranks = StageRanks(s);
    for (int layer = first; layer < last; ++layer) {
      const JobPhase& p = j_.layers[unrolled_[layer]].phases[0];
      std::vector<uint32_t> gates(l_.n, FlowAfter::kNoRow);
      for (int g : ranks) {
        std::vector<uint32_t> extra;
        if (layer == first && s > 0) extra.push_back(activations_[mb][g]);
        if (mb == 0) {
          extra.insert(extra.end(), wg_done_[layer][g].begin(), wg_done_[layer][g].end());
          wg_done_[layer][g].clear();
        }
        gates[g] = Compute(g, p.compute, JobTaskKind::kForward, it, mb, layer, extra);
      }
      Blocking(Collective(it, s, mb, layer, JobPhaseKind::kForward, p, gates));
    }
    if (s + 1 < l_.pp) {
      for (int g : ranks) {
        const int to = g + l_.tp * l_.dp;
        activations_[mb][to] = Send(it, mb, g, to, false);
      }
    }
  }

  void Backward(int it, int s, int mb) {
    const auto [first, last] = StageLayers(static_cast<int>(unrolled_.size()), l_.pp, s);
    const std::vector<int> ranks = StageRanks(s);
    const bool last_micro_batch = mb + 1 == j_.micro_batches;
    for (int layer = last - 1; layer >= first; --layer) {
      const JobLayer& def = j_.layers[unrolled_[layer]];
      const JobPhase& ig = def.phases[1];
      const JobPhase& wg = def.phases[2];
      std::vector<uint32_t> gates(l_.n, FlowAfter::kNoRow);
      for (int g : ranks) {
        std::vector<uint32_t> extra;
        if (layer == last - 1 && s + 1 < l_.pp) extra.push_back(gradients_[mb][g]);
        gates[g] = Compute(g, ig.compute, JobTaskKind::kInputGrad, it, mb, layer, extra);
      }
      Blocking(Collective(it, s, mb, layer, JobPhaseKind::kInputGrad, ig, gates));
      for (int g : ranks) {
        gates[g] = Compute(g, wg.compute, JobTaskKind::kWeightGrad, it, mb, layer);
      }
      if (!last_micro_batch || !wg.op || l_.GroupSize(wg.group) < 2) continue;
      // Issued on the data-parallel stream: after its compute and the one issued before it, or
      // once the rank's queue is free, newest first.
      const bool newest_first = j_.weight_grad_order == WeightGradOrder::kNewestFirst;
      for (int g : ranks) {
        std::vector<uint32_t> row{gates[g]};
        if (newest_first) {
          if (dp_queue_[g] == FlowAfter::kNoQueue) dp_queue_[g] = after_.AddQueue(out_.hosts[g]);
        } else {
          row.insert(row.end(), dp_stream_[g].begin(), dp_stream_[g].end());
        }
        gates[g] = Task(g, row, 0, JobTaskKind::kIssue, it, mb, layer,
                        newest_first ? dp_queue_[g] : FlowAfter::kNoQueue);
      }
      std::vector<std::vector<uint32_t>> final =
          Collective(it, s, mb, layer, JobPhaseKind::kWeightGrad, wg, gates,
                     newest_first ? &dp_queue_ : nullptr);
      for (int g : ranks) {
        if (newest_first) {  // the iteration ends when all of them are done
          dp_stream_[g].insert(dp_stream_[g].end(), final[g].begin(), final[g].end());
        } else {
          dp_stream_[g] = final[g];
        }
        wg_done_[layer][g] = std::move(final[g]);
      }
    }
    if (s > 0) {
      for (int g : ranks) {
        const int to = g - l_.tp * l_.dp;
        gradients_[mb][to] = Send(it, mb, g, to, true);
      }
    }
  }

  // The next compute of each rank waits for its part of a blocking collective.
  void Blocking(std::vector<std::vector<uint32_t>> final) {
    for (int g = 0; g < l_.n; ++g) {
      if (!final[g].empty()) cursor_[g] = std::move(final[g]);
    }
  }

  // One NCCL communicator: a group's builder, whose connections persist across its operations.
  struct Communicator {
    CollectiveConfig config;
    std::vector<int> hosts;
    std::unique_ptr<CollectiveBuilder> builder;
  };
  Communicator& CommunicatorOf(JobGroup kind, const std::vector<int>& group) {
    const uint64_t key = static_cast<uint64_t>(kind) << 32 | static_cast<uint32_t>(group.front());
    auto [it, fresh] = communicators_.try_emplace(key);
    if (fresh) {
      Communicator& c = it->second;
      for (int g : group) c.hosts.push_back(out_.hosts[g]);
      c.config = ConfigFor(j_, CollectiveOp::kAllReduce, 1, c.hosts, where_.gpus_per_server);
      FlowSpec proto;
      proto.start = j_.start;
      proto.priority = j_.priority;
      proto.tag = group_tag_[static_cast<int>(kind)];
      c.builder = std::make_unique<CollectiveBuilder>(c.config, c.hosts, where_.gpus_per_server,
                                                      proto, flows_, after_);
    }
    return it->second;
  }

  const JobConfig& j_;
  CollectiveHosts where_;
  std::vector<FlowSpec>& flows_;
  FlowAfter& after_;
  Layout l_;
  JobFlows out_;
  std::vector<int> unrolled_;
  std::array<uint16_t, kJobGroupNames.size()> group_tag_{};
  uint16_t pp_tag_ = 0;
  // Per rank: what its next compute waits for, and the last weight-gradient collective it
  // issued (its final flows; newest first: all of this iteration's).
  std::vector<std::vector<uint32_t>> cursor_;
  std::vector<std::vector<uint32_t>> dp_stream_;
  // Per rank, weight_grad_order "newest_first": the queue its weight-gradient collectives wait
  // in (FlowAfter::kNoQueue until its first).
  std::vector<uint32_t> dp_queue_;
  // Per layer and rank: its last weight-gradient collective, which the next forward waits for.
  std::vector<std::vector<std::vector<uint32_t>>> wg_done_;
  std::vector<std::vector<uint32_t>> activations_;
  std::vector<std::vector<uint32_t>> gradients_;
  std::map<uint64_t, Communicator> communicators_;
};

}  // namespace

bool ProcessedRingStep(CollectiveOp op, int ranks, int channels, int step) {
  if (op != CollectiveOp::kAllReduce && op != CollectiveOp::kReduceScatter) return false;
  // The zero-latency steps: each of the counters' restarts.
  if (step % ranks == 0) return false;
  if (op == CollectiveOp::kReduceScatter) return true;
  // The toggle after the restarts so far, all channels together: each flips it once.
  const int restarts = step / ranks + 1;
  return (restarts * channels) % 2 == 1;
}

JobFlows ExpandJob(const JobConfig& j, const CollectiveHosts& where, const std::string& name,
                   std::vector<FlowSpec>& flows, FlowAfter& after, FlowTags& tags) {
  if (const CollectiveProblem p = CheckJob(j, where); !p.key.empty()) {
    throw InputError(fmt::format("{}.{}: {}", name, p.key, p.message));
  }
  return JobExpander(j, where, name, flows, after, tags).Run();
}

}  // namespace dcqcn
