// Flows as max-min fair fluid streams over the ports their packets would cross.
#include "net/flow_level_fabric.h"

#include <cmath>
#include <limits>

namespace dcqcn {
namespace {
constexpr double kPsPerSecond = 1e12;
}  // namespace

FlowLevelFabric::FlowLevelFabric(Simulator* sim, std::vector<double> capacity, Callbacks callbacks)
    : sim_(sim), solver_(capacity), carried_(capacity.size(), 0), callbacks_(std::move(callbacks)) {
  sim->Enroll(*this);
}

void FlowLevelFabric::Start(uint32_t id, Path path) {
  ++active_;
  if (path.stream_bits <= 0) {  // one frame: nothing streams
    after_[id] = path;
    Streamed(id);
    return;
  }
  Advance();
  const Path& p = after_[id] = std::move(path);
  streams_.push_back({id, &p.uses, p.stream_bits});
  ReshareNow();
}

void FlowLevelFabric::Advance() {
  const double seconds = static_cast<double>(sim_->Now() - updated_) / kPsPerSecond;
  if (seconds > 0) {
    for (Stream& s : streams_) {
      s.bits_left -= s.rate * seconds;
      for (const LinkUse& u : *s.uses) carried_[u.link] += u.weight * s.rate * seconds;
    }
  }
  updated_ = sim_->Now();
}

void FlowLevelFabric::ReshareNow() {
  ++generation_;  // the pending end of a stream is stale until the shares are new
  if (reshare_pending_) return;
  reshare_pending_ = true;
  sim_->Schedule(sim_->Now(), this, kReshare, 0);
}

void FlowLevelFabric::Reshare() {
  ++generation_;
  if (streams_.empty()) return;
  ++reshares_;
  streams_reshared_ += streams_.size();
  uses_.resize(streams_.size());
  for (size_t i = 0; i < streams_.size(); ++i) uses_[i] = streams_[i].uses;
  const std::vector<double>& shares = solver_.Solve(uses_);
  Time first = std::numeric_limits<Time>::max();
  for (size_t i = 0; i < streams_.size(); ++i) {
    Stream& s = streams_[i];
    s.rate = shares[i];
    if (s.rate <= 0) continue;  // no capacity on its way: it waits for a share
    const double ps = std::max(0.0, s.bits_left) / s.rate * kPsPerSecond;
    first = std::min(first, sim_->Now() + static_cast<Time>(std::ceil(ps)));
  }
  if (first != std::numeric_limits<Time>::max()) {
    sim_->Schedule(first, this, kStreamed, generation_);
  }
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
      Advance();
      Reshare();
      return;
    case kStreamed: {
      if (arg != generation_) return;  // shares changed since
      Advance();
      // Done: less than a picosecond's worth left (the event time was rounded up to whole ps).
      size_t kept = 0;
      for (Stream& s : streams_) {
        if (s.rate > 0 && s.bits_left <= s.rate / kPsPerSecond) {
          Streamed(s.id);
        } else {
          streams_[kept++] = s;
        }
      }
      streams_.resize(kept);
      Reshare();
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
