// Flow dependencies: the rows of prerequisites and the tracker that starts waiting flows.
#include "net/flow_dependencies.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/memory.h"

namespace dcqcn {

uint32_t FlowAfter::AddRow(std::span<const uint32_t> after) {
  if (row_offsets.empty()) row_offsets.push_back(0);
  prerequisites.insert(prerequisites.end(), after.begin(), after.end());
  row_offsets.push_back(static_cast<uint32_t>(prerequisites.size()));
  return static_cast<uint32_t>(row_offsets.size() - 2);
}

void FlowAfter::Assign(uint32_t id, uint32_t row, Time delay) {
  if (row != kNoRow) {
    if (row_of.size() <= id) row_of.resize(id + 1, kNoRow);
    row_of[id] = row;
  } else if (id < row_of.size()) {
    row_of[id] = kNoRow;
  }
  if (delay != 0) {
    if (delays.size() <= id) delays.resize(id + 1, 0);
    delays[id] = delay;
  } else if (id < delays.size()) {
    delays[id] = 0;
  }
}

void FlowAfter::Add(std::span<const uint32_t> after, Time delay) {
  const auto id = static_cast<uint32_t>(row_of.size());
  row_of.push_back(kNoRow);
  Assign(id, after.empty() ? kNoRow : AddRow(after), delay);
}

void FlowAfter::Resize(size_t num_flows) { row_of.resize(num_flows, kNoRow); }

void FlowAfter::Reserve(size_t num_flows, bool connections) {
  row_of.reserve(num_flows);
  row_offsets.reserve(num_flows + 1);
  prerequisites.reserve(num_flows);
  if (connections) previous.reserve(num_flows);
}

void FlowAfter::ShrinkToFit() {
  ShrinkSlack(row_of);
  ShrinkSlack(row_offsets);
  ShrinkSlack(prerequisites);
  ShrinkSlack(delays);
  ShrinkSlack(previous);
  ShrinkSlack(receiver_sees_ack);
}

void FlowAfter::SetPrevious(uint32_t id, uint32_t before) {
  if (previous.size() <= id) previous.resize(id + 1, kNone);
  previous[id] = before;
}

FlowDependencies::FlowDependencies(Simulator* sim, std::span<const FlowSpec> specs,
                                   const FlowAfter& after, std::function<void(uint32_t)> start,
                                   std::vector<Simulator*> host_sims,
                                   std::function<Time(uint32_t)> ack_return)
    : sim_(sim),
      host_sims_(std::move(host_sims)),
      specs_(specs),
      after_(after),
      start_(std::move(start)) {
  sim->Enroll(*this);
  const size_t n = specs.size();
  const size_t tasks = after.tasks.size();
  const size_t rows = after.rows();
  if (after.row_of.size() > n) {
    throw InvariantError(fmt::format("flow dependencies: rows for {} flows, expected at most {}",
                                     after.row_of.size(), n));
  }
  unfinished_.assign(rows, 0);
  row_host_.assign(rows, -1);
  starts_.assign(n, kTimeNever);
  task_done_.assign(tasks, kTimeNever);
  // The flows and then the tasks that wait, with their row and host.
  std::vector<std::pair<uint32_t, uint32_t>> waiting;  // (id, row)
  for (uint32_t id = 0; id < after.row_of.size(); ++id) {
    if (after.row_of[id] != FlowAfter::kNoRow) waiting.emplace_back(id, after.row_of[id]);
  }
  for (uint32_t k = 0; k < tasks; ++k) {
    const FlowAfter::Task& t = after.tasks[k];
    if (t.host < 0 || (!host_sims_.empty() && static_cast<size_t>(t.host) >= host_sims_.size())) {
      throw InvariantError(fmt::format("task {} runs on host {}", k, t.host));
    }
    if (t.row != FlowAfter::kNoRow) waiting.emplace_back(FlowAfter::kTask | k, t.row);
    for (const uint32_t q : {t.queue, t.releases}) {
      if (q == FlowAfter::kNoQueue) continue;
      if (q >= after.queue_hosts.size() || after.queue_hosts[q] != t.host ||
          t.queue == t.releases) {
        throw InvariantError(fmt::format("task {} on host {} cannot use queue {}", k, t.host, q));
      }
    }
  }
  queue_held_.assign(after.queue_hosts.size(), 0);
  queue_waiting_.resize(after.queue_hosts.size());
  auto host_of = [&](uint32_t id) {
    return FlowAfter::IsTask(id) ? after.task(id).host : specs[id].src;
  };
  row_flow_offsets_.assign(rows + 1, 0);
  for (const auto& [id, r] : waiting) {
    if (r >= rows) throw InvariantError(fmt::format("flow {} waits for row {} of {}", id, r, rows));
    if (row_host_[r] != -1 && row_host_[r] != host_of(id)) {
      throw InvariantError(
          fmt::format("flows of row {} are sent by h{} and h{}", r, row_host_[r], host_of(id)));
    }
    row_host_[r] = host_of(id);
    ++row_flow_offsets_[r + 1];
  }
  for (size_t r = 0; r < rows; ++r) row_flow_offsets_[r + 1] += row_flow_offsets_[r];
  row_flows_.resize(row_flow_offsets_[rows]);
  std::vector<uint32_t> fill(row_flow_offsets_.begin(), row_flow_offsets_.end() - 1);
  for (const auto& [id, r] : waiting) row_flows_[fill[r]++] = id;
  const size_t nodes = n + tasks;
  dependent_offsets_.assign(nodes + 1, 0);
  for (uint32_t r = 0; r < rows; ++r) {
    const int host = row_host_[r];
    if (host == -1) continue;  // no flow waits for it
    for (const uint32_t p : after.row(r)) {
      const bool task = FlowAfter::IsTask(p);
      const bool known = task ? (p & ~FlowAfter::kTask) < tasks : p < n;
      if (!known ||
          (task ? after.task(p).host != host : specs[p].src != host && specs[p].dst != host)) {
        throw InvariantError(
            fmt::format("flow {} waits for {} {}, which its source host neither {}",
                        row_flows_[row_flow_offsets_[r]], task ? "task" : "flow",
                        p & ~FlowAfter::kTask, task ? "runs" : "sends nor receives"));
      }
      ++unfinished_[r];
      ++dependent_offsets_[Index(p) + 1];
    }
  }
  for (size_t i = 0; i < nodes; ++i) dependent_offsets_[i + 1] += dependent_offsets_[i];
  dependents_.resize(dependent_offsets_[nodes]);
  fill.assign(dependent_offsets_.begin(), dependent_offsets_.end() - 1);
  for (uint32_t r = 0; r < rows; ++r) {
    if (row_host_[r] == -1) continue;
    for (const uint32_t p : after.row(r)) dependents_[fill[Index(p)]++] = r;
  }
  for (uint32_t id = 0; id < after.receiver_sees_ack.size(); ++id) {
    if (after.sees_ack(id) != FlowAfter::kAckOnIdlePath) continue;
    if (receiver_lag_.empty()) {  // the first such flow
      if (!ack_return) {
        throw InvariantError("flow dependencies: receivers that see ACKs but no ACK return times");
      }
      receiver_lag_.assign(after.receiver_sees_ack.size(), 0);
    }
    receiver_lag_[id] = ack_return(id);
  }
  if (after.previous.size() > n) {
    throw InvariantError(fmt::format("flow dependencies: connections for {} flows, expected {}",
                                     after.previous.size(), n));
  }
  if (!after.previous.empty()) {
    next_.assign(n, FlowAfter::kNone);
    gate_.assign(n, 0);
  }
  for (uint32_t id = 0; id < after.previous.size(); ++id) {
    const uint32_t p = after.previous[id];
    if (p == FlowAfter::kNone) continue;
    if (p >= id || specs[p].src != specs[id].src || specs[p].dst != specs[id].dst ||
        next_[p] != FlowAfter::kNone) {
      throw InvariantError(fmt::format("flow {} cannot follow flow {} on a connection", id, p));
    }
    next_[p] = id;
    // Without prerequisites it is ready from the start (it starts once the one before it sent).
    if (!after.waits(id)) gate_[id] = kReady;
  }
  // Tasks that wait for nothing complete at their own time.
  for (uint32_t k = 0; k < tasks; ++k) {
    const FlowAfter::Task& t = after.tasks[k];
    if (t.row == FlowAfter::kNoRow) {
      SimOf(t.host)->Schedule(t.not_before + t.delay, this, 0, FlowAfter::kTask | k);
    }
  }
}

void FlowDependencies::Ready(uint32_t id, Simulator* sim, Time now) {
  Time delay;
  Time not_before;
  if (FlowAfter::IsTask(id)) {
    delay = after_.task(id).delay;
    not_before = after_.task(id).not_before;
  } else {
    delay = after_.delay(id);
    not_before = specs_[id].start;
  }
  const Time at = std::max(not_before, delay > kTimeNever - now ? kTimeNever : now + delay);
  if (at < kTimeNever) sim->Schedule(at, this, 0, id);
}

void FlowDependencies::Complete(uint32_t id, int host) {
  const uint32_t index = Index(id);
  for (uint32_t i = dependent_offsets_[index]; i < dependent_offsets_[index + 1]; ++i) {
    const uint32_t r = dependents_[i];
    if (row_host_[r] != host || --unfinished_[r] != 0) continue;
    // The last prerequisite: each of the row's flows and tasks starts after its delay, and not
    // before its own start.
    Simulator* sim = SimOf(host);
    const Time now = sim->Now();
    for (uint32_t k = row_flow_offsets_[r]; k < row_flow_offsets_[r + 1]; ++k) {
      Ready(row_flows_[k], sim, now);
    }
  }
}

void FlowDependencies::OnDelivered(uint32_t id) {
  if (SeesAckArrival(id)) return;  // OnAcked tells the receiver
  const int host = specs_[id].dst;
  const Time lag = ReceiverLag(id);
  if (lag <= 0) {
    Complete(id, host);
    return;
  }
  Simulator* sim = SimOf(host);
  sim->Schedule(sim->Now() + lag, this, kSeenByReceiver, id);
}

void FlowDependencies::OnAcked(uint32_t id) {
  Complete(id, specs_[id].src);
  if (SeesAckArrival(id)) Complete(id, specs_[id].dst);
}

void FlowDependencies::OnSent(uint32_t id) {
  const uint32_t next = Next(id);
  if (next == FlowAfter::kNone) return;
  gate_[next] |= kPreviousSent;
  // An event, not a call: the NIC that reports it is in the middle of sending a packet.
  Simulator* sim = SimOf(specs_[next].src);
  if (gate_[next] & kReady) sim->Schedule(std::max(specs_[next].start, sim->Now()), this, 0, next);
}

void FlowDependencies::HandleEvent(uint32_t kind, uint64_t arg) {
  const auto id = static_cast<uint32_t>(arg);
  if (kind == kSeenByReceiver) {
    Complete(id, specs_[id].dst);
    return;
  }
  if (FlowAfter::IsTask(id)) {
    TaskDue(id);
    return;
  }
  if (Previous(id) != FlowAfter::kNone) {
    gate_[id] |= kReady;
    if (!(gate_[id] & kPreviousSent)) return;  // OnSent of the one before it starts it
  }
  starts_[id] = SimOf(specs_[id].src)->Now();
  start_(id);
}

void FlowDependencies::TaskDue(uint32_t id) {
  const uint32_t q = after_.task(id).queue;
  if (q != FlowAfter::kNoQueue) {
    if (queue_held_[q]) {
      queue_waiting_[q].push_back(id);
      return;
    }
    queue_held_[q] = 1;
  }
  TaskDone(id);
}

void FlowDependencies::TaskDone(uint32_t id) {
  const FlowAfter::Task& t = after_.task(id);
  task_done_[id & ~FlowAfter::kTask] = SimOf(t.host)->Now();
  if (const uint32_t q = t.releases; q != FlowAfter::kNoQueue) {
    std::vector<uint32_t>& waiting = queue_waiting_[q];
    if (waiting.empty()) {
      queue_held_[q] = 0;
    } else {  // the newest holds it from now
      const uint32_t next = waiting.back();
      waiting.pop_back();
      TaskDone(next);
    }
  }
  Complete(id, t.host);
}

void FlowDependencies::ReleaseRunState() {
  // Swapped with empty vectors: clear() would keep their memory.
  std::vector<uint32_t>().swap(unfinished_);
  std::vector<int>().swap(row_host_);
  std::vector<uint32_t>().swap(row_flow_offsets_);
  std::vector<uint32_t>().swap(row_flows_);
  std::vector<uint32_t>().swap(dependent_offsets_);
  std::vector<uint32_t>().swap(dependents_);
  std::vector<uint32_t>().swap(next_);
  std::vector<uint8_t>().swap(gate_);
  std::vector<std::vector<uint32_t>>().swap(queue_waiting_);
}

}  // namespace dcqcn
