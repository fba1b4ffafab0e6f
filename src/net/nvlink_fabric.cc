// NVLink transfers as max-min fair fluid flows over each server's crossbar.
#include "net/nvlink_fabric.h"

#include <cmath>
#include <limits>

#include "core/max_min.h"

namespace dcqcn {
namespace {
constexpr double kPsPerSecond = 1e12;
}  // namespace

NvlinkFabric::NvlinkFabric(const std::function<Simulator*(int server)>& sim_of, NvlinkConfig config,
                           int hosts, std::function<void(uint32_t)> on_delivered)
    : config_(config), on_delivered_(std::move(on_delivered)) {
  if (!config.enabled()) return;
  // Enrolled in server order, so that the event order does not depend on the loops.
  const int servers = (hosts + config.gpus_per_server - 1) / config.gpus_per_server;
  for (int s = 0; s < servers; ++s) servers_.push_back(std::make_unique<Server>(sim_of(s), this));
}

void NvlinkFabric::Start(uint32_t id, int src, int dst, Bytes size) {
  const int g = config_.gpus_per_server;
  servers_[src / g]->Start(id, src % g, dst % g, size);
}

int NvlinkFabric::active() const {
  int n = 0;
  for (const auto& s : servers_) n += s->active();
  return n;
}

void NvlinkFabric::Server::Start(uint32_t id, int src_gpu, int dst_gpu, Bytes size) {
  ++active_;
  Advance();
  sending_.push_back({id, src_gpu, dst_gpu, static_cast<double>(size) * 8});
  Reshare();
}

void NvlinkFabric::Server::Advance() {
  const double seconds = static_cast<double>(sim_->Now() - updated_) / kPsPerSecond;
  for (Transfer& t : sending_) t.bits_left -= t.rate * seconds;
  updated_ = sim_->Now();
}

void NvlinkFabric::Server::Reshare() {
  ++generation_;
  if (sending_.empty()) return;
  const int g = fabric_->config_.gpus_per_server;
  uses_.clear();
  for (const Transfer& t : sending_) {
    uses_.push_back({static_cast<uint32_t>(t.src_gpu), 1.0});
    uses_.push_back({static_cast<uint32_t>(g + t.dst_gpu), 1.0});
  }
  paths_.clear();  // over uses_ as it now stands
  for (size_t i = 0; i < sending_.size(); ++i) {
    paths_.push_back(std::span<const LinkUse>(uses_).subspan(2 * i, 2));
  }
  const std::vector<double>& shares = solver_.Solve(paths_);
  Time first = std::numeric_limits<Time>::max();
  for (size_t i = 0; i < sending_.size(); ++i) {
    Transfer& t = sending_[i];
    t.rate = shares[i];
    const double ps = std::max(0.0, t.bits_left) / t.rate * kPsPerSecond;
    first = std::min(first, sim_->Now() + static_cast<Time>(std::ceil(ps)));
  }
  sim_->Schedule(first, this, kSent, generation_);
}

void NvlinkFabric::Server::HandleEvent(uint32_t kind, uint64_t arg) {
  if (kind == kDelivered) {
    --active_;
    fabric_->on_delivered_(static_cast<uint32_t>(arg));
    return;
  }
  if (static_cast<uint32_t>(arg) != generation_) return;  // shares changed since
  Advance();
  // Done: less than a picosecond's worth left (the event time was rounded up to whole ps).
  size_t kept = 0;
  for (Transfer& t : sending_) {
    if (t.bits_left <= t.rate / kPsPerSecond) {
      sim_->Schedule(sim_->Now() + fabric_->config_.delay, this, kDelivered, t.id);
    } else {
      sending_[kept++] = t;
    }
  }
  sending_.resize(kept);
  Reshare();
}

}  // namespace dcqcn
