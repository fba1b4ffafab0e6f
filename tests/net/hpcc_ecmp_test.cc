// HPCC ns-3's ECMP hash, addresses and source ports.
#include "net/hpcc_ecmp.h"

#include <gtest/gtest.h>

#include <string_view>

namespace dcqcn {
namespace {

TEST(HpccEcmp, HashIsMurmur3) {
  // Published MurmurHash3_x86_32 test vectors (SMHasher): the body, the tail and the seed.
  auto hash = [](std::string_view text, uint32_t seed) {
    return Murmur3(reinterpret_cast<const uint8_t*>(text.data()), text.size(), seed);
  };
  EXPECT_EQ(hash("", 1), 0x514e28b7u);
  EXPECT_EQ(hash(std::string_view("\0\0\0\0", 4), 0), 0x2362f9deu);
  EXPECT_EQ(hash("aaaa", 0x9747b28c), 0x5a97808au);
  EXPECT_EQ(hash("abc", 0), 0xb3dd93fau);
  EXPECT_EQ(hash("Hello, world!", 0x9747b28c), 0x24884cbau);
  EXPECT_EQ(hash("The quick brown fox jumps over the lazy dog", 0x9747b28c), 0x2fa826cdu);
  // The ECMP key is three little-endian words.
  const uint32_t key[3] = {0x64636261, 0x68676665, 0x6c6b6a69};  // "abcdefghijkl"
  EXPECT_EQ(HpccEcmpHash(key, 7), hash("abcdefghijkl", 7));
}

TEST(HpccEcmp, AddressesAndSourcePorts) {
  EXPECT_EQ(HpccNodeIp(0), 0x0b000001u);
  EXPECT_EQ(HpccNodeIp(1), 0x0b000101u);
  EXPECT_EQ(HpccNodeIp(256 + 55), 0x0b013701u);  // 11.1.55.1, as in fct_fat_*.txt
  // 10000, 10001, ... per (source, destination) pair, in flow order.
  EXPECT_EQ(HpccSourcePorts({{1, 2}, {1, 3}, {1, 2}, {2, 1}, {1, 2}}),
            (std::vector<uint16_t>{10000, 10000, 10001, 10000, 10002}));
}

}  // namespace
}  // namespace dcqcn
