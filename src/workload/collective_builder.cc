#include "workload/collective_builder.h"

#include <algorithm>
#include <map>
#include <optional>

namespace dcqcn {

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

CollectiveBuilder::CollectiveBuilder(const CollectiveConfig& c, const std::vector<int>& hosts,
                                     int gpus_per_server, FlowSpec proto,
                                     std::vector<FlowSpec>& flows, FlowAfter& after)
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

void CollectiveBuilder::Iteration(const CollectiveAlgorithm& algorithm, Bytes data, bool more) {
  for (int ch = 0; ch < c_.channels; ++ch) {
    channel_ = ch;
    step_ = 0;
    connection_set_ = 0;
    for (auto& v : in_) v.clear();
    for (auto& v : out_) v.clear();
    algorithm.expand(c_, data, *this);
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

CollectiveBuilder::Wait CollectiveBuilder::LastReceived(int r) {
  if (in_[r].empty()) return {gate_[r], gate_[r] == FlowAfter::kNoRow ? 0 : gate_delay_};
  return {after_.AddRow(in_[r]), 0};
}

void CollectiveBuilder::Once(const CollectiveAlgorithm& algorithm, Bytes data) {
  for (auto& v : final_) v.clear();
  Iteration(algorithm, data, false);
}

void CollectiveBuilder::GateEveryFlow(std::vector<uint32_t> gates) {
  gates_ = std::move(gates);
  gated_rows_.clear();
  for (size_t r = 0; r < hosts_.size(); ++r) rank_of_host_[hosts_[r]] = static_cast<int>(r);
}

uint32_t CollectiveBuilder::Add(int src_host, int dst_host, Bytes bytes, Wait wait) {
  const auto id = static_cast<uint32_t>(flows_.size());
  if (step_delay_) wait.second += step_delay_(step_);
  if (!gates_.empty()) {
    const int rank = rank_of_host_.at(src_host);
    const uint32_t gate = gates_[rank];
    if (gate != FlowAfter::kNoRow) {
      const uint64_t key = static_cast<uint64_t>(wait.first) << 32 | static_cast<uint32_t>(rank);
      const auto [it, fresh] = gated_rows_.try_emplace(key, 0);
      if (fresh) {
        std::vector<uint32_t> row{gate};
        if (wait.first != FlowAfter::kNoRow) {
          const auto old = after_.row(wait.first);
          row.insert(row.end(), old.begin(), old.end());
        }
        it->second = after_.AddRow(row);
      }
      wait.first = it->second;
    }
  }
  // Split evenly over the queue pairs (the first ones take a byte more), never an empty one.
  const Bytes qps = std::min<Bytes>(std::max(1, c_.qps_per_connection), bytes);
  for (Bytes q = 0; q < qps; ++q) {
    const auto flow = static_cast<uint32_t>(flows_.size());
    FlowSpec f = proto_;
    f.src = src_host;
    f.dst = dst_host;
    f.size = bytes / qps + (q < bytes % qps ? 1 : 0);
    flows_.push_back(f);
    after_.Assign(flow, wait.first, wait.second);
    if (c_.connection == CollectiveConnection::kPersistent) {
      // Hosts below 2^24, channels (at most 64), sets below 2^8 and queue pairs (at most 16)
      // make the key unique: the queue pair in the top 4 bits, the channel's 6 below.
      const uint64_t key = static_cast<uint64_t>(q) << 60 | static_cast<uint64_t>(channel_) << 54 |
                           static_cast<uint64_t>(connection_set_) << 48 |
                           static_cast<uint64_t>(src_host) << 24 | static_cast<uint64_t>(dst_host);
      const auto [it, fresh] = last_on_connection_.try_emplace(key, flow);
      if (!fresh) {
        after_.SetPrevious(flow, it->second);
        it->second = flow;
      }
    }
  }
  if (qps > 1) queue_pairs_[id] = static_cast<uint32_t>(qps);
  return id;
}

std::vector<uint32_t> CollectiveBuilder::WithQueuePairs(const std::vector<uint32_t>& ids) const {
  std::vector<uint32_t> all;
  for (const uint32_t id : ids) {
    const auto it = queue_pairs_.find(id);
    const uint32_t n = it == queue_pairs_.end() ? 1 : it->second;
    for (uint32_t k = 0; k < n; ++k) all.push_back(id + k);
  }
  // A list that already held a transfer's further flows holds them once.
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

void CollectiveBuilder::Run(const Step& step) {
  // One row per sender and step: its flows of the step wait for the same arrivals.
  std::vector<std::optional<Wait>> waits(hosts_.size());
  std::vector<std::vector<uint32_t>> received(hosts_.size());
  std::vector<std::vector<uint32_t>> sent(hosts_.size());
  for (const Transfer& t : step) {
    if (!waits[t.from]) waits[t.from] = LastReceived(t.from);
    const uint32_t id = Add(hosts_[t.from], hosts_[t.to], t.bytes, *waits[t.from]);
    received[t.to].push_back(id);
    sent[t.from].push_back(id);
  }
  Commit(received, sent);
}

void CollectiveBuilder::RunPxn(const Step& step) {
  const int g = gpus_per_server_;
  std::map<int, int> rank_of;  // host -> rank
  for (size_t r = 0; r < hosts_.size(); ++r) rank_of[hosts_[r]] = static_cast<int>(r);
  std::vector<std::optional<Wait>> waits(hosts_.size());
  std::vector<std::vector<uint32_t>> received(hosts_.size());
  std::vector<std::vector<uint32_t>> sent(hosts_.size());
  for (const Transfer& t : step) {
    if (!waits[t.from]) waits[t.from] = LastReceived(t.from);
    const int src = hosts_[t.from];
    const int dst = hosts_[t.to];
    const auto relay = src / g == dst / g || src % g == dst % g
                           ? rank_of.end()
                           : rank_of.find((src / g) * g + dst % g);
    if (relay == rank_of.end()) {
      const uint32_t id = Add(src, dst, t.bytes, *waits[t.from]);
      received[t.to].push_back(id);
      sent[t.from].push_back(id);
      continue;
    }
    const uint32_t hop = Add(src, relay->first, t.bytes, *waits[t.from]);
    sent[t.from].push_back(hop);
    const uint32_t id = Add(relay->first, dst, t.bytes, After({hop}));
    received[t.to].push_back(id);
    sent[relay->second].push_back(id);
  }
  Commit(received, sent);
}

void CollectiveBuilder::Commit(std::vector<std::vector<uint32_t>>& received,
                               std::vector<std::vector<uint32_t>>& sent) {
  // One queue pair per connection: the lists as they are, moved.
  auto take = [&](std::vector<uint32_t>& ids) {
    return queue_pairs_.empty() ? std::move(ids) : WithQueuePairs(ids);
  };
  for (size_t r = 0; r < hosts_.size(); ++r) {
    if (!received[r].empty()) in_[r] = take(received[r]);
    if (!sent[r].empty()) out_[r] = take(sent[r]);
  }
  ++step_;
}

}  // namespace dcqcn
