// NVLink transfers as max-min fair fluid flows over each server's crossbar.
#include "net/nvlink_fabric.h"

#include <cmath>
#include <limits>

#include "core/max_min.h"

namespace dcqcn {
namespace {
constexpr double kPsPerSecond = 1e12;
}  // namespace

NvlinkFabric::NvlinkFabric(Simulator* sim, NvlinkConfig config, int hosts,
                           std::function<void(uint32_t)> on_delivered)
    : sim_(sim),
      config_(config),
      servers_(config.enabled() ? static_cast<size_t>((hosts + config.gpus_per_server - 1) /
                                                      config.gpus_per_server)
                                : 0),
      on_delivered_(std::move(on_delivered)) {
  sim->Enroll(*this);
}

void NvlinkFabric::Start(uint32_t id, int src, int dst, Bytes size) {
  const int server = src / config_.gpus_per_server;
  Server& s = servers_[server];
  Advance(s);
  s.sending.push_back({id, src % config_.gpus_per_server, dst % config_.gpus_per_server,
                       static_cast<double>(size) * 8});
  ++active_;
  Reshare(server);
}

void NvlinkFabric::Advance(Server& s) {
  const double seconds = static_cast<double>(sim_->Now() - s.updated) / kPsPerSecond;
  for (Transfer& t : s.sending) t.bits_left -= t.rate * seconds;
  s.updated = sim_->Now();
}

void NvlinkFabric::Reshare(int server) {
  Server& s = servers_[server];
  ++s.generation;
  if (s.sending.empty()) return;
  // Ports 0..G-1 send, G..2G-1 receive.
  const int g = config_.gpus_per_server;
  std::vector<std::vector<uint32_t>> ports(s.sending.size());
  for (size_t i = 0; i < s.sending.size(); ++i) {
    ports[i] = {static_cast<uint32_t>(s.sending[i].src_gpu),
                static_cast<uint32_t>(g + s.sending[i].dst_gpu)};
  }
  const std::vector<double> shares =
      MaxMinShares(ports, std::vector<double>(2 * g, static_cast<double>(config_.rate)));
  Time first = std::numeric_limits<Time>::max();
  for (size_t i = 0; i < s.sending.size(); ++i) {
    Transfer& t = s.sending[i];
    t.rate = shares[i];
    const double ps = std::max(0.0, t.bits_left) / t.rate * kPsPerSecond;
    first = std::min(first, sim_->Now() + static_cast<Time>(std::ceil(ps)));
  }
  sim_->Schedule(first, this, kSent, (static_cast<uint64_t>(server) << 32) | s.generation);
}

void NvlinkFabric::HandleEvent(uint32_t kind, uint64_t arg) {
  if (kind == kDelivered) {
    --active_;
    on_delivered_(static_cast<uint32_t>(arg));
    return;
  }
  const int server = static_cast<int>(arg >> 32);
  Server& s = servers_[server];
  if (static_cast<uint32_t>(arg) != s.generation) return;  // shares changed since
  Advance(s);
  // Done: less than a picosecond's worth left (the event time was rounded up to whole ps).
  size_t kept = 0;
  for (Transfer& t : s.sending) {
    if (t.bits_left <= t.rate / kPsPerSecond) {
      sim_->Schedule(sim_->Now() + config_.delay, this, kDelivered, t.id);
    } else {
      s.sending[kept++] = t;
    }
  }
  s.sending.resize(kept);
  Reshare(server);
}

}  // namespace dcqcn
