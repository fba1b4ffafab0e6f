// HPCC ns-3's ECMP (SwitchNode::GetOutDev, MODEL-NOTES.md): the next hop is
// murmur3_32(sip, dip, sport | dport << 16; seed = the switch's node id) modulo the number of
// next hops, which that simulator lists in the order of its route search. Emulating it lets a
// run take the same paths as that simulator on the same input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace dcqcn {

// MurmurHash3_x86_32 of `len` bytes.
uint32_t Murmur3(const uint8_t* data, size_t len, uint32_t seed);
// Murmur3 of the 12 bytes of `key` (three little-endian words), as that simulator's
// SwitchNode::EcmpHash.
uint32_t HpccEcmpHash(const uint32_t key[3], uint32_t seed);

// The IPv4 address that simulator gives node `hpcc_id`: 11.x.y.1 (third.cc node_id_to_ip).
uint32_t HpccNodeIp(int hpcc_id);

// Its UDP source ports: 10000, 10001, ... for each (source, destination) pair in flow order
// (third.cc portNumder).
std::vector<uint16_t> HpccSourcePorts(const std::vector<std::pair<int, int>>& src_dst);

// What the switches need to hash as that simulator does.
struct HpccEcmpKeys {
  std::vector<uint32_t> host_ip;     // per host: HpccNodeIp of its node id
  std::vector<uint32_t> flow_ports;  // per flow: sport | dport << 16, as its data carries them
};

}  // namespace dcqcn
