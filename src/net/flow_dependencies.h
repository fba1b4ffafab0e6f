// Flow dependencies ([[flow]] after): which flows each flow waits for, and the tracker that starts
// a waiting flow once the last of them is complete. A host acts only on what it observes, so a
// flow waits only for flows its own source host receives (complete when their last byte is
// delivered in order) or sends (complete when their last byte is acknowledged): every trigger is
// local to the waiting flow's source host, as a partitioned engine needs. The graph also has
// tasks: a GPU's compute (a training job's, workload/job.h), on one host, complete a given time
// after their own prerequisites; only their host's flows and tasks wait for them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/simulator.h"
#include "net/flow_spec.h"

namespace dcqcn {

// The prerequisites of every flow, by flow id, as rows that flows may share (millions of flows,
// most of them waiting, cost 4 bytes per flow and per prerequisite; the flows a collective's rank
// sends after the same events share one row, so an all-to-all's next iteration costs O(n^2), not
// O(n^3)): flow i waits for the row `row_of[i]`, `prerequisites[row_offsets[r] ..
// row_offsets[r + 1])`, then `delays[i]` more. No rows: no flow waits.
struct FlowAfter {
  static constexpr uint32_t kNoRow = UINT32_MAX;
  std::vector<uint32_t> row_of;       // by flow id; may be shorter (kNoRow past the end)
  std::vector<uint32_t> row_offsets;  // one more than the rows, or none
  std::vector<uint32_t> prerequisites;
  std::vector<Time> delays;  // by flow id; may be shorter (0 past the end)
  // By flow id (may be shorter; kNone past the end): the flow before it on its connection (one
  // queue pair: same source and destination), which must have sent its last packet before this
  // one starts and whose congestion-control state, source port and byte stream it continues.
  static constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> previous;
  // Tasks, by task index k (id kTask | k in rows): the host whose work it is, its row of
  // prerequisites (kNoRow: none), and when it completes: `delay` after the last of them, and not
  // before `not_before` (without prerequisites: at not_before + delay).
  static constexpr uint32_t kTask = 0x80000000u;
  static bool IsTask(uint32_t id) { return (id & kTask) != 0; }
  // A queue (index into `queue_hosts`) runs its tasks one at a time on its host (SimAI's
  // stream queue, where a rank's weight-gradient collectives wait): a task in a queue, once its
  // prerequisites and delay are done, completes at once if the queue is free and then holds it,
  // else waits; a task that releases the queue frees it when it completes, and of the tasks
  // waiting then the one that came last completes at that instant (newest first).
  static constexpr uint32_t kNoQueue = UINT32_MAX;
  struct Task {
    int host = 0;
    uint32_t row = kNoRow;
    Time delay = 0;
    Time not_before = 0;
    uint32_t queue = kNoQueue;     // the queue it waits for and then holds
    uint32_t releases = kNoQueue;  // the queue it frees when it completes
  };
  std::vector<Task> tasks;
  std::vector<int> queue_hosts;  // by queue: the host whose tasks it runs
  // By flow id (may be shorter; 0 past the end): flows whose receiver sees them complete when
  // their sender has the last ACK (SimAI's ns-3 backend tells both ends then), not at delivery:
  // kAckOnIdlePath, the ACK's flight on an idle path after its own delivery (what a receiver
  // can count alone, and a run split over loops can tell in time); kAckArrival, the instant the
  // ACK reaches the sender, however long it queued (a word from the sender's loop to the
  // receiver's with no delay: one loop only, CanSplit).
  static constexpr uint8_t kAckOnIdlePath = 1;
  static constexpr uint8_t kAckArrival = 2;
  std::vector<uint8_t> receiver_sees_ack;

  bool empty() const { return prerequisites.empty() && previous.empty() && tasks.empty(); }
  // A new queue on host `host`; returns its index.
  uint32_t AddQueue(int host) {
    queue_hosts.push_back(host);
    return static_cast<uint32_t>(queue_hosts.size() - 1);
  }
  // A new task; returns its id (kTask | index).
  uint32_t AddTask(const Task& t) {
    tasks.push_back(t);
    return kTask | static_cast<uint32_t>(tasks.size() - 1);
  }
  const Task& task(uint32_t id) const { return tasks[id & ~kTask]; }
  // A new row of prerequisites; returns its index.
  uint32_t AddRow(std::span<const uint32_t> after);
  // Flow `id` waits for row `row` (kNoRow: nothing), then `delay`.
  void Assign(uint32_t id, uint32_t row, Time delay);
  // Appends the next flow's own row (flow ids in order from 0; an empty `after`: no row).
  void Add(std::span<const uint32_t> after, Time delay);
  // Rows for flows up to `num_flows` (those not added wait for nothing).
  void Resize(size_t num_flows);
  // Room for flows up to `num_flows`, a row of one prerequisite each and, with `connections`,
  // their previous: tables of millions grown one flow at a time would double, and copy, as
  // they go.
  void Reserve(size_t num_flows, bool connections);
  // Gives back what the tables hold beyond a quarter more than they use (what was reserved,
  // or doubled as they grew): they are held through the run.
  void ShrinkToFit();
  // Flow `id` follows `before` on their connection.
  void SetPrevious(uint32_t id, uint32_t before);
  uint32_t previous_of(uint32_t id) const { return id < previous.size() ? previous[id] : kNone; }
  size_t rows() const { return row_offsets.empty() ? 0 : row_offsets.size() - 1; }
  std::span<const uint32_t> row(uint32_t r) const {
    return std::span<const uint32_t>(prerequisites)
        .subspan(row_offsets[r], row_offsets[r + 1] - row_offsets[r]);
  }
  uint32_t row_index(uint32_t id) const { return id < row_of.size() ? row_of[id] : kNoRow; }
  std::span<const uint32_t> of(uint32_t id) const {
    const uint32_t r = row_index(id);
    return r == kNoRow ? std::span<const uint32_t>() : row(r);
  }
  bool waits(uint32_t id) const { return !of(id).empty(); }
  // How flow `id`'s receiver sees it complete: 0 (at delivery), kAckOnIdlePath or kAckArrival.
  uint8_t sees_ack(uint32_t id) const {
    return id < receiver_sees_ack.size() ? receiver_sees_ack[id] : 0;
  }
  // Whether any flow's receiver sees its ACK's arrival (a scan: asked once a run).
  bool any_ack_arrival() const {
    return std::find(receiver_sees_ack.begin(), receiver_sees_ack.end(), kAckArrival) !=
           receiver_sees_ack.end();
  }
  Time delay(uint32_t id) const { return id < delays.size() ? delays[id] : 0; }
};

// Whether flow `waiting`'s source host observes flow `prerequisite` complete: it receives it or
// sends it.
inline bool ObservesCompletion(const FlowSpec& waiting, const FlowSpec& prerequisite) {
  return prerequisite.dst == waiting.src || prerequisite.src == waiting.src;
}
// When host `host` sees flow `f` complete, from when it was delivered and acknowledged: a task's
// or flow's prerequisite as its host sees it (-1: not yet). A receiver that sees the sender's
// ACK (FlowAfter::receiver_sees_ack) sees it `ack_return` after delivery, or with
// `at_ack_arrival` when the sender has it.
inline Time CompletionSeenBy(int host, const FlowSpec& f, Time delivered, Time acked,
                             Time ack_return = 0, bool at_ack_arrival = false) {
  if (f.dst != host || at_ack_arrival) return acked;
  return delivered < 0 ? delivered : delivered + ack_return;
}

// Counts each waiting flow's unfinished prerequisites and, when the last one completes at `now`,
// starts it at max(its spec's start, now + its delay), with one event per waiting flow scheduled
// then (equal times: in the order the completions happened); a flow that follows another on its
// connection starts then only if that one has sent its last packet, else when it does. Flows
// that wait for nothing are FlowStarter's.
class FlowDependencies final : public EventHandler {
 public:
  // `after` must outlive the tracker; every prerequisite must be observable (ObservesCompletion)
  // and the flows sharing a row must have one source host, else InvariantError (the scenario
  // layer checks input).
  // `host_sims`: the event loop of each host, in a run split over threads (a flow's start runs
  // in its source host's); empty: `sim` for every host.
  // `ack_return`: for a flow whose receiver sees the sender's ACK, the time from its delivery to
  // then. The receiver cannot observe the ACK's arrival at the sender (a run split over threads
  // could not tell it in time), so it counts the ACK's flight on an idle path from its own
  // delivery; required when such flows exist, asked once per such flow here (on the routes the
  // run starts with).
  FlowDependencies(Simulator* sim, std::span<const FlowSpec> specs, const FlowAfter& after,
                   std::function<void(uint32_t)> start, std::vector<Simulator*> host_sims = {},
                   std::function<Time(uint32_t)> ack_return = {});
  bool Waits(uint32_t id) const {
    return after_.waits(id) || after_.previous_of(id) != FlowAfter::kNone;
  }
  // The flows before and after `id` on its connection (FlowAfter::kNone: none).
  uint32_t Previous(uint32_t id) const { return after_.previous_of(id); }
  uint32_t Next(uint32_t id) const { return id < next_.size() ? next_[id] : FlowAfter::kNone; }
  // Flow `id` sent its last packet (the first time): the flow after it on its connection may
  // start.
  void OnSent(uint32_t id);
  // Flow `id`'s last byte reached its receiver in order.
  void OnDelivered(uint32_t id);
  // How long after delivery flow `id`'s receiver sees it complete (FlowAfter::kAckOnIdlePath).
  Time ReceiverLag(uint32_t id) const { return id < receiver_lag_.size() ? receiver_lag_[id] : 0; }
  // Whether flow `id`'s receiver sees it complete when its sender gets the last ACK
  // (FlowAfter::kAckArrival).
  bool SeesAckArrival(uint32_t id) const { return after_.sees_ack(id) == FlowAfter::kAckArrival; }
  // Flow `id`'s sender got the ACK of its last byte (and, FlowAfter::kAckArrival, its receiver
  // is told at once).
  void OnAcked(uint32_t id);
  // When waiting flow `id` started; kTimeNever until it has.
  Time start(uint32_t id) const { return starts_[id]; }
  // When task `id` (FlowAfter::kTask | k) completed; kTimeNever until it has.
  Time task_done(uint32_t id) const { return task_done_[id & ~FlowAfter::kTask]; }
  // Another process saw it start (a run spread over processes, for the results).
  void AdoptStart(uint32_t id, Time at) { starts_[id] = at; }
  // The run is over: frees what only starting flows needed (who waits for whom, the rows'
  // counters, the order of connections' flows: about 28 bytes a flow, freed before the results
  // take theirs). start(), task_done(), Waits() and Previous() still answer; nothing else may
  // be called.
  void ReleaseRunState();
  void HandleEvent(uint32_t kind, uint64_t arg) override;

 private:
  // Flow or task `id` is complete as host `host` sees it: the rows of flows sent by `host` (and
  // of its tasks) that wait for it have one prerequisite less.
  void Complete(uint32_t id, int host);
  // Where flow or task `id` is in the tables indexed by prerequisite: flows, then tasks.
  uint32_t Index(uint32_t id) const {
    return FlowAfter::IsTask(id) ? static_cast<uint32_t>(specs_.size()) + (id & ~FlowAfter::kTask)
                                 : id;
  }
  // Schedules waiting flow or task `id` for when its row completed at `now`.
  void Ready(uint32_t id, Simulator* sim, Time now);
  // Task `id` (its prerequisites and delay done) completes now, or waits for its queue.
  void TaskDue(uint32_t id);
  // Task `id` completes now (granted its queue, if it has one); frees the queue it releases.
  void TaskDone(uint32_t id);
  Simulator* SimOf(int host) const { return host_sims_.empty() ? sim_ : host_sims_[host]; }
  // Event kinds: 0 a flow or task is due (start or done); this one, a flow's receiver sees it
  // complete.
  static constexpr uint32_t kSeenByReceiver = 1;
  Simulator* sim_;
  std::vector<Simulator*> host_sims_;
  std::vector<Time> receiver_lag_;  // per flow whose receiver sees the ACK: ReceiverLag
  std::span<const FlowSpec> specs_;
  const FlowAfter& after_;
  std::function<void(uint32_t)> start_;
  // Per row: its prerequisites not yet complete, the host that sends its flows (and runs its
  // tasks), and its flows and tasks (compressed rows); per flow and task (Index): the rows that
  // wait for it (compressed rows).
  std::vector<uint32_t> unfinished_;
  std::vector<int> row_host_;
  std::vector<uint32_t> row_flow_offsets_;
  std::vector<uint32_t> row_flows_;
  std::vector<uint32_t> dependent_offsets_;
  std::vector<uint32_t> dependents_;
  std::vector<Time> starts_;     // per flow: when a waiting flow started (kTimeNever: not yet)
  std::vector<Time> task_done_;  // per task: when it completed (kTimeNever: not yet)
  // Per queue: whether a task holds it, and the tasks waiting for it in the order they came.
  std::vector<uint8_t> queue_held_;
  std::vector<std::vector<uint32_t>> queue_waiting_;
  // Per flow, when any flow follows another on its connection: the next one, and for a flow
  // that follows one, what of its start has come (kReady: its prerequisites and delay;
  // kPreviousSent: the one before it sent its last packet).
  enum Gate : uint8_t { kReady = 1, kPreviousSent = 2 };
  std::vector<uint32_t> next_;
  std::vector<uint8_t> gate_;
};

}  // namespace dcqcn
