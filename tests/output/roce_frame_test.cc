// The bytes of every kind of frame a capture holds, field by field (InfiniBand annex A17,
// IEEE 802.1Qbb), and the ICRC's masking.
#include "output/roce_frame.h"

#include <gtest/gtest.h>

#include "net/headers.h"

namespace dcqcn {
namespace {

uint32_t Get16(const std::vector<uint8_t>& b, size_t at) { return b[at] << 8 | b[at + 1]; }
uint32_t Get24(const std::vector<uint8_t>& b, size_t at) { return b[at] << 16 | Get16(b, at + 1); }

Packet Data(uint32_t psn, bool ce) {
  Packet p;
  p.type = PacketType::kData;
  p.flow = 7;
  p.psn = psn;
  p.payload = 1000;
  p.size = static_cast<uint32_t>(DataFrameBytes(1000));
  p.src = 1;
  p.dst = 258;
  p.sport = 50000;
  p.priority = 3;
  p.ce = ce;
  return p;
}

FrameContext Context(uint32_t total_packets, int ack_interval) {
  FrameContext c;
  c.src_mac = PortMac(1, 0);
  c.dst_mac = PortMac(9, 4);
  c.total_packets = total_packets;
  c.ack_interval = ack_interval;
  return c;
}

// Hosts get HPCC ns-3's addresses, 11.(h / 256).(h % 256).1: host addresses, never a network's
// .0 (host 0 was 10.0.0.0; issue 28, item 12).
TEST(RoceFrame, HostsGetHpccNs3sHostAddresses) {
  EXPECT_EQ(HostIp(0), 0x0b000001u);    // 11.0.0.1
  EXPECT_EQ(HostIp(1), 0x0b000101u);    // 11.0.1.1
  EXPECT_EQ(HostIp(255), 0x0b00ff01u);  // 11.0.255.1
  EXPECT_EQ(HostIp(256), 0x0b010001u);  // 11.1.0.1
  for (int h : {0, 1, 255, 256, 65535, 70000}) {
    EXPECT_EQ(HostIp(h) & 0xff, 1u) << h;
    EXPECT_NE(HostIp(h), HostIp(h + 1)) << h;
  }
}

TEST(RoceFrame, DataHasEveryRoceV2Header) {
  const std::vector<uint8_t> b = EncodeFrame(Data(5, false), Context(10, 1));
  // The frame as the model sizes it, without the FCS.
  EXPECT_EQ(b.size(), DataFrameBytes(1000) - kFcs);
  EXPECT_EQ(std::vector<uint8_t>(b.begin(), b.begin() + 6),
            (std::vector<uint8_t>{0x02, 0, 0, 9, 0, 4}));
  EXPECT_EQ(Get16(b, 12), 0x8100u);   // 802.1Q
  EXPECT_EQ(Get16(b, 14) >> 13, 3u);  // PCP = priority
  EXPECT_EQ(Get16(b, 16), 0x0800u);   // IPv4
  EXPECT_EQ(b[18], 0x45);
  EXPECT_EQ(b[19] & 3, 2);  // ECT(0)
  EXPECT_EQ(Get16(b, 20), b.size() - 18);
  EXPECT_EQ(b[27], 17);  // UDP
  EXPECT_EQ(Get16(b, 30) << 16 | Get16(b, 32), HostIp(1));
  EXPECT_EQ(Get16(b, 34) << 16 | Get16(b, 36), 0x0b010201u);  // host 258: 11.1.2.1
  uint32_t sum = 0;  // a valid header checksum sums to 0xffff
  for (size_t i = 18; i < 38; i += 2) sum += Get16(b, i);
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  EXPECT_EQ(sum, 0xffffu);
  EXPECT_EQ(Get16(b, 38), 50000u);
  EXPECT_EQ(Get16(b, 40), kRoceUdpPort);
  EXPECT_EQ(Get16(b, 42), b.size() - 38);
  EXPECT_EQ(b[46], 0x01);  // SEND middle
  EXPECT_EQ(Get16(b, 48), 0xffffu);
  EXPECT_EQ(Get24(b, 51), ResponderQp(7));
  EXPECT_EQ(b[54], 0x80);  // every packet is acknowledged
  EXPECT_EQ(Get24(b, 55), 5u);
  // First, last, only; CE; an ACK asked for only every 4th packet and on the last.
  EXPECT_EQ(EncodeFrame(Data(0, false), Context(10, 1))[46], 0x00);
  EXPECT_EQ(EncodeFrame(Data(9, false), Context(10, 1))[46], 0x02);
  EXPECT_EQ(EncodeFrame(Data(0, false), Context(1, 1))[46], 0x04);
  EXPECT_EQ(EncodeFrame(Data(5, true), Context(10, 1))[19] & 3, 3);
  EXPECT_EQ(EncodeFrame(Data(5, false), Context(10, 4))[54], 0x00);
  EXPECT_EQ(EncodeFrame(Data(7, false), Context(10, 4))[54], 0x80);
  EXPECT_EQ(EncodeFrame(Data(9, false), Context(10, 4))[54], 0x80);
}

TEST(RoceFrame, AcksNaksAndCnps) {
  Packet ack = Data(6, false);
  ack.type = PacketType::kAck;  // next expected PSN 6: acknowledges 5
  ack.payload = 0;
  std::vector<uint8_t> b = EncodeFrame(ack, Context(10, 1));
  EXPECT_EQ(b.size(), kAckFrameBytes - kFcs);
  EXPECT_EQ(b[19] & 3, 0);  // not ECT
  EXPECT_EQ(b[46], 0x11);
  EXPECT_EQ(Get24(b, 51), RequesterQp(7));
  EXPECT_EQ(Get24(b, 55), 5u);
  EXPECT_EQ(b[58], 0x1f);  // AETH: ACK
  ack.type = PacketType::kNack;
  b = EncodeFrame(ack, Context(10, 1));
  EXPECT_EQ(Get24(b, 55), 6u);
  EXPECT_EQ(b[58], 0x60);  // AETH: NAK, PSN sequence error
  Packet cnp = ack;
  cnp.type = PacketType::kCnp;
  b = EncodeFrame(cnp, Context(10, 1));
  EXPECT_EQ(b.size(), kCnpFrameBytes - kFcs);
  EXPECT_EQ(b[46], 0x81);
  EXPECT_EQ(b[50], 0x40);  // BECN
  EXPECT_EQ(Get24(b, 55), 0u);
  for (size_t i = 58; i < 74; ++i) EXPECT_EQ(b[i], 0) << i;
}

TEST(RoceFrame, PfcFramesAreMacControl) {
  Packet p;
  p.type = PacketType::kPause;
  p.pause_class = 3;
  p.pause_quanta = 0xffff;
  const std::vector<uint8_t> b = EncodeFrame(p, Context(1, 1));
  ASSERT_EQ(b.size(), kPauseFrameBytes - kFcs);
  EXPECT_EQ(std::vector<uint8_t>(b.begin(), b.begin() + 6),
            (std::vector<uint8_t>{0x01, 0x80, 0xc2, 0, 0, 1}));
  EXPECT_EQ(Get16(b, 12), 0x8808u);
  EXPECT_EQ(Get16(b, 14), 0x0101u);
  EXPECT_EQ(Get16(b, 16), 1u << 3);
  for (int c = 0; c < 8; ++c) EXPECT_EQ(Get16(b, 18 + 2 * c), c == 3 ? 0xffffu : 0u) << c;
}

// The ICRC covers what no switch changes: the same for another TTL, ECN or checksum, another for
// another payload or PSN; it ends the frame, least significant byte first.
TEST(RoceFrame, TheIcrcMasksWhatSwitchesChange) {
  std::vector<uint8_t> b = EncodeFrame(Data(5, false), Context(10, 1));
  const size_t n = b.size() - 4;
  const uint32_t icrc = RoceIcrc(b.data(), n);
  EXPECT_EQ(b[n] | b[n + 1] << 8 | b[n + 2] << 16 | static_cast<uint32_t>(b[n + 3]) << 24, icrc);
  std::vector<uint8_t> hop = b;
  hop[19] |= 3;              // CE
  hop[26] = 3;               // TTL
  hop[28] ^= 0x55;           // checksum
  hop[44] = hop[45] = 0x12;  // UDP checksum
  hop[50] = 0x80;            // FECN
  EXPECT_EQ(RoceIcrc(hop.data(), n), icrc);
  std::vector<uint8_t> other = b;
  other[100] = 1;  // payload
  EXPECT_NE(RoceIcrc(other.data(), n), icrc);
  other = b;
  other[57] ^= 1;  // PSN
  EXPECT_NE(RoceIcrc(other.data(), n), icrc);
}

}  // namespace
}  // namespace dcqcn
