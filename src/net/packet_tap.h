// A listener on a link that sees the packets a port sends or receives (packet captures):
// nothing happens on a link without one but a null check.
#pragma once

#include "core/units.h"
#include "net/packet.h"

namespace dcqcn {

class PacketTap {
 public:
  virtual ~PacketTap() = default;
  // `p` starts leaving its sender (sent) or has arrived whole at the receiver, at `now`.
  virtual void OnPacket(const Packet& p, Time now) = 0;
};

}  // namespace dcqcn
