// Bytes of every RoCEv2 header, stated once. Frame sizes below exclude the preamble and
// inter-frame gap, which occupy the wire (serialization) but never a buffer.
#pragma once

#include "core/units.h"

namespace dcqcn {

inline constexpr Bytes kEthernetHeader = 14;  // dst MAC, src MAC, EtherType
inline constexpr Bytes kVlanTag = 4;          // 802.1Q tag carrying the PFC priority (PCP)
inline constexpr Bytes kIpv4Header = 20;
inline constexpr Bytes kUdpHeader = 8;   // RoCEv2: UDP dport 4791
inline constexpr Bytes kBthHeader = 12;  // InfiniBand base transport header
inline constexpr Bytes kIcrc = 4;
inline constexpr Bytes kFcs = 4;
inline constexpr Bytes kAethHeader = 4;       // ACK extended transport header (ACK/NACK)
inline constexpr Bytes kCnpPayload = 16;      // RoCEv2 CNP: 16 reserved bytes
inline constexpr Bytes kMinFrame = 64;        // Ethernet minimum frame (with FCS)
inline constexpr Bytes kPreambleAndGap = 20;  // 7 preamble + 1 SFD + 12 inter-frame gap

// Headers around every RoCEv2 packet: 66 bytes.
inline constexpr Bytes kRoceOverhead =
    kEthernetHeader + kVlanTag + kIpv4Header + kUdpHeader + kBthHeader + kIcrc + kFcs;

inline constexpr Bytes MinFrame(Bytes b) { return b < kMinFrame ? kMinFrame : b; }
inline constexpr Bytes DataFrameBytes(Bytes payload) { return MinFrame(payload + kRoceOverhead); }
inline constexpr Bytes kAckFrameBytes = MinFrame(kRoceOverhead + kAethHeader);
inline constexpr Bytes kCnpFrameBytes = MinFrame(kRoceOverhead + kCnpPayload);
inline constexpr Bytes kPauseFrameBytes = kMinFrame;  // MAC control frame, padded
// Bytes a frame occupies on the wire.
inline constexpr Bytes WireBytes(Bytes frame) { return frame + kPreambleAndGap; }

inline constexpr int kNumPriorities = 8;
inline constexpr int kControlQueue = 0;  // strict-high, never paused (as in HPCC's switch)
inline constexpr uint16_t kRoceUdpPort = 4791;

// One PFC pause quantum is 512 bit times at the port's rate.
inline Time PauseQuantaToTime(int quanta, Rate rate) {
  return SerializationTime(static_cast<Bytes>(quanta) * 64, rate);
}

}  // namespace dcqcn
