// MurmurHash3_x86_32 (Austin Appleby, public domain), as HPCC ns-3 hashes flows for ECMP.
#include "net/hpcc_ecmp.h"

#include <map>

namespace dcqcn {
namespace {

uint32_t Rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

uint32_t MixKey(uint32_t k) { return Rotl(k * 0xcc9e2d51u, 15) * 0x1b873593u; }
uint32_t MixHash(uint32_t h, uint32_t k) { return Rotl(h ^ MixKey(k), 13) * 5 + 0xe6546b64u; }
uint32_t Finish(uint32_t h, size_t len) {
  h ^= static_cast<uint32_t>(len);
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  return h ^ (h >> 16);
}

}  // namespace

uint32_t Murmur3(const uint8_t* data, size_t len, uint32_t seed) {
  uint32_t h = seed;
  size_t i = 0;
  for (; i + 4 <= len; i += 4) {
    h = MixHash(h, static_cast<uint32_t>(data[i]) | static_cast<uint32_t>(data[i + 1]) << 8 |
                       static_cast<uint32_t>(data[i + 2]) << 16 |
                       static_cast<uint32_t>(data[i + 3]) << 24);
  }
  uint32_t tail = 0;
  for (size_t j = len; j-- > i;) tail = tail << 8 | data[j];
  if (len > i) h ^= MixKey(tail);
  return Finish(h, len);
}

// The same on three words (the bytes are the words, little-endian), without packing them.
uint32_t HpccEcmpHash(const uint32_t key[3], uint32_t seed) {
  return Finish(MixHash(MixHash(MixHash(seed, key[0]), key[1]), key[2]), 12);
}

uint32_t HpccNodeIp(int hpcc_id) {
  const uint32_t id = static_cast<uint32_t>(hpcc_id);
  return 0x0b000001u + (id / 256) * 0x00010000u + (id % 256) * 0x00000100u;
}

std::vector<uint16_t> HpccSourcePorts(const std::vector<std::pair<int, int>>& src_dst) {
  std::map<std::pair<int, int>, uint16_t> next_port;
  std::vector<uint16_t> sport;
  sport.reserve(src_dst.size());
  for (const auto& pair : src_dst) {
    auto [it, fresh] = next_port.try_emplace(pair, 10000);
    sport.push_back(it->second++);
  }
  return sport;
}

}  // namespace dcqcn
