// A NIC in a pause storm ([[event]] kind = "pause_storm"): from `at` to `until` it stops
// draining what it receives and sends PAUSE for every data class, refreshed at half the pause
// time, so that its switch port never sends to it; then it RESUMEs and receives what it held.
// The failure Guo et al. met in production ("RDMA over Commodity Ethernet at Scale", SIGCOMM'16,
// 4.3: a NIC whose receive pipeline stalled paused its ToR port without end, and PAUSE spread
// hop by hop through the fabric); switches' PFC watchdogs exist because of it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/simulator.h"
#include "net/rdma_nic.h"

namespace dcqcn {

class PauseStorm final : public EventHandler {
 public:
  // Enrolls and schedules its start; `classes`: the data classes it pauses.
  PauseStorm(Simulator* sim, RdmaNic* nic, Time at, Time until, std::vector<int> classes);
  void HandleEvent(uint32_t kind, uint64_t arg) override;

 private:
  enum Kind : uint32_t { kBegin = 0, kRefresh = 1, kEnd = 2 };
  void Pause();

  Simulator* sim_;
  RdmaNic* nic_;
  Time until_;
  std::vector<int> classes_;
};

}  // namespace dcqcn
