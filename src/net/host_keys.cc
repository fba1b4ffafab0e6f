#include "net/host_keys.h"

#include <limits>

namespace dcqcn {
namespace {

using K = KeyKind;

constexpr std::string_view kBaseRttNames[] = {"max", "pair"};  // by HostConfig::BaseRtt
constexpr std::string_view kReorderNames[] = {"go_back_n", "selective",
                                              "placement"};  // by HostConfig::Reorder

constexpr KeyRow<HostConfig> kHostKeys[] = {
    {.doc = {"mtu", K::kValue, "integer", "bytes", "1000",
             "Payload bytes per data packet, 64..9000 (the frame adds 66 bytes of RoCEv2 "
             "headers). HPCC: PACKET_PAYLOAD_SIZE 1000."},
     .field = &HostConfig::mtu,
     .min = 64,
     .max = 9000,
     .expected = "an integer number of payload bytes"},
    {.doc = {"ack_interval", K::kValue, "integer", "packets", "1",
             "The receiver ACKs every N data packets. HPCC: L2_ACK_INTERVAL 1."},
     .field = &HostConfig::ack_interval,
     .min = 1,
     .max = std::numeric_limits<int>::max(),
     .expected = "an integer number of packets"},
    {.doc = {"rto", K::kValue, "time", "", "\"4ms\"",
             "Go-back-N retransmission timeout. InfiniBand: 4.096 us x 2^10."},
     .field = &HostConfig::rto,
     .min = 1},
    {.doc = {"reorder", K::kValue, "string", "", "\"go_back_n\"",
             "What the receiving NIC does with a data packet that overtook the one expected "
             "(switch.load_balancing other than ecmp reorders): \"go_back_n\" (discard it and "
             "NACK the PSN expected; the sender resends from there: RoCE's reliable connection), "
             "\"selective\" (keep it within reorder_window packets, NACK the hole once; the "
             "sender resends only the PSN NACKed: IRN's selective repeat) or \"placement\" "
             "(place it whatever its order, never NACK; done when every byte is in, only a "
             "timeout resends: ConnectX's out-of-order placement for adaptive routing). "
             "summary.json counts out_of_order_packets and duplicate_packets."},
     .field = ByName<&HostConfig::reorder>(kReorderNames)},
    {.doc = {"reorder_window", K::kValue, "integer", "packets", "256",
             "reorder = \"selective\": how far ahead of the PSN expected a packet may be and "
             "still be kept (the receiver's bitmap); beyond it, it is discarded and NACKed."},
     .field = &HostConfig::reorder_window,
     .min = 1,
     .max = 1 << 24,
     .expected = "an integer number of packets"},
    {.doc = {"qps_per_connection", K::kValue, "integer", "", "1",
             "Queue pairs per connection of every collective and job that does not set its own "
             "(NCCL_IB_QPS_PER_CONNECTION, NCCL's default 1): each transfer split over them, "
             "each its own UDP source port and congestion-control state."},
     .field = &HostConfig::qps_per_connection,
     .min = 1,
     .max = 16,
     .expected = "an integer number of queue pairs"},
    {.doc = {"ack_in_data_class", K::kValue, "boolean", "", "false",
             "ACKs and NACKs cross switches in their flow's data class (queued behind data, "
             "counted in the shared buffer, paused by PFC) instead of the strict-priority control "
             "queue. HPCC ns-3's switches do so (true in `dcqcn ns3`); CNPs always use the "
             "control queue."},
     .field = &HostConfig::ack_in_data_class},
    {.doc = {"pause_acks", K::kValue, "boolean", "", "false",
             "The NIC's ACK queue waits while PFC pauses the data class of the ACK at its head, "
             "instead of always going first. HPCC ns-3 with ACK_HIGH_PRIO 0 (its ACK queue obeys "
             "the pause of priority 3)."},
     .field = &HostConfig::pause_acks},
    {.doc = {"window", K::kValue, "boolean", "", "false",
             "Each flow may have at most its bandwidth-delay product (base_rtt) in flight, in any "
             "congestion control. HPCC ns-3: HAS_WIN."},
     .field = &HostConfig::window},
    {.doc = {"window_scales_with_rate", K::kValue, "boolean", "", "false",
             "The window is the BDP times the flow's rate over the line rate (whole bytes, at "
             "least 1). HPCC ns-3: VAR_WIN."},
     .field = &HostConfig::window_scales_with_rate},
    {.doc = {"base_rtt", K::kValue, "string", "", "\"max\"",
             "Which base RTT and BDP a flow's window and HPCC's T use: `\"max\"`, the largest "
             "over all host pairs (HPCC ns-3 GLOBAL_T 1), or `\"pair\"`, its own pair's. Base RTT "
             "as HPCC ns-3: propagation both ways plus one payload's serialization per link; "
             "BDP: that times the slowest link's rate."},
     .field = ByName<&HostConfig::base_rtt>(kBaseRttNames)},
};

}  // namespace

std::span<const KeyRow<HostConfig>> HostKeys() { return kHostKeys; }

}  // namespace dcqcn
