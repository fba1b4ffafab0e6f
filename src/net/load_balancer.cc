#include "net/load_balancer.h"

#include <algorithm>

namespace dcqcn {

LoadBalancer::LoadBalancer(const SwitchConfig& config, uint64_t seed, int node_id)
    : mode_(config.load_balancing),
      round_robin_(config.spray_order == SwitchConfig::SprayOrder::kRoundRobin),
      flowlet_timeout_(config.flowlet_timeout),
      rng_(seed, 0x1b000 + static_cast<uint64_t>(node_id)) {
  if (mode_ == SwitchConfig::LoadBalancing::kFlowlet) slots_.resize(size_t{1} << kFlowletSlotBits);
}

int LoadBalancer::Flowlet(uint64_t hash, Time now, const uint16_t* ports, uint32_t n) {
  // Fibonacci hashing: the top bits of a product spread a 32-bit hash (HPCC's) as well.
  Slot& slot = slots_[(hash * 0x9e3779b97f4a7c15ULL) >> (64 - kFlowletSlotBits)];
  const bool gap = slot.last < 0 || now - slot.last > flowlet_timeout_;
  // A slot's port that is no longer among the choices (another destination's flow shares the
  // slot, or a failed link changed the routes) starts a flowlet too.
  if (gap || std::find(ports, ports + n, slot.port) == ports + n) {
    // LetFlow's rule: each new flowlet takes a port at random; flowlets that meet congestion
    // slow down, leave longer gaps and so move more often.
    slot.port = ports[rng_.Below(n)];
    ++flowlets_;
  }
  slot.last = now;
  return slot.port;
}

}  // namespace dcqcn
