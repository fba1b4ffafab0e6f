// Bytes of every RoCEv2 header, stated once. Frame sizes below exclude the preamble and
// inter-frame gap, which occupy the wire (serialization) but never a buffer.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

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

// How frames are sized and timed on the wire: RoCEv2 over Ethernet by default. `dcqcn ns3`
// uses HPCC ns-3's format (its MODEL-NOTES: 48 bytes of headers, ACKs padded to 60 bytes, no
// preamble, gap or FCS, transmit times truncated to whole nanoseconds).
struct WireFormat {
  Bytes data_headers = kRoceOverhead;  // bytes around every data payload
  Bytes ack_frame = kAckFrameBytes;    // ACK and NACK frames
  // ACK bytes before padding, to which a congestion-control header is added (HPCC ns-3: 46).
  Bytes ack_headers = kRoceOverhead + kAethHeader;
  Bytes cnp_frame = kCnpFrameBytes;  // CNP frames
  Bytes min_frame = kMinFrame;       // data frames are padded up to this
  Bytes gap = kPreambleAndGap;       // wire bytes per frame that no buffer holds
  bool whole_ns = false;             // transmit times truncated to whole ns (ns-3)
  // How whole_ns rounds: down (HPCC's ns-3.17, whose Time keeps the high part) or to the
  // nearest ns (newer ns-3, as SimAI's ns-3-alibabacloud: 180.96 ns take 181).
  enum class NsRounding : uint8_t { kDown, kNearest };
  NsRounding ns_rounding = NsRounding::kDown;

  Bytes DataFrame(Bytes payload) const {
    return payload + data_headers < min_frame ? min_frame : payload + data_headers;
  }
  Bytes Wire(Bytes frame) const { return frame + gap; }
  // The wire bytes of `size` payload bytes cut into frames of `mtu` (payload, headers, gaps).
  Bytes MessageWire(Bytes size, Bytes mtu) const {
    return (size / mtu) * Wire(DataFrame(mtu)) + (size % mtu > 0 ? Wire(DataFrame(size % mtu)) : 0);
  }
  // Time to put `frame` and its gap on a wire of `rate`: rounded up to whole ps, or, with
  // whole_ns, rounded down to whole ns as ns-3's Time does.
  Time TxTime(Bytes frame, Rate rate) const {
    return WireTime(Wire(frame), rate, whole_ns, ns_rounding == NsRounding::kNearest);
  }

  // `wire_bytes` on a wire of `rate`, rounded up to whole ps, or to whole ns (down, or to the
  // nearest with `nearest`).
  static Time WireTime(Bytes wire_bytes, Rate rate, bool whole_ns, bool nearest) {
    if (!whole_ns) return SerializationTime(wire_bytes, rate);
    return WholeNs(static_cast<Time>(static_cast<__int128>(wire_bytes) * 8 * kSecond / rate),
                   nearest);
  }
  static Time WholeNs(Time ps, bool nearest) {
    const Time down = ps - ps % kNanosecond;
    return nearest && ps % kNanosecond >= kNanosecond / 2 ? down + kNanosecond : down;
  }
};

inline constexpr std::array<std::string_view, 2> kNsRoundingNames = {"down", "nearest"};

inline constexpr int kNumPriorities = 8;
inline constexpr int kControlQueue = 0;  // strict-high, never paused (as in HPCC's switch)
inline constexpr uint16_t kRoceUdpPort = 4791;

// One PFC pause quantum is 512 bit times at the port's rate.
inline Time PauseQuantaToTime(int quanta, Rate rate) {
  return SerializationTime(static_cast<Bytes>(quanta) * 64, rate);
}

// How long (in wire bytes) a PAUSE refresh may take to leave once due: the largest frame, whose
// transmission it cannot interrupt, and its own time on the wire.
inline constexpr Bytes PauseRefreshLeadBytes(Bytes max_frame) {
  return WireBytes(max_frame) + WireBytes(kPauseFrameBytes);
}
// The fewest quanta a refreshed PAUSE can last and still be refreshed before it runs out (the
// lead plus one PAUSE frame between refreshes): quanta are bit times, so this holds at any rate.
inline constexpr int MinRefreshablePauseQuanta(Bytes max_frame) {
  const Bytes bits = 8 * (PauseRefreshLeadBytes(max_frame) + WireBytes(kPauseFrameBytes));
  return static_cast<int>((bits + 511) / 512);
}

}  // namespace dcqcn
