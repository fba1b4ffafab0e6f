// Something that receives packets from a link: a switch or a host NIC.
#pragma once

#include "net/packet.h"

namespace dcqcn {

class Node {
 public:
  virtual ~Node() = default;
  // Takes ownership of `p`, which arrived (completely) on local port `port`.
  virtual void Receive(Packet* p, int port) = 0;
};

}  // namespace dcqcn
