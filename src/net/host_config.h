// A host NIC's transport settings.
#pragma once

#include "core/units.h"

namespace dcqcn {

struct HostConfig {
  int mtu = 1000;               // payload bytes per packet (HPCC PACKET_PAYLOAD_SIZE)
  int ack_interval = 1;         // ACK every N data packets (HPCC L2_ACK_INTERVAL 1)
  Time rto = 4 * kMillisecond;  // go-back-N retransmission timeout (IB: 4.096us * 2^10)
  // ACKs and NACKs cross switches in the strict-priority control queue (false), or in their
  // flow's data class (true: HPCC ns-3's switches, which queue them with data, count them in
  // the buffer and pause them with PFC).
  bool ack_in_data_class = false;
};

}  // namespace dcqcn
