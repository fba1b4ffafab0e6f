// What runs a network's event loops (its parts, net/part.h): one interface, three engines. On one
// loop the one thread runs it event by event (OneThreadEngine); split over loops, threads run the
// parts side by side in windows of simulated time no longer than the smallest delay between two
// parts, carrying what crossed between them in between (WindowEngine); over MPI ranks each process
// runs its share of the parts the same way and the processes exchange what crossed (RankEngine).
// Every engine gives the same results byte for byte: events are ordered by keys that do not
// depend on the interleaving (Simulator), and what the parts record is merged by those keys.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/units.h"
#include "engine/rank_exchange.h"
#include "net/network.h"
#include "net/packet_tap.h"

namespace dcqcn {

class Engine {
 public:
  explicit Engine(Network& net) : net_(net) {}
  virtual ~Engine() = default;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  Network& net() { return net_; }
  const Network& net() const { return net_; }
  // The loop observers (samplers, the warm-up's end) run on: Network::sim().
  Simulator& observers() { return net_.sim(); }

  // Runs events with time <= until, stopping once about `max_events` have run (split: at the
  // end of the window that passes it). Over ranks, every rank calls it alike. Between calls
  // every packet is on its link, the counters are summed and every clock reads the last
  // event's time, as in one loop.
  virtual void RunUntil(Time until, uint64_t max_events = UINT64_MAX) = 0;
  // The time of the last event run, the events run, pending, and the next one's time (over
  // ranks: of every rank, as of the last RunUntil).
  virtual Time Now() const = 0;
  virtual uint64_t events_executed() const = 0;
  virtual size_t pending() const = 0;
  virtual Time next_time() = 0;
  // Flows finished, and the last finish so far (0 = none).
  virtual int flows_done() const;
  virtual Time last_finish() const;
  bool all_done() const { return flows_done() == static_cast<int>(net_.num_flows()); }

  // `on_send` sees every packet node `node`'s port `port` sends, `on_receive` every one it
  // receives, in one loop's order (split: shown between windows; over ranks: in rank 0).
  virtual void Tap(int node, int port, PacketTap* on_send, PacketTap* on_receive) {
    net_.Tap(node, port, on_send, on_receive);
  }
  // The processes the run is spread over (mpirun), and this one's (0 writes the results).
  virtual int rank() const { return 0; }
  virtual int ranks() const { return 1; }
  // Whether this process runs node `node` (always, in one process).
  virtual bool RunsNode(int) const { return true; }
  // The loops the network is split over, in every process together.
  int threads() const { return static_cast<int>(net_.parts().size()); }
  // The switch egress queues that hold data and are paused (over ranks, every rank's; collective).
  virtual std::vector<PausedQueue> PausedQueues() const { return net_.PausedQueues(); }
  // Over ranks: every rank's `mine`, by rank, on rank 0 (empty on the others). Collective.
  virtual std::vector<std::string> GatherAtRankZero(std::string mine) { return {std::move(mine)}; }
  // Over ranks, once the run is over: what the results read of the flows, ports and NICs that
  // other ranks ran is brought to rank 0's copy of the network, which then answers as one
  // process would. Collective. Call after CheckInvariants.
  virtual void CollectResults() {}

 protected:
  Network& net_;
};

// The engine for `net`: over `ranks` (null or one: this process alone) when its parts are more
// than one, on threads when they are more than one, else on this thread.
std::unique_ptr<Engine> MakeEngine(Network& net, RankExchange* ranks = nullptr);

}  // namespace dcqcn
