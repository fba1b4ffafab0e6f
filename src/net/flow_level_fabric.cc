// Flows as max-min fair fluid streams over the ports their packets would cross.
#include "net/flow_level_fabric.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace dcqcn {
namespace {
constexpr double kPsPerSecond = 1e12;
}  // namespace

FlowLevelFabric::FlowLevelFabric(Simulator* sim, std::vector<double> capacity, Callbacks callbacks)
    : sim_(sim),
      solver_(capacity),
      carried_(capacity.size(), 0),
      callbacks_(std::move(callbacks)),
      on_port_(capacity.size()),
      port_seen_(capacity.size(), 0) {
  sim->Enroll(*this);
}

void FlowLevelFabric::Start(uint32_t id, const Path& path) {
  ++active_;
  if (path.stream_bits <= 0) {  // one frame: nothing streams
    Streamed(id, path.latency, path.first_frame, path.ack_flight);
    return;
  }
  if (path.uses.size() > stride_) {
    if (path.uses.size() > UINT16_MAX) {
      throw InvariantError(fmt::format("flow {}'s path takes {} ports", id, path.uses.size()));
    }
    Restride(path.uses.size());
  }
  if (free_.empty()) {
    free_.push_back(static_cast<uint32_t>(pool_.size()));
    pool_.emplace_back();
    uses_of_.resize(pool_.size() * stride_);
  }
  const uint32_t slot = free_.back();
  free_.pop_back();
  Stream& s = pool_[slot];
  s.id = id;
  s.bits_left = path.stream_bits;
  s.rate = 0;
  s.since = sim_->Now();
  s.latency = path.latency;
  s.first_frame = path.first_frame;
  s.ack_flight = path.ack_flight;
  s.uses = static_cast<uint16_t>(path.uses.size());
  std::copy(path.uses.begin(), path.uses.end(), uses_of_.begin() + slot * stride_);
  s.scheduled = false;
  for (const LinkUse& u : path.uses) {
    on_port_[u.link].push_back(slot);
    changed_.push_back(u.link);
  }
  ReshareNow();
}

void FlowLevelFabric::Restride(size_t stride) {
  std::vector<LinkUse> wider(pool_.size() * stride);
  for (size_t slot = 0; slot < pool_.size(); ++slot) {
    std::copy_n(uses_of_.begin() + slot * stride_, pool_[slot].uses, wider.begin() + slot * stride);
  }
  uses_of_.swap(wider);
  stride_ = stride;
}

void FlowLevelFabric::Advance(uint32_t slot) {
  Stream& s = pool_[slot];
  const double seconds = static_cast<double>(sim_->Now() - s.since) / kPsPerSecond;
  if (seconds > 0) {
    s.bits_left -= s.rate * seconds;
    for (const LinkUse& u : UsesOf(slot)) {
      carried_[u.link] += u.weight * s.rate * seconds;
    }
  }
  s.since = sim_->Now();
}

const std::vector<double>& FlowLevelFabric::carried_bits() {
  for (uint32_t slot = 0; slot < pool_.size(); ++slot) {
    if (pool_[slot].id != Stream::kFree) Advance(slot);
  }
  return carried_;
}

void FlowLevelFabric::ReshareNow() {
  if (reshare_pending_) return;
  reshare_pending_ = true;
  sim_->Schedule(sim_->Now(), this, kReshare, 0);
}

void FlowLevelFabric::Reshare() {
  // Gather the streams reachable from the changed ports over shared ports.
  ++reshare_count_;
  gathered_.clear();
  std::vector<uint32_t> ports;
  ports.swap(changed_);
  for (size_t i = 0; i < ports.size(); ++i) {
    const uint32_t port = ports[i];
    if (port_seen_[port] == reshare_count_) continue;
    port_seen_[port] = reshare_count_;
    for (const uint32_t slot : on_port_[port]) {
      Stream& s = pool_[slot];
      if (s.seen == reshare_count_) continue;
      s.seen = reshare_count_;
      gathered_.emplace_back(s.id, slot);
      for (const LinkUse& u : UsesOf(slot)) {
        if (port_seen_[u.link] != reshare_count_) ports.push_back(u.link);
      }
    }
  }
  ports.clear();
  changed_.swap(ports);  // keeps the larger buffer
  if (gathered_.empty()) return;
  ++reshares_;
  streams_reshared_ += gathered_.size();
  // In order of flow id, so that the shares do not depend on the slots'.
  std::sort(gathered_.begin(), gathered_.end());
  uses_.resize(gathered_.size());
  for (size_t i = 0; i < gathered_.size(); ++i) uses_[i] = UsesOf(gathered_[i].second);
  const std::vector<double>& shares = solver_.Solve(uses_);
  for (size_t i = 0; i < gathered_.size(); ++i) {
    const uint32_t slot = gathered_[i].second;
    Stream& s = pool_[slot];
    // A share that did not change keeps its end, and its event: no stale event is left behind.
    if (shares[i] == s.rate && s.scheduled) continue;
    Advance(slot);
    s.rate = shares[i];
    ScheduleEnd(slot);
  }
}

void FlowLevelFabric::ScheduleEnd(uint32_t slot) {
  Stream& s = pool_[slot];
  ++s.generation;
  s.scheduled = true;
  if (s.rate <= 0) return;  // no capacity on its way: it waits for a share
  const double ps = std::max(0.0, s.bits_left) / s.rate * kPsPerSecond;
  sim_->Schedule(sim_->Now() + static_cast<Time>(std::ceil(ps)), this, kStreamed,
                 static_cast<uint64_t>(s.generation) << 32 | slot);
}

void FlowLevelFabric::Streamed(uint32_t id, Time latency, Time first_frame, Time ack_flight) {
  const Time now = sim_->Now();
  if (callbacks_.sent) sim_->Schedule(now + first_frame, this, kSent, id);
  sim_->Schedule(now + latency, this, kDelivered, id);
  sim_->Schedule(now + latency + ack_flight, this, kAcked, id);
}

void FlowLevelFabric::HandleEvent(uint32_t kind, uint64_t arg) {
  const auto id = static_cast<uint32_t>(arg);
  switch (kind) {
    case kReshare:
      reshare_pending_ = false;
      Reshare();
      return;
    case kStreamed: {
      const uint32_t slot = id;
      Stream& s = pool_[slot];
      if (s.id == Stream::kFree || static_cast<uint32_t>(arg >> 32) != s.generation) {
        return;  // its share changed since (or it ended, and the slot is free or reused)
      }
      Advance(slot);
      // Done: less than a picosecond's worth left (the event time was rounded up to whole ps).
      if (s.bits_left > s.rate / kPsPerSecond) {
        ScheduleEnd(slot);
        return;
      }
      for (const LinkUse& u : UsesOf(slot)) {
        std::vector<uint32_t>& on = on_port_[u.link];
        on.erase(std::find(on.begin(), on.end(), slot));
        changed_.push_back(u.link);
      }
      const uint32_t flow = s.id;
      s.id = Stream::kFree;
      ++s.generation;  // no event of this stream's is still due
      free_.push_back(slot);
      Streamed(flow, s.latency, s.first_frame, s.ack_flight);
      ReshareNow();
      return;
    }
    case kSent:
      callbacks_.sent(id);
      return;
    case kDelivered:
      callbacks_.delivered(id);
      return;
    case kAcked:
      --active_;
      callbacks_.acked(id);
      return;
    default:
      return;
  }
}

}  // namespace dcqcn
