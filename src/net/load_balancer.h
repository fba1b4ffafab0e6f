// How a switch spreads data packets over the equal-cost ports towards their destination when it
// does not hash per flow (switch.load_balancing; SwitchConfig::LoadBalancing has the modes and
// their sources). Its state (the flowlet table, the spraying generator and turn) is the switch's
// own, so a run over threads or processes makes the same choices as one loop.
#pragma once

#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "core/units.h"
#include "net/switch_config.h"

namespace dcqcn {

class LoadBalancer {
 public:
  // Flowlet table slots, indexed by the flow's 5-tuple hash as a switch's hardware table is;
  // flows whose hashes share a slot share a flowlet. 16K: an assumption, stated in the docs.
  static constexpr int kFlowletSlotBits = 14;

  LoadBalancer(const SwitchConfig& config, uint64_t seed, int node_id);

  // The port for a data packet among `ports[0..n)` (n >= 2). `hash`: the packet's 5-tuple hash
  // (its flow's ECMP hash at this switch); `queued(port)`: the data bytes waiting at `port`.
  template <class QueuedBytes>
  int Choose(uint64_t hash, Time now, const uint16_t* ports, uint32_t n, QueuedBytes&& queued) {
    switch (mode_) {
      case SwitchConfig::LoadBalancing::kFlowlet:
        return Flowlet(hash, now, ports, n);
      case SwitchConfig::LoadBalancing::kAdaptive: {
        // The fewest bytes waiting; among equals the first from the flow's own ECMP port on, so
        // that an idle fabric routes as ECMP does and packets of a flow stay together until a
        // queue forms.
        const uint32_t first = static_cast<uint32_t>(hash % n);
        int best = ports[first];
        Bytes least = queued(best);
        for (uint32_t i = 1; i < n && least > 0; ++i) {
          const int port = ports[(first + i) % n];
          const Bytes q = queued(port);
          if (q < least) {
            least = q;
            best = port;
          }
        }
        return best;
      }
      case SwitchConfig::LoadBalancing::kSpray:
        if (round_robin_) return ports[turn_++ % n];
        return ports[rng_.Below(n)];
      case SwitchConfig::LoadBalancing::kEcmp:
        break;
    }
    return ports[hash % n];
  }

  // Flowlets started so far (a flowlet's first packet, including each flow's first).
  int64_t flowlets() const { return flowlets_; }

 private:
  int Flowlet(uint64_t hash, Time now, const uint16_t* ports, uint32_t n);

  struct Slot {
    Time last = -1;  // when its last packet passed (-1: never)
    uint16_t port = 0;
  };
  SwitchConfig::LoadBalancing mode_;
  bool round_robin_;
  Time flowlet_timeout_;
  Rng rng_;
  uint64_t turn_ = 0;
  int64_t flowlets_ = 0;
  std::vector<Slot> slots_;  // flowlet mode only
};

}  // namespace dcqcn
