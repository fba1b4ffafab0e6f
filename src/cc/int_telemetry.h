// In-band network telemetry as HPCC uses it: each switch on a data packet's path appends what
// its egress port saw when the packet left (docs/research/hpcc-cc-semantics.md 1.1), and the
// receiver echoes the whole stack on the ACK. Values are kept exact here; HPCC's profile reads
// them through the field widths of HPCC ns-3's IntHop (IntFields below), as that simulator's
// sender does.
#pragma once

#include <array>
#include <cstdint>

#include "core/units.h"

namespace dcqcn {

struct IntHop {
  Time time = 0;       // when the packet left the switch
  Bytes tx_bytes = 0;  // bytes the egress port had sent before this packet
  Bytes qlen = 0;      // bytes queued at that port (all classes) after this packet left
  Rate rate = 0;       // the port's line rate
};

struct IntStack {
  static constexpr int kMaxHops = 5;  // HPCC ns-3 IntHeader::maxHop
  uint32_t nhop = 0;                  // hops pushed; above kMaxHops the oldest were overwritten
  std::array<IntHop, kMaxHops> hop{};

  void Push(const IntHop& h) { hop[nhop++ % kMaxHops] = h; }
};

// HPCC ns-3's IntHop packs each hop into 64 bits: time in ns modulo 2^24, transmitted bytes in
// units of 128 x INT_MULTI modulo 2^20, queue length in units of 80 x INT_MULTI modulo 2^17
// (int-header.h). The sender's deltas undo one wrap. With `exact`, values are used as they are.
struct IntFields {
  bool exact = false;
  int64_t multi = 1;  // INT_MULTI

  static constexpr int64_t kTimeMod = int64_t{1} << 24;
  static constexpr int64_t kBytesMod = int64_t{1} << 20;
  static constexpr int64_t kQlenMod = int64_t{1} << 17;
  int64_t byte_unit() const { return 128 * multi; }
  int64_t qlen_unit() const { return 80 * multi; }

  // Nanoseconds from `old_t` to `new_t` as the 24-bit field sees them.
  int64_t TimeDeltaNs(Time old_t, Time new_t) const {
    const int64_t a = old_t / kNanosecond;
    const int64_t b = new_t / kNanosecond;
    if (exact) return b - a;
    return ((b % kTimeMod) - (a % kTimeMod) + kTimeMod) % kTimeMod;
  }
  // Bytes sent between two samples as the 20-bit field sees them.
  Bytes BytesDelta(Bytes old_b, Bytes new_b) const {
    if (exact) return new_b - old_b;
    const int64_t a = (old_b / byte_unit()) % kBytesMod;
    const int64_t b = (new_b / byte_unit()) % kBytesMod;
    return ((b - a + kBytesMod) % kBytesMod) * byte_unit();
  }
  // A queue length as the 17-bit field holds it (truncated to its unit, wrapping).
  Bytes Qlen(Bytes q) const {
    if (exact) return q;
    return ((q / qlen_unit()) % kQlenMod) * qlen_unit();
  }
};

}  // namespace dcqcn
