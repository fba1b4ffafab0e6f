// Flows as max-min fair fluid streams over the ports their packets would cross.
#include "net/flow_level_fabric.h"

#include <algorithm>
#include <cmath>

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

void FlowLevelFabric::Start(uint32_t id, Path path) {
  ++active_;
  const Path& p = after_[id] = std::move(path);
  if (p.stream_bits <= 0) {  // one frame: nothing streams
    Streamed(id);
    return;
  }
  streams_[id] = Stream{&p.uses, p.stream_bits, 0, sim_->Now()};
  for (const LinkUse& u : p.uses) {
    on_port_[u.link].push_back(id);
    changed_.push_back(u.link);
  }
  ReshareNow();
}

void FlowLevelFabric::Advance(Stream& s) {
  const double seconds = static_cast<double>(sim_->Now() - s.since) / kPsPerSecond;
  if (seconds > 0) {
    s.bits_left -= s.rate * seconds;
    for (const LinkUse& u : *s.uses) carried_[u.link] += u.weight * s.rate * seconds;
  }
  s.since = sim_->Now();
}

const std::vector<double>& FlowLevelFabric::carried_bits() {
  for (auto& [id, s] : streams_) Advance(s);
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
    for (const uint32_t id : on_port_[port]) {
      Stream& s = streams_.at(id);
      if (s.seen == reshare_count_) continue;
      s.seen = reshare_count_;
      gathered_.push_back(id);
      for (const LinkUse& u : *s.uses) {
        if (port_seen_[u.link] != reshare_count_) ports.push_back(u.link);
      }
    }
  }
  ports.clear();
  changed_.swap(ports);  // keeps the larger buffer
  if (gathered_.empty()) return;
  ++reshares_;
  streams_reshared_ += gathered_.size();
  // In order of flow id, so that the shares do not depend on the tables' layout.
  std::sort(gathered_.begin(), gathered_.end());
  uses_.resize(gathered_.size());
  for (size_t i = 0; i < gathered_.size(); ++i) uses_[i] = streams_.at(gathered_[i]).uses;
  const std::vector<double>& shares = solver_.Solve(uses_);
  for (size_t i = 0; i < gathered_.size(); ++i) {
    Stream& s = streams_.at(gathered_[i]);
    // A share that did not change keeps its end, and its event: no stale event is left behind.
    if (shares[i] == s.rate && s.generation > 0) continue;
    Advance(s);
    s.rate = shares[i];
    ScheduleEnd(gathered_[i], s);
  }
}

void FlowLevelFabric::ScheduleEnd(uint32_t id, Stream& s) {
  ++s.generation;
  if (s.rate <= 0) return;  // no capacity on its way: it waits for a share
  const double ps = std::max(0.0, s.bits_left) / s.rate * kPsPerSecond;
  sim_->Schedule(sim_->Now() + static_cast<Time>(std::ceil(ps)), this, kStreamed,
                 static_cast<uint64_t>(s.generation) << 32 | id);
}

void FlowLevelFabric::Streamed(uint32_t id) {
  const Path& p = after_.at(id);
  const Time now = sim_->Now();
  sim_->Schedule(now + p.first_frame, this, kSent, id);
  sim_->Schedule(now + p.latency, this, kDelivered, id);
  sim_->Schedule(now + p.latency + p.ack_flight, this, kAcked, id);
}

void FlowLevelFabric::HandleEvent(uint32_t kind, uint64_t arg) {
  const auto id = static_cast<uint32_t>(arg);
  switch (kind) {
    case kReshare:
      reshare_pending_ = false;
      Reshare();
      return;
    case kStreamed: {
      const auto it = streams_.find(id);
      if (it == streams_.end() || static_cast<uint32_t>(arg >> 32) != it->second.generation) {
        return;  // its share changed since
      }
      Stream& s = it->second;
      Advance(s);
      // Done: less than a picosecond's worth left (the event time was rounded up to whole ps).
      if (s.bits_left > s.rate / kPsPerSecond) {
        ScheduleEnd(id, s);
        return;
      }
      for (const LinkUse& u : *s.uses) {
        std::vector<uint32_t>& on = on_port_[u.link];
        on.erase(std::find(on.begin(), on.end(), id));
        changed_.push_back(u.link);
      }
      streams_.erase(it);
      Streamed(id);
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
      after_.erase(id);
      callbacks_.acked(id);
      return;
    default:
      return;
  }
}

}  // namespace dcqcn
