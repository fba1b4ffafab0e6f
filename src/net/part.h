// One event loop's share of a network: the nodes ThreadPlacement puts on it run their events in
// its simulator, count into its counters and take packets from its pool. A network on one loop
// has one part; split, an engine (engine/) runs the parts side by side and carries what their
// links send into other parts (`outbox`, by destination part) between windows.
#pragma once

#include <cstdint>
#include <vector>

#include "core/simulator.h"
#include "net/link.h"
#include "net/packet.h"
#include "net/stats.h"

namespace dcqcn {

struct alignas(64) Part {
  explicit Part(CcHeaderStore* headers) : pool(headers) {}
  Simulator sim;
  NetStats stats;
  PacketPool pool;
  std::vector<uint32_t> finished;  // finished flows sent from here, not yet retired
  int flows_done = 0;
  Time last_finish = 0;
  // By destination part: what links sent there since the engine last took it.
  std::vector<std::vector<Crossing>> outbox;
};

}  // namespace dcqcn
