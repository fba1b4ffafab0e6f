// Shared-buffer MMU: admission, PFC thresholds and RED marking.
#include "net/mmu.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace dcqcn {

Mmu::Mmu(const SwitchConfig& config, std::vector<Bytes> headroom, int lossless_classes,
         Bytes mtu_frame, std::vector<double> alpha, const std::vector<int>& classes)
    : config_(config), headroom_(std::move(headroom)), alpha_(std::move(alpha)) {
  int ports = static_cast<int>(headroom_.size());
  if (alpha_.empty()) alpha_.assign(ports, config_.pfc.alpha);
  slot_of_prio_.fill(-1);
  for (int prio = 0; prio < kNumPriorities; ++prio) {
    if (classes.empty() || std::find(classes.begin(), classes.end(), prio) != classes.end()) {
      slot_of_prio_[prio] = static_cast<int8_t>(slots_++);
    }
  }
  ingress_.resize(static_cast<size_t>(ports) * slots_);
  // Saturating: a headroom or reserve beyond the buffer must fail below, not wrap.
  Bytes carved = 0;
  for (Bytes h : headroom_) {
    const Bytes per_class = config_.pfc.reserve + (config_.pfc.enabled ? h : 0);
    Bytes per_port = 0;
    if (__builtin_mul_overflow(per_class, static_cast<Bytes>(lossless_classes), &per_port) ||
        __builtin_add_overflow(carved, per_port, &carved)) {
      carved = INT64_MAX;
      break;
    }
  }
  shared_pool_ = config_.buffer - carved;
  if (shared_pool_ <= 0) {
    // Each figure says what it counts: `check`'s buffer-rule warning counts the paper's
    // headroom of all 8 priorities, this the priorities that carry data.
    const auto [min_h, max_h] = std::minmax_element(headroom_.begin(), headroom_.end());
    // KB rounded up, as `check` prints headroom (analysis/buffer_rules.h KbCeil).
    auto kb = [](Bytes b) {
      return fmt::format("{:.2f} KB", std::ceil(static_cast<double>(b) / 10) / 100);
    };
    const std::string headroom =
        !config_.pfc.enabled ? "no headroom (PFC is off)"
        : *min_h == *max_h   ? "a headroom of " + kb(*min_h)
                             : fmt::format("a headroom of {} to {}", kb(*min_h), kb(*max_h));
    throw InputError(
        fmt::format("switch.buffer: {} cannot hold what its {} ports set aside for the {} {} "
                    "data: a reserve of {} and {} per port and priority, {} in all",
                    kb(config_.buffer), ports, lossless_classes,
                    lossless_classes == 1 ? "priority that carries" : "priorities that carry",
                    kb(config_.pfc.reserve), headroom,
                    carved == INT64_MAX ? std::string("more than can be counted") : kb(carved)));
  }
  // Paper: resume two MTUs below the pause threshold.
  xon_offset_ = config_.pfc.xon_offset > 0 ? config_.pfc.xon_offset : 2 * mtu_frame;
}

Bytes Mmu::PauseThreshold(int port) const {
  if (!config_.pfc.dynamic_threshold) return config_.pfc.static_threshold;
  Bytes free = shared_pool_ - shared_used_;
  return free > 0 ? static_cast<Bytes>(alpha_[port] * static_cast<double>(free)) : 0;
}

bool Mmu::Admit(int port, int prio, Bytes size) { return AdmitTo(At(port, prio), port, size); }

bool Mmu::AdmitTo(Ingress& q, int port, Bytes size) {
  if (q.reserve + size <= config_.pfc.reserve) {
    q.reserve += size;
    return true;
  }
  bool shared_full = shared_used_ + size > shared_pool_;
  if (!config_.pfc.enabled) {
    if (shared_full) return false;
    q.shared += size;
    shared_used_ += size;
    return true;
  }
  // Once the queue is over its threshold (PAUSE sent or about to be), arrivals are the ones
  // already in flight: they land in headroom.
  if (shared_full || q.headroom > 0 || q.shared + size > PauseThreshold(port)) {
    if (q.headroom + size > headroom_[port]) return false;
    q.headroom += size;
    return true;
  }
  q.shared += size;
  shared_used_ += size;
  return true;
}

void Mmu::Release(int port, int prio, Bytes size) { ReleaseFrom(At(port, prio), port, prio, size); }

void Mmu::ReleaseFrom(Ingress& q, int port, int prio, Bytes size) {
  Bytes from_headroom = std::min(q.headroom, size);
  q.headroom -= from_headroom;
  size -= from_headroom;
  Bytes from_shared = std::min(q.shared, size);
  q.shared -= from_shared;
  shared_used_ -= from_shared;
  size -= from_shared;
  q.reserve -= size;
  if (q.reserve < 0 || shared_used_ < 0) [[unlikely]]
    NegativeCounter(port, prio);
}

void Mmu::Uncounted(int prio) {
  throw InvariantError(
      fmt::format("switch MMU: data in priority {}, which it does not count", prio));
}

void Mmu::NegativeCounter(int port, int prio) {
  throw InvariantError(fmt::format(
      "switch ingress buffer counter went negative (port {}, priority {})", port, prio));
}

bool Mmu::ShouldPause(int port, int prio) const { return ShouldPause(At(port, prio), port); }

bool Mmu::ShouldPause(const Ingress& q, int port) const {
  return config_.pfc.enabled && !q.paused &&
         (q.headroom > 0 || (q.shared > 0 && q.shared >= PauseThreshold(port)));
}

bool Mmu::ShouldResume(int port, int prio) const { return ShouldResume(At(port, prio), port); }

bool Mmu::ShouldResume(const Ingress& q, int port) const {
  return q.paused && q.headroom == 0 &&
         (q.shared == 0 || q.shared + xon_offset_ <= PauseThreshold(port));
}

Mmu::Arrival Mmu::OnArrival(int port, int prio, Bytes size) {
  Ingress& q = At(port, prio);
  if (!AdmitTo(q, port, size)) return Arrival::kDrop;
  return ShouldPause(q, port) ? Arrival::kAdmitAndPause : Arrival::kAdmit;
}

bool Mmu::OnDeparture(int port, int prio, Bytes size) {
  Ingress& q = At(port, prio);
  ReleaseFrom(q, port, prio, size);
  return ShouldResume(q, port);
}

bool Mmu::ShouldMark(const EcnConfig& ecn, Bytes q, Rng& rng) {
  if (!ecn.enabled) return false;
  if (q <= ecn.kmin) return false;
  if (q > ecn.kmax) return true;
  double p =
      ecn.pmax * static_cast<double>(q - ecn.kmin) / static_cast<double>(ecn.kmax - ecn.kmin);
  return rng.Bernoulli(p);
}

bool Mmu::Empty() const {
  for (const Ingress& q : ingress_) {
    if (q.reserve != 0 || q.shared != 0 || q.headroom != 0) return false;
  }
  return shared_used_ == 0;
}

}  // namespace dcqcn
