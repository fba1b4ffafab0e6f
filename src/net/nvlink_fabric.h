// The NVLink domain of multi-GPU servers: a transfer between two GPUs of one server goes over the
// server's NVSwitch crossbar, not through its NICs and the Ethernet fabric.
//
// Modelled at flow level: every GPU's NVLink port sends and receives at `rate` (each direction);
// the transfers that share a GPU's sending or receiving side get max-min fair shares, computed
// again whenever one starts or ends; the last byte arrives `delay` after it leaves. There are no
// packets, queues, ECN or PFC: NVLink is lossless by credits, and no congestion control runs on
// it. What this leaves out: the crossbar's own limits beyond the ports (NVSwitch is non-blocking
// for a server's GPUs), NVLink framing overhead (give `rate` as the goodput you expect) and the
// copy engines' or SMs' share of the work.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "core/max_min.h"
#include "core/simulator.h"
#include "core/units.h"

namespace dcqcn {

struct NvlinkConfig {
  int gpus_per_server = 1;  // hosts s*G .. s*G+G-1 are the GPUs of server s
  Rate rate = 0;            // per GPU and direction; 0 = no NVLink (every flow uses the NIC)
  Time delay = 0;           // from a byte leaving its GPU to its arrival
  bool enabled() const { return rate > 0 && gpus_per_server > 1; }
};

// Each server's crossbar is an event handler of its own, on the event loop that runs the
// server's GPUs, so that a network split over loops keeps each server's transfers with its GPUs
// (ThreadPlacement puts a server's GPUs together) and orders them as one loop does.
class NvlinkFabric final {
 public:
  // `on_delivered(id)` runs when transfer `id`'s last byte has arrived, on the loop of the
  // server's GPUs: `sim_of(server)`.
  NvlinkFabric(const std::function<Simulator*(int server)>& sim_of, NvlinkConfig config, int hosts,
               std::function<void(uint32_t)> on_delivered);
  // Every server on one loop.
  NvlinkFabric(Simulator* sim, NvlinkConfig config, int hosts,
               std::function<void(uint32_t)> on_delivered)
      : NvlinkFabric([sim](int) { return sim; }, config, hosts, std::move(on_delivered)) {}
  // Its servers point back at it.
  NvlinkFabric(const NvlinkFabric&) = delete;
  NvlinkFabric& operator=(const NvlinkFabric&) = delete;

  // Whether a flow from host `src` to host `dst` goes over NVLink.
  bool Carries(int src, int dst) const {
    return config_.enabled() && src / config_.gpus_per_server == dst / config_.gpus_per_server;
  }
  // Starts transfer `id` of `size` bytes now (Carries(src, dst) must hold).
  void Start(uint32_t id, int src, int dst, Bytes size);
  // Transfers under way (sending, or their last byte in flight), over every server.
  int active() const;

 private:
  struct Transfer {
    uint32_t id;
    int src_gpu;
    int dst_gpu;
    double bits_left;
    double rate = 0;  // bits per second, its current max-min share
  };
  class Server final : public EventHandler {
   public:
    Server(Simulator* sim, const NvlinkFabric* fabric)
        : sim_(sim),
          fabric_(fabric),
          solver_(std::vector<double>(2 * fabric->config_.gpus_per_server,
                                      static_cast<double>(fabric->config_.rate))) {
      sim->Enroll(*this);
    }
    void Start(uint32_t id, int src_gpu, int dst_gpu, Bytes size);
    void HandleEvent(uint32_t kind, uint64_t arg) override;
    int active() const { return active_; }

   private:
    enum Kind : uint32_t { kSent = 0, kDelivered = 1 };
    // Counts what every transfer sent since it was last updated.
    void Advance();
    // New max-min shares, and the event for the first transfer to finish sending.
    void Reshare();

    Simulator* sim_;
    const NvlinkFabric* fabric_;
    std::vector<Transfer> sending_;
    // The crossbar's shares (ports 0..G-1 send, G..2G-1 receive), solved again at each change
    // in the same arrays: each sending transfer's two ports, and its path over them.
    MaxMinSolver solver_;
    std::vector<LinkUse> uses_;
    std::vector<std::span<const LinkUse>> paths_;
    Time updated_ = 0;
    uint32_t generation_ = 0;  // of the pending kSent event; older ones are stale
    int active_ = 0;
  };

  NvlinkConfig config_;
  std::vector<std::unique_ptr<Server>> servers_;
  std::function<void(uint32_t)> on_delivered_;
};

}  // namespace dcqcn
