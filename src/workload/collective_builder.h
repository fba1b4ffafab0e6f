// What a collective algorithm expands into: flows between ranks and the waits between them
// (net/flow_dependencies.h). An algorithm either runs steps, where each sender's flows of a step
// wait for what it received in its previous step, as NCCL's ring and its peers forward a chunk
// once it has come in, or adds flows with waits of its own (PXN's relays, a tree's children).
// Every wait is local to the waiting flow's source host.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "net/flow_dependencies.h"
#include "net/flow_spec.h"
#include "workload/collective_algorithm.h"

namespace dcqcn {

// One transfer of a step: from rank, to rank, bytes.
struct Transfer {
  int from;
  int to;
  Bytes bytes;
};
using Step = std::vector<Transfer>;

// Helpers the algorithms share.
inline Bytes CeilDiv(Bytes a, Bytes b) { return std::max<Bytes>(1, (a + b - 1) / b); }
inline bool PowerOfTwo(size_t n) { return n > 0 && (n & (n - 1)) == 0; }
// The ranks of each server (rank indices), servers in order of their first rank, ranks in the
// order given.
std::vector<std::vector<int>> ByServer(const std::vector<int>& hosts, int gpus_per_server);
// The steps of a ring over each group at once (member k sends to member k + 1): `steps` steps
// of `bytes`.
void RingSteps(const std::vector<std::vector<int>>& groups, int steps, Bytes bytes,
               std::vector<Step>& out);

class CollectiveBuilder {
 public:
  // A wait: the row of flows waited for (FlowAfter::kNoRow: none) and the delay after them.
  using Wait = std::pair<uint32_t, Time>;

  CollectiveBuilder(const CollectiveConfig& c, const std::vector<int>& hosts, int gpus_per_server,
                    FlowSpec proto, std::vector<FlowSpec>& flows, FlowAfter& after);
  // Every flow a rank sends also waits for its gate (gates[rank]: a flow or task its host
  // observes; FlowAfter::kNoRow: none): a training job's rank cannot forward a chunk before its
  // own compute issued the collective, however early its peer's chunk came in.
  void GateEveryFlow(std::vector<uint32_t> gates);
  // Each flow of a channel's step s (its steps counted from 0 by Commit) waits `extra(s)` more
  // after what it waits for (a training job's latency per transfer, and SimAI's processing of
  // some ring steps: workload/job.cc); empty: none.
  void DelaySteps(std::function<Time(int step)> extra) { step_delay_ = std::move(extra); }
  // One run of `algorithm` on its own (a training job's collective, one of many on the same
  // connections): final() is then its ranks' last steps.
  void Once(const CollectiveAlgorithm& algorithm, Bytes data);
  // What each rank's last step was, over the channels, since the last iteration that had `more`:
  // the collective is done for rank r once final()[r] are (received, or sent and acknowledged).
  const std::vector<std::vector<uint32_t>>& final() const { return final_; }

  // Appends one iteration's flows, each channel carrying `data` bytes per rank; `more`: another
  // iteration follows, waiting for this one.
  void Iteration(const CollectiveAlgorithm& algorithm, Bytes data, bool more);

  // For the algorithms. The host of each rank, and the GPUs per server (0: not a rail fabric).
  const std::vector<int>& hosts() const { return hosts_; }
  int gpus_per_server() const { return gpus_per_server_; }
  // The channel being expanded (0 to channels - 1).
  int channel() const { return channel_; }
  // A step: each sender's flows wait for what it received in its last step.
  void Run(const Step& step);
  // A step as Run, but with NCCL's PXN on a rail fabric: a transfer to another server's GPU on
  // another rail first crosses NVLink to the sender's server's rank on the destination's rail,
  // whose NIC sends it once it has arrived; without such a rank, it goes straight.
  void RunPxn(const Step& step);
  // What rank r's next flow waits for as a step would: what it received in its last step, or,
  // before it received anything, the iteration's gate.
  Wait LastReceived(int r);
  // Waiting for `ids` (delivered, or acknowledged where the waiting flow sent them).
  Wait After(const std::vector<uint32_t>& ids) {
    if (queue_pairs_.empty()) return {after_.AddRow(ids), 0};
    return {after_.AddRow(WithQueuePairs(ids)), 0};
  }
  // A transfer from host to host; with persistent connections (CollectiveConfig::connection),
  // the next transfer on the queue pairs of this channel (and connection set) between the two
  // hosts. Its id stands for all of its queue pairs' flows (qps_per_connection), which After
  // and Commit wait for and record.
  uint32_t Add(int src_host, int dst_host, Bytes bytes, Wait wait);
  // The flows added from now on travel on connection set `set` (0 to 255) of the channel: an
  // algorithm whose parts NCCL runs on channels of their own (the double binary tree's two
  // trees) keeps their transfers between two ranks apart. Each channel starts at set 0.
  void UseConnectionSet(int set) { connection_set_ = set; }
  // Ends a step of flows added by hand: each rank's received and sent flows become what its
  // next step (and the next iteration's gate) waits for; empty lists leave a rank's as they were.
  void Commit(std::vector<std::vector<uint32_t>>& received,
              std::vector<std::vector<uint32_t>>& sent);

 private:
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
  int channel_ = 0;                           // the channel being expanded
  int step_ = 0;                              // the channel's steps committed so far
  std::function<Time(int)> step_delay_;
  int connection_set_ = 0;
  // The last transfer on each connection (channel, set, source host, destination host), and
  // with several queue pairs, on each queue pair (its index in the key's top bits).
  std::unordered_map<uint64_t, uint32_t> last_on_connection_;
  // Transfers split over several queue pairs: the first flow's id -> the number of flows (the
  // others follow it). Empty with one queue pair per connection.
  std::unordered_map<uint32_t, uint32_t> queue_pairs_;
  // `ids` with every transfer's further queue pairs' flows, each flow once (queue_pairs_ not
  // empty).
  std::vector<uint32_t> WithQueuePairs(const std::vector<uint32_t>& ids) const;
  // GateEveryFlow: each rank's gate, the rank of each host, and the rows made with a gate added
  // ((row, rank) -> row).
  std::vector<uint32_t> gates_;
  std::unordered_map<int, int> rank_of_host_;
  std::unordered_map<uint64_t, uint32_t> gated_rows_;
};

}  // namespace dcqcn
