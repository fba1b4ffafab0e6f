// RoCEv2 frames, byte by byte (InfiniBand Architecture Specification vol. 1, chapter 9 and annex
// A17 "RoCEv2"; IEEE 802.1Qbb for PFC).
#include "output/roce_frame.h"

#include <algorithm>

#include "net/headers.h"

namespace dcqcn {
namespace {

constexpr uint8_t kOpSendFirst = 0x00;
constexpr uint8_t kOpSendMiddle = 0x01;
constexpr uint8_t kOpSendLast = 0x02;
constexpr uint8_t kOpSendOnly = 0x04;
constexpr uint8_t kOpAcknowledge = 0x11;
constexpr uint8_t kOpCnp = 0x81;
constexpr uint8_t kAethAck = 0x1f;     // ACK, credits not counted
constexpr uint8_t kAethNakSeq = 0x60;  // NAK: PSN sequence error
constexpr uint8_t kEcnNotEct = 0, kEcnEct0 = 2, kEcnCe = 3;
// Where each header starts (net/headers.h's sizes).
constexpr size_t kIpStart = kEthernetHeader + kVlanTag;
constexpr size_t kUdpStart = kIpStart + kIpv4Header;
constexpr size_t kBthStart = kUdpStart + kUdpHeader;

void Put16(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  b[at] = static_cast<uint8_t>(v >> 8);
  b[at + 1] = static_cast<uint8_t>(v);
}
void Put24(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  b[at] = static_cast<uint8_t>(v >> 16);
  Put16(b, at + 1, v);
}
void Put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  Put16(b, at, v >> 16);
  Put16(b, at + 2, v);
}

uint32_t Crc32(uint32_t crc, const uint8_t* data, size_t n) {
  static const auto table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  for (size_t i = 0; i < n; ++i) crc = table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
  return crc;
}

std::vector<uint8_t> PfcFrame(const Packet& p, const FrameContext& c) {
  std::vector<uint8_t> b(kPauseFrameBytes - kFcs, 0);  // the minimum frame
  static constexpr MacAddress kPfcMac = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x01};
  std::copy(kPfcMac.begin(), kPfcMac.end(), b.begin());
  std::copy(c.src_mac.begin(), c.src_mac.end(), b.begin() + 6);
  Put16(b, 12, 0x8808);               // MAC control
  Put16(b, 14, 0x0101);               // priority-based flow control
  Put16(b, 16, 1u << p.pause_class);  // class-enable vector
  Put16(b, 18 + 2 * p.pause_class, p.pause_quanta);
  return b;
}

}  // namespace

MacAddress PortMac(int node, int port) {
  const auto n = static_cast<uint32_t>(node);
  const auto q = static_cast<uint32_t>(port);
  return {0x02,
          static_cast<uint8_t>(n >> 16),
          static_cast<uint8_t>(n >> 8),
          static_cast<uint8_t>(n),
          static_cast<uint8_t>(q >> 8),
          static_cast<uint8_t>(q)};
}

uint32_t HostIp(int host) {
  const auto h = static_cast<uint32_t>(host);
  return 0x0b000001u + ((h / 256) << 16) + ((h % 256) << 8);
}

uint32_t RequesterQp(uint32_t flow) { return (2 * flow + 2) & 0xffffff; }
uint32_t ResponderQp(uint32_t flow) { return (2 * flow + 3) & 0xffffff; }

uint32_t RoceIcrc(const uint8_t* frame, size_t length) {
  std::vector<uint8_t> masked(frame + kIpStart, frame + length);
  masked[1] = 0xff;                         // IPv4 TOS: DSCP and ECN
  masked[8] = 0xff;                         // TTL
  masked[10] = masked[11] = 0xff;           // header checksum
  masked[kUdpStart - kIpStart + 6] = 0xff;  // UDP checksum
  masked[kUdpStart - kIpStart + 7] = 0xff;
  masked[kBthStart - kIpStart + 4] = 0xff;  // BTH: FECN, BECN and reserved bits
  static constexpr uint8_t kLrhMask[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  uint32_t crc = Crc32(0xffffffffu, kLrhMask, 8);
  crc = Crc32(crc, masked.data(), masked.size());
  return ~crc;
}

std::vector<uint8_t> EncodeFrame(const Packet& p, const FrameContext& c) {
  if (p.type == PacketType::kPause) return PfcFrame(p, c);
  const bool data = p.type == PacketType::kData;
  const bool cnp = p.type == PacketType::kCnp;
  const size_t extra = data ? p.payload : cnp ? kCnpPayload : kAethHeader;
  const size_t length = kBthStart + kBthHeader + extra + kIcrc;
  std::vector<uint8_t> b(length, 0);
  // Ethernet and 802.1Q: the priority as PCP, VLAN 0 (a priority tag).
  std::copy(c.dst_mac.begin(), c.dst_mac.end(), b.begin());
  std::copy(c.src_mac.begin(), c.src_mac.end(), b.begin() + 6);
  Put16(b, 12, 0x8100);
  Put16(b, 14, static_cast<uint32_t>(p.priority & 7) << 13);
  Put16(b, 16, 0x0800);
  // IPv4: DSCP = 8 x priority, ECN: ECT(0) on data (CE once marked), not-ECT otherwise.
  const size_t ip = kIpStart;
  const uint8_t ecn = !data ? kEcnNotEct : p.ce ? kEcnCe : kEcnEct0;
  b[ip] = 0x45;
  b[ip + 1] = static_cast<uint8_t>(((p.priority & 7) << 5) | ecn);
  Put16(b, ip + 2, static_cast<uint32_t>(length - kIpStart));
  Put16(b, ip + 6, 0x4000);  // don't fragment
  b[ip + 8] = 64;            // TTL
  b[ip + 9] = 17;            // UDP
  Put32(b, ip + 12, HostIp(p.src));
  Put32(b, ip + 16, HostIp(p.dst));
  uint32_t sum = 0;
  for (size_t i = 0; i < 20; i += 2) sum += static_cast<uint32_t>(b[ip + i] << 8 | b[ip + i + 1]);
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  Put16(b, ip + 10, ~sum & 0xffff);
  // UDP: the flow's source port (ECMP entropy), RoCEv2's port, no checksum (allowed).
  Put16(b, kUdpStart, p.sport);
  Put16(b, kUdpStart + 2, kRoceUdpPort);
  Put16(b, kUdpStart + 4, static_cast<uint32_t>(length - kUdpStart));
  // BTH.
  const size_t bth = kBthStart;
  uint32_t psn = 0;
  if (data) {
    const bool first = p.psn == 0;
    const bool last = p.psn + 1 >= c.total_packets;
    b[bth] = first && last ? kOpSendOnly
             : first       ? kOpSendFirst
             : last        ? kOpSendLast
                           : kOpSendMiddle;
    const bool ack_requested =
        last || (c.ack_interval > 0 && (p.psn + 1) % static_cast<uint32_t>(c.ack_interval) == 0);
    b[bth + 8] = ack_requested ? 0x80 : 0;
    psn = p.psn;
    Put24(b, bth + 5, ResponderQp(p.flow));
  } else {
    b[bth] = cnp ? kOpCnp : kOpAcknowledge;
    if (cnp) b[bth + 4] = 0x40;  // BECN
    Put24(b, bth + 5, RequesterQp(p.flow));
    // An ACK names the last PSN it acknowledges (ours carry the next expected one); a NAK the
    // PSN it expected.
    if (p.type == PacketType::kAck) psn = p.psn - 1;
    if (p.type == PacketType::kNack) psn = p.psn;
  }
  Put16(b, bth + 2, 0xffff);  // default partition key
  Put24(b, bth + 9, psn & 0xffffff);
  if (!data && !cnp) {
    b[bth + kBthHeader] = p.type == PacketType::kNack ? kAethNakSeq : kAethAck;
  }
  // ICRC, as transmitted: least significant byte first.
  const uint32_t icrc = RoceIcrc(b.data(), length - kIcrc);
  for (int i = 0; i < 4; ++i) b[length - kIcrc + i] = static_cast<uint8_t>(icrc >> (8 * i));
  return b;
}

}  // namespace dcqcn
