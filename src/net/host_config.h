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
  // The NIC's ACK queue stops while PFC pauses the data class of the ACK's flow (HPCC ns-3 with
  // ACK_HIGH_PRIO 0: its ACK queue obeys the pause of priority 3); otherwise ACKs always go
  // first (ACK_HIGH_PRIO 1).
  bool pause_acks = false;
  // A flow may have at most its BDP in flight (HPCC ns-3 HAS_WIN), scaled by its rate over the
  // line rate when window_scales_with_rate (VAR_WIN).
  bool window = false;
  bool window_scales_with_rate = false;
  // The base RTT and BDP a flow's window and HPCC's T use: the largest over all host pairs
  // (kMax, HPCC ns-3 GLOBAL_T 1) or its own pair's (kPair, GLOBAL_T 0).
  enum class BaseRtt { kMax, kPair };
  BaseRtt base_rtt = BaseRtt::kMax;
  // What the receiver does with a data packet that arrives ahead of the next one expected
  // (packets a switch spreads over several paths overtake each other):
  //  kGoBackN:   discards it and NACKs the PSN expected; the sender resends from there (RoCE's
  //              reliable connection, the NICs before out-of-order support);
  //  kSelective: keeps it when it is within `reorder_window` packets of the PSN expected, NACKs
  //              that PSN once, and the sender resends only the PSN a NACK names (selective
  //              repeat with a bitmap, IRN: Mittal et al., SIGCOMM'18);
  //  kPlacement: places it directly whatever its order and never NACKs; the transfer is done
  //              when every byte is in, and only a timeout resends (ConnectX's out-of-order
  //              placement, which Spectrum-X's adaptive routing relies on).
  enum class Reorder { kGoBackN, kSelective, kPlacement };
  Reorder reorder = Reorder::kGoBackN;
  int reorder_window = 256;  // packets; IRN sizes its bitmap to a BDP (an assumption here)
  // Queue pairs per connection of collectives and jobs (NCCL_IB_QPS_PER_CONNECTION, NCCL's
  // default 1), unless one sets its own: read where they expand into flows (workload/).
  int qps_per_connection = 1;
};

}  // namespace dcqcn
