// A switch's PFC watchdog, as SONiC's pfcwd (SONiC wiki "PFC Watchdog Design"; sonic-swss
// pfcwdorch): a lossless egress queue that holds packets and has been paused without a break for
// `detection` is declared stormed. Until no PAUSE for it has arrived for `restoration`, the port
// ignores PAUSE on that priority and either drops what the queue holds and whatever is routed to
// it (action drop) or sends it on (action forward).
//
// Real watchdogs poll counters (every 100-200 ms by default); this one checks at the instant a
// pause has lasted `detection`, and again every `detection` while it lasts with the queue empty,
// which is what a poll at that period would see.
#pragma once

#include <cstdint>
#include <vector>

#include "core/simulator.h"
#include "net/headers.h"
#include "net/stats.h"
#include "net/switch_config.h"

namespace dcqcn {

class SwitchNode;

class PfcWatchdog final : public EventHandler {
 public:
  PfcWatchdog(Simulator* sim, NetStats* stats, SwitchNode* owner, const PfcWatchdogConfig& config)
      : sim_(sim), stats_(stats), owner_(owner), config_(config) {
    sim->Enroll(*this);
  }
  // Sized once the switch has its ports.
  void Init(int num_ports) { slots_.assign(static_cast<size_t>(num_ports) * kNumPriorities, {}); }

  // A PFC frame for `priority` arrived on `port` (`pause`: with a non-zero time). True when the
  // port must ignore it: the queue is stormed.
  bool OnPfcFrame(int port, int priority, bool pause);
  // After the port applied a PAUSE: a pause that begins now is checked after `detection`.
  void AfterPause(int port, int priority);
  // Packets routed to this queue are dropped (stormed, action drop).
  bool Drops(int port, int priority) const {
    return config_.action == PfcWatchdogConfig::Action::kDrop && slot(port, priority).stormed;
  }
  bool stormed(int port, int priority) const { return slot(port, priority).stormed; }

  void HandleEvent(uint32_t kind, uint64_t arg) override;

 private:
  enum Kind : uint32_t { kDetect = 0, kRestore = 1 };
  struct Slot {
    bool stormed = false;
    Time pause_since = -1;          // the pause a pending detection check is for
    Time last_pause = -1;           // the latest PAUSE (non-zero time) that arrived
    Time next_detect = kTimeNever;  // a detection event at another time is stale
    Time next_restore = kTimeNever;
  };
  Slot& slot(int port, int priority) { return slots_[port * kNumPriorities + priority]; }
  const Slot& slot(int port, int priority) const {
    return slots_[port * kNumPriorities + priority];
  }
  void Detect(int port, int priority);
  void Restore(int port, int priority);
  void ScheduleAt(Kind kind, Time at, int port, int priority);

  Simulator* sim_;
  NetStats* stats_;
  SwitchNode* owner_;
  PfcWatchdogConfig config_;
  std::vector<Slot> slots_;  // per (port, priority)
};

}  // namespace dcqcn
