// The switch's shared-buffer memory management unit (spec section 4.3/4.5): per (ingress port,
// priority) accounting split into reserve, shared and headroom; the PFC XOFF/XON decisions;
// the ECN/RED marking decision on an egress queue's length (which the port itself counts).
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "net/headers.h"
#include "net/switch_config.h"

namespace dcqcn {

class Mmu {
 public:
  // `headroom` holds the headroom of each ingress port (bytes per lossless priority);
  // `lossless_classes` is how many priorities reserve headroom and reserve on every port;
  // `alpha` the dynamic-threshold factor of each port (empty: config.pfc.alpha on every port);
  // `classes` the priorities data may arrive in (empty: all), the only ones counted per port.
  Mmu(const SwitchConfig& config, std::vector<Bytes> headroom, int lossless_classes,
      Bytes mtu_frame, std::vector<double> alpha = {}, const std::vector<int>& classes = {});

  // Charges a data packet arriving on (port, prio). Returns false if it must be dropped
  // (headroom overflow with PFC, buffer full without).
  bool Admit(int port, int prio, Bytes size);
  // Releases a departing packet's ingress charge: headroom first, then shared, then reserve.
  void Release(int port, int prio, Bytes size);

  // PFC decisions for the ingress queue (port, prio); Set/ClearPaused record what was sent.
  bool ShouldPause(int port, int prio) const;
  bool ShouldResume(int port, int prio) const;
  bool paused(int port, int prio) const { return At(port, prio).paused; }
  void SetPaused(int port, int prio, bool paused) { At(port, prio).paused = paused; }

  // A data packet's arrival and departure, each with one lookup of its counters: Admit then
  // ShouldPause, and Release then ShouldResume (whether to send RESUME).
  enum class Arrival : uint8_t { kDrop, kAdmit, kAdmitAndPause };
  Arrival OnArrival(int port, int prio, Bytes size);
  bool OnDeparture(int port, int prio, Bytes size);

  // Current XOFF threshold on the shared bytes of an ingress queue of `port`.
  Bytes PauseThreshold(int port) const;

  // RED marking decision on an egress queue of `queue_bytes` after the departure (spec 3).
  bool ShouldMark(Bytes queue_bytes, Rng& rng) const {
    return ShouldMark(config_.ecn, queue_bytes, rng);
  }
  // RED on `queue_bytes` with the thresholds of `ecn` (a port's own, EcnConfig::ForPortRate).
  static bool ShouldMark(const EcnConfig& ecn, Bytes queue_bytes, Rng& rng);

  Bytes headroom(int port) const { return headroom_[port]; }
  double alpha(int port) const { return alpha_[port]; }
  Bytes shared_used() const { return shared_used_; }
  Bytes headroom_used(int port, int prio) const { return At(port, prio).headroom; }
  Bytes shared_used(int port, int prio) const { return At(port, prio).shared; }
  Bytes ingress_bytes(int port, int prio) const {
    const Ingress& q = At(port, prio);
    return q.reserve + q.shared + q.headroom;
  }
  // Every counter back at zero (the network has drained).
  bool Empty() const;
  int ports() const { return static_cast<int>(headroom_.size()); }

 private:
  struct Ingress {
    Bytes reserve = 0;
    Bytes shared = 0;
    Bytes headroom = 0;
    bool paused = false;
  };
  // A large fabric has hundreds of thousands of ports and uses one or two of their 8
  // priorities: only the priorities data arrives in are counted, at slot_of_prio_.
  Ingress& At(int port, int prio) {
    const int slot = slot_of_prio_[prio];
    if (slot < 0) [[unlikely]]
      Uncounted(prio);
    return ingress_[static_cast<size_t>(port) * slots_ + slot];
  }
  bool AdmitTo(Ingress& q, int port, Bytes size);
  void ReleaseFrom(Ingress& q, int port, int prio, Bytes size);
  bool ShouldPause(const Ingress& q, int port) const;
  bool ShouldResume(const Ingress& q, int port) const;
  // The errors, out of line: the checks sit on every packet's path.
  [[noreturn, gnu::cold, gnu::noinline]] static void Uncounted(int prio);
  [[noreturn, gnu::cold, gnu::noinline]] static void NegativeCounter(int port, int prio);
  const Ingress& At(int port, int prio) const {
    static const Ingress kNone;
    const int slot = slot_of_prio_[prio];
    return slot < 0 ? kNone : ingress_[static_cast<size_t>(port) * slots_ + slot];
  }

  SwitchConfig config_;
  std::vector<Bytes> headroom_;
  std::vector<double> alpha_;
  Bytes shared_pool_ = 0;  // buffer minus all reserves and headrooms
  Bytes xon_offset_ = 0;
  Bytes shared_used_ = 0;
  std::array<int8_t, kNumPriorities> slot_of_prio_{};  // -1: not counted
  int slots_ = 0;                                      // counted priorities
  std::vector<Ingress> ingress_;                       // per (port, counted priority)
};

}  // namespace dcqcn
