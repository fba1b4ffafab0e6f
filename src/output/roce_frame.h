// The bytes on the wire of a packet as we model it, for packet captures: RoCEv2 (Ethernet,
// 802.1Q with the priority as PCP, IPv4 with the ECN bits, UDP to port 4791, the InfiniBand BTH,
// an AETH on ACKs and NAKs, the payload as zeros, the ICRC), CNPs as RoCEv2 CNPs (BTH opcode
// 0x81), PFC frames as MAC control frames (EtherType 0x8808, opcode 0x0101). Without the FCS,
// as captures hold frames.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "net/packet.h"

namespace dcqcn {

using MacAddress = std::array<uint8_t, 6>;

// A locally administered MAC per (node, port): 02:NN:NN:NN:PP:PP.
MacAddress PortMac(int node, int port);
// Host h's IPv4 address, HPCC ns-3's scheme (MODEL-NOTES: ip = 0x0b000001 + (id / 256) << 16 +
// (id % 256) << 8): 11.(h / 256).(h % 256).1, so that a capture's addresses are that simulator's
// and every host has a host address (never .0, a network's).
uint32_t HostIp(int host);

struct FrameContext {
  MacAddress src_mac{};        // the sending port's
  MacAddress dst_mac{};        // the receiving port's
  uint32_t total_packets = 1;  // of the packet's flow: SEND first, middle, last or only
  int ack_interval = 1;        // the receiver ACKs every this many packets: BTH's AckReq bit
};

// Queue pairs: the requester's (which sends the data) and the responder's of flow `id`.
uint32_t RequesterQp(uint32_t flow);
uint32_t ResponderQp(uint32_t flow);

std::vector<uint8_t> EncodeFrame(const Packet& p, const FrameContext& c);

// RoCEv2's invariant CRC of an IPv4 frame from EncodeFrame without its last 4 bytes (the ICRC):
// CRC-32 over 8 bytes of 0xFF, the IP header with TOS, TTL and checksum masked to 1s, the UDP
// header with its checksum masked, the BTH with its reserved byte masked, and the rest.
uint32_t RoceIcrc(const uint8_t* frame, size_t length);

}  // namespace dcqcn
