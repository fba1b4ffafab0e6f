// A PFC frame (802.1Qbb), as switches and NICs send it.
#pragma once

#include "net/headers.h"
#include "net/packet.h"
#include "net/stats.h"

namespace dcqcn {

// The stamp a node puts on the PAUSE it sends (Packet::switch_hops): one hop further than the
// PAUSE that paused it, if any (`paused_hops` 0: none).
inline uint8_t SpreadStamp(int paused_hops) {
  return static_cast<uint8_t>(paused_hops < 254 ? paused_hops + 1 : 255);
}

// A PAUSE for `priority` of `quanta` (0: RESUME) from a node whose own fewest paused hops are
// `paused_hops`, counted in `stats`.
inline Packet* NewPfcFrame(PacketPool& pool, NetStats& stats, int priority, int quanta,
                           int paused_hops) {
  Packet* f = pool.Allocate();
  f->type = PacketType::kPause;
  f->size = kPauseFrameBytes;
  f->priority = kControlQueue;
  f->pause_class = static_cast<uint8_t>(priority);
  f->pause_quanta = static_cast<uint16_t>(quanta);
  f->src = f->dst = -1;
  f->switch_hops = SpreadStamp(paused_hops);
  ++(quanta != 0 ? stats.pfc_pause_frames : stats.pfc_resume_frames);
  return f;
}

}  // namespace dcqcn
