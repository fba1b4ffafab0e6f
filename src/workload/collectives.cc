// Collective algorithms expanded into steps of flows (the scheme is in collectives.h).
#include "workload/collectives.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "core/error.h"

namespace dcqcn {
namespace {

bool PowerOfTwo(size_t n) { return n > 0 && (n & (n - 1)) == 0; }

Bytes CeilDiv(Bytes a, Bytes b) { return std::max<Bytes>(1, (a + b - 1) / b); }

// The ranks of each server (rank indices), servers in order of their first rank, ranks in the
// order given.
std::vector<std::vector<int>> ByServer(const std::vector<int>& hosts, int gpus_per_server) {
  std::vector<std::vector<int>> groups;
  std::map<int, size_t> index;  // server -> its group
  for (size_t r = 0; r < hosts.size(); ++r) {
    const int server = hosts[r] / gpus_per_server;
    const auto [it, fresh] = index.emplace(server, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(static_cast<int>(r));
  }
  return groups;
}

// One transfer of a step: from rank, to rank, bytes.
struct Transfer {
  int from;
  int to;
  Bytes bytes;
};
using Step = std::vector<Transfer>;

// The steps of a ring over each group at once (member k sends to member k + 1): `steps` steps
// of `bytes`.
void RingSteps(const std::vector<std::vector<int>>& groups, int steps, Bytes bytes,
               std::vector<Step>& out) {
  for (int s = 0; s < steps; ++s) {
    Step step;
    for (const auto& g : groups) {
      const size_t n = g.size();
      if (n < 2) continue;
      for (size_t k = 0; k < n; ++k) step.push_back({g[k], g[(k + 1) % n], bytes});
    }
    if (!step.empty()) out.push_back(std::move(step));
  }
}

// Every rank's `bytes` to every other rank, in one step.
Step DirectStep(int n, Bytes bytes) {
  Step step;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i != j) step.push_back({i, j, bytes});
    }
  }
  return step;
}

// The steps of one channel carrying `data` bytes per rank (pxn is handled by the expander).
std::vector<Step> ChannelSteps(const CollectiveConfig& c, const std::vector<int>& hosts,
                               int gpus_per_server, Bytes data) {
  const int n = static_cast<int>(hosts.size());
  std::vector<Step> steps;
  const bool reduce = c.op != CollectiveOp::kAllGather;  // a reduce-scatter half
  const bool gather = c.op != CollectiveOp::kReduceScatter;
  switch (c.algorithm) {
    case CollectiveAlgorithm::kRing: {
      std::vector<int> all(n);
      for (int i = 0; i < n; ++i) all[i] = i;
      const int halves = c.op == CollectiveOp::kAllReduce ? 2 : 1;
      RingSteps({all}, halves * (n - 1), CeilDiv(data, n), steps);
      break;
    }
    case CollectiveAlgorithm::kHalvingDoubling: {
      int log = 0;
      while ((1 << log) < n) ++log;
      if (reduce) {
        for (int k = 0; k < log; ++k) {
          Step step;
          for (int i = 0; i < n; ++i)
            step.push_back({i, i ^ (n >> (k + 1)), CeilDiv(data, 2 << k)});
          steps.push_back(std::move(step));
        }
      }
      if (gather) {
        for (int k = 0; k < log; ++k) {
          Step step;
          for (int i = 0; i < n; ++i) {
            step.push_back({i, i ^ (1 << k), CeilDiv(data * (Bytes{1} << k), n)});
          }
          steps.push_back(std::move(step));
        }
      }
      break;
    }
    case CollectiveAlgorithm::kDirect:
      steps.push_back(DirectStep(n, CeilDiv(data, n)));
      break;
    case CollectiveAlgorithm::kHierarchical: {
      const std::vector<std::vector<int>> servers = ByServer(hosts, gpus_per_server);
      const int g = static_cast<int>(servers[0].size());
      const int ns = static_cast<int>(servers.size());
      // The rails: local position p of every server.
      std::vector<std::vector<int>> rails(g);
      for (const auto& s : servers) {
        for (int p = 0; p < g; ++p) rails[p].push_back(s[p]);
      }
      const Bytes per_gpu = CeilDiv(data, g);  // what one rail carries between servers
      if (c.op == CollectiveOp::kAllGather) {
        RingSteps(rails, ns - 1, CeilDiv(per_gpu, ns), steps);
        RingSteps(servers, g - 1, per_gpu, steps);
      } else {
        RingSteps(servers, g - 1, per_gpu, steps);
        const int halves = c.op == CollectiveOp::kAllReduce ? 2 : 1;
        RingSteps(rails, halves * (ns - 1), CeilDiv(per_gpu, ns), steps);
        if (c.op == CollectiveOp::kAllReduce) RingSteps(servers, g - 1, per_gpu, steps);
      }
      break;
    }
  }
  return steps;
}

// Builds the flows step by step, tracking what each rank's next step waits for.
class Expander {
 public:
  Expander(const CollectiveConfig& c, const std::vector<int>& hosts, int gpus_per_server,
           FlowSpec proto, std::vector<FlowSpec>& flows, FlowAfter& after)
      : c_(c),
        hosts_(hosts),
        gpus_per_server_(gpus_per_server),
        proto_(proto),
        flows_(flows),
        after_(after),
        gate_(hosts.size(), FlowAfter::kNoRow),
        in_(hosts.size()),
        out_(hosts.size()),
        final_(hosts.size()) {}

  // Appends one iteration's flows, each channel carrying `data` bytes per rank; `more`: another
  // iteration follows, waiting for this one.
  void Iteration(Bytes data, bool more) {
    for (int ch = 0; ch < c_.channels; ++ch) {
      for (auto& v : in_) v.clear();
      for (auto& v : out_) v.clear();
      if (c_.pxn) {
        PxnStep(CeilDiv(data, static_cast<Bytes>(hosts_.size())));
      } else {
        for (const Step& step : ChannelSteps(c_, hosts_, gpus_per_server_, data)) Run(step);
      }
      for (size_t r = 0; r < hosts_.size(); ++r) {
        final_[r].insert(final_[r].end(), in_[r].begin(), in_[r].end());
        final_[r].insert(final_[r].end(), out_[r].begin(), out_[r].end());
      }
    }
    // The next iteration's gate: everything each rank received or sent last.
    for (size_t r = 0; r < hosts_.size() && more; ++r) {
      gate_[r] = final_[r].empty() ? FlowAfter::kNoRow : after_.AddRow(final_[r]);
      final_[r].clear();
    }
    gate_delay_ = c_.gap;
  }

 private:
  // The row rank r's next flow waits for, and its delay.
  std::pair<uint32_t, Time> Wait(int r) {
    if (in_[r].empty()) return {gate_[r], gate_[r] == FlowAfter::kNoRow ? 0 : gate_delay_};
    return {after_.AddRow(in_[r]), 0};
  }

  uint32_t Add(int src_host, int dst_host, Bytes bytes, std::pair<uint32_t, Time> wait) {
    const auto id = static_cast<uint32_t>(flows_.size());
    FlowSpec f = proto_;
    f.src = src_host;
    f.dst = dst_host;
    f.size = bytes;
    flows_.push_back(f);
    after_.Assign(id, wait.first, wait.second);
    return id;
  }

  void Run(const Step& step) {
    // One row per sender and step: its flows of the step wait for the same arrivals.
    std::vector<std::optional<std::pair<uint32_t, Time>>> waits(hosts_.size());
    std::vector<std::vector<uint32_t>> received(hosts_.size());
    std::vector<std::vector<uint32_t>> sent(hosts_.size());
    for (const Transfer& t : step) {
      if (!waits[t.from]) waits[t.from] = Wait(t.from);
      const uint32_t id = Add(hosts_[t.from], hosts_[t.to], t.bytes, *waits[t.from]);
      received[t.to].push_back(id);
      sent[t.from].push_back(id);
    }
    Commit(received, sent);
  }

  void Commit(std::vector<std::vector<uint32_t>>& received,
              std::vector<std::vector<uint32_t>>& sent) {
    for (size_t r = 0; r < hosts_.size(); ++r) {
      if (!received[r].empty()) in_[r] = std::move(received[r]);
      if (!sent[r].empty()) out_[r] = std::move(sent[r]);
    }
  }

  // Alltoall with PXN: to another server's GPU on another rail via the sender's GPU of that rail.
  void PxnStep(Bytes bytes) {
    const int g = gpus_per_server_;
    const int n = static_cast<int>(hosts_.size());
    std::map<int, int> rank_of;  // host -> rank
    for (int r = 0; r < n; ++r) rank_of[hosts_[r]] = r;
    std::vector<std::vector<uint32_t>> received(n);
    std::vector<std::vector<uint32_t>> sent(n);
    std::vector<std::pair<uint32_t, Time>> waits(n);
    for (int i = 0; i < n; ++i) waits[i] = Wait(i);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        if (i == j) continue;
        const int src = hosts_[i];
        const int dst = hosts_[j];
        if (src / g == dst / g || src % g == dst % g) {
          const uint32_t id = Add(src, dst, bytes, waits[i]);
          received[j].push_back(id);
          sent[i].push_back(id);
          continue;
        }
        const int relay = (src / g) * g + dst % g;
        const uint32_t hop = Add(src, relay, bytes, waits[i]);
        sent[i].push_back(hop);
        const uint32_t row = after_.AddRow(std::vector<uint32_t>{hop});
        const uint32_t id = Add(relay, dst, bytes, {row, 0});
        received[j].push_back(id);
        if (const auto it = rank_of.find(relay); it != rank_of.end()) {
          sent[it->second].push_back(id);
        }
      }
    }
    Commit(received, sent);
  }

  const CollectiveConfig& c_;
  const std::vector<int>& hosts_;
  int gpus_per_server_;
  FlowSpec proto_;
  std::vector<FlowSpec>& flows_;
  FlowAfter& after_;
  std::vector<uint32_t> gate_;  // per rank: the row its iteration's first flows wait for
  Time gate_delay_ = 0;
  std::vector<std::vector<uint32_t>> in_;     // per rank: what it received in its last step
  std::vector<std::vector<uint32_t>> out_;    // per rank: what it sent in its last step
  std::vector<std::vector<uint32_t>> final_;  // per rank: its last flows, over the channels
};

std::string Join(const std::vector<int>& v) { return fmt::format("{}", fmt::join(v, ", ")); }

}  // namespace

std::vector<int> RankHosts(const CollectiveConfig& c, const CollectiveHosts& where) {
  if (!c.all_ranks) return c.ranks;
  std::vector<int> all(where.hosts);
  for (int h = 0; h < where.hosts; ++h) all[h] = h;
  return all;
}

CollectiveProblem CheckCollective(const CollectiveConfig& c, const CollectiveHosts& where) {
  if (!Implements(c.algorithm, c.op)) {
    std::vector<std::string> fit;
    for (size_t a = 0; a < kCollectiveAlgorithmNames.size(); ++a) {
      if (Implements(static_cast<CollectiveAlgorithm>(a), c.op)) {
        fit.push_back(fmt::format("\"{}\"", kCollectiveAlgorithmNames[a]));
      }
    }
    return {"algorithm", fmt::format("\"{}\" does not implement {}; {} does", Name(c.algorithm),
                                     Name(c.op), fmt::join(fit, " or "))};
  }
  const std::vector<int> hosts = RankHosts(c, where);
  if (hosts.size() < 2) {
    return {"ranks", fmt::format("a collective needs at least 2 ranks, got {}", hosts.size())};
  }
  std::map<int, size_t> seen;
  for (size_t r = 0; r < hosts.size(); ++r) {
    if (hosts[r] < 0 || hosts[r] >= where.hosts) {
      return {"ranks", fmt::format("ranks[{}] = {} is not a host index (0 to {})", r, hosts[r],
                                   where.hosts - 1)};
    }
    const auto [it, fresh] = seen.emplace(hosts[r], r);
    if (!fresh) {
      return {"ranks", fmt::format("host {} is listed twice (ranks[{}] and ranks[{}])", hosts[r],
                                   it->second, r)};
    }
  }
  const bool rail = where.gpus_per_server > 0;
  if (c.algorithm == CollectiveAlgorithm::kHalvingDoubling && !PowerOfTwo(hosts.size())) {
    return {"ranks", fmt::format("halving_doubling needs a power-of-two number of ranks, got {}",
                                 hosts.size())};
  }
  if (c.algorithm == CollectiveAlgorithm::kHierarchical) {
    if (!rail) {
      return {"algorithm",
              "\"hierarchical\" needs servers of several GPUs: topology.type = \"rail\""};
    }
    const auto servers = ByServer(hosts, where.gpus_per_server);
    // Rail-aligned: every server's ranks are the same GPUs, in the same order.
    auto gpus = [&](const std::vector<int>& s) {
      std::vector<int> g;
      for (int r : s) g.push_back(hosts[r] % where.gpus_per_server);
      return g;
    };
    const std::vector<int> first = gpus(servers[0]);
    for (const auto& s : servers) {
      if (gpus(s) != first) {
        return {"ranks",
                fmt::format("\"hierarchical\" needs the same GPUs of every server in the same "
                            "order (one ring per rail): server {} has GPUs [{}], server {} has "
                            "[{}]",
                            hosts[servers[0][0]] / where.gpus_per_server, Join(first),
                            hosts[s[0]] / where.gpus_per_server, Join(gpus(s)))};
      }
    }
  }
  if (c.pxn && (c.op != CollectiveOp::kAllToAll || !rail)) {
    return {"pxn", "only for op = \"alltoall\" on topology.type = \"rail\""};
  }
  return {};
}

uint64_t CollectiveFlowCount(const CollectiveConfig& c, const CollectiveHosts& where) {
  // Counted, not built: an all-to-all of every host of a large fabric is billions of flows.
  const uint64_t n = c.all_ranks ? static_cast<uint64_t>(where.hosts) : c.ranks.size();
  const uint64_t halves = c.op == CollectiveOp::kAllReduce ? 2 : 1;
  uint64_t per_channel = 0;
  if (c.pxn) {
    per_channel = 2 * n * (n - 1);  // at most: every transfer relayed
  } else {
    switch (c.algorithm) {
      case CollectiveAlgorithm::kRing:
        per_channel = halves * (n - 1) * n;
        break;
      case CollectiveAlgorithm::kHalvingDoubling: {
        uint64_t log = 0;
        while ((uint64_t{1} << log) < n) ++log;
        per_channel = halves * log * n;
        break;
      }
      case CollectiveAlgorithm::kDirect:
        per_channel = n * (n - 1);
        break;
      case CollectiveAlgorithm::kHierarchical: {
        // g GPUs on each of n / g servers: 2 (allreduce) or 1 intra-server phases of g - 1
        // steps, the rail rings' steps, n flows a step.
        const uint64_t g = ByServer(RankHosts(c, where), where.gpus_per_server)[0].size();
        const uint64_t servers = n / g;
        const uint64_t intra = c.op == CollectiveOp::kAllReduce ? 2 : 1;
        per_channel = (intra * (g - 1) + halves * (servers - 1)) * n;
        break;
      }
    }
  }
  return per_channel * static_cast<uint64_t>(c.channels) * static_cast<uint64_t>(c.iterations);
}

CollectiveFlows ExpandCollective(const CollectiveConfig& c, const CollectiveHosts& where,
                                 const std::string& name, std::vector<FlowSpec>& flows,
                                 FlowAfter& after, FlowTags& tags) {
  if (const CollectiveProblem p = CheckCollective(c, where); !p.key.empty()) {
    throw InputError(fmt::format("{}.{}: {}", name, p.key, p.message));
  }
  if (c.size <= 0 || c.channels < 1 || c.iterations < 1) {
    throw InputError(fmt::format("{}: size, channels and iterations must be positive", name));
  }
  const std::vector<int> hosts = RankHosts(c, where);
  FlowSpec proto;
  proto.start = c.start;
  proto.priority = c.priority;
  proto.tag = tags.Index(c.tag.empty() ? name : c.tag);
  CollectiveFlows out;
  Expander expander(c, hosts, where.gpus_per_server, proto, flows, after);
  const Bytes data = CeilDiv(c.size, c.channels);
  for (int i = 0; i < c.iterations; ++i) {
    out.iteration_begin.push_back(static_cast<uint32_t>(flows.size()));
    expander.Iteration(data, i + 1 < c.iterations);
  }
  out.iteration_begin.push_back(static_cast<uint32_t>(flows.size()));
  return out;
}

}  // namespace dcqcn
