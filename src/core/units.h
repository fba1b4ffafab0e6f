// Physical quantities of the simulator and the one place where they are parsed and printed.
// Time is integer picoseconds, rates are bits per second, sizes are bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dcqcn {

using Time = int64_t;   // picoseconds
using Rate = int64_t;   // bits per second
using Bytes = int64_t;  // bytes

inline constexpr Time kPicosecond = 1;
inline constexpr Time kNanosecond = 1000;
inline constexpr Time kMicrosecond = 1000 * kNanosecond;
inline constexpr Time kMillisecond = 1000 * kMicrosecond;
inline constexpr Time kSecond = 1000 * kMillisecond;
inline constexpr Time kTimeNever = INT64_MAX;

inline constexpr Rate kKbps = 1000;
inline constexpr Rate kMbps = 1000 * kKbps;
inline constexpr Rate kGbps = 1000 * kMbps;

// The largest time, rate and size (in magnitude) any input may give; the parsers below reject
// more, so these bounds hold for every value from a scenario, an HPCC file or the command line.
// They are far beyond any simulated network and keep the simulator's arithmetic on them inside
// 64 bits: a sum of a few (now + delay, start + window) stays below INT64_MAX, and products
// (rate x time, bytes x 8 x 1e12) are done in 128 bits (below).
inline constexpr Time kMaxTime = 1000000 * kSecond;  // 1,000,000 s, 11.6 days
inline constexpr Rate kMaxRate = 1000000 * kGbps;    // 1 Pb/s
inline constexpr Bytes kMaxSize = 1000000000000000;  // 1 PB

// Time to put `bytes` on a wire of `rate`, rounded up to a whole picosecond.
inline Time SerializationTime(Bytes bytes, Rate rate) {
  // bytes * 8e12 overflows int64 above ~1.1 MB; use 128-bit to be safe for any size.
  __int128 num = static_cast<__int128>(bytes) * 8 * kSecond;
  return static_cast<Time>((num + rate - 1) / rate);
}

// Bytes a wire of `rate` carries in `t` (rounded down).
inline Bytes BytesInTime(Time t, Rate rate) {
  __int128 num = static_cast<__int128>(t) * rate;
  return static_cast<Bytes>(num / (8 * static_cast<__int128>(kSecond)));
}

// Parsers return std::nullopt on malformed input and on a magnitude beyond kMaxTime, kMaxRate or
// kMaxSize; the caller names the file, line and key, and `why`, when given, receives the reason
// for a value beyond the bound ("at most 1000000s"). Accepted: "<number><unit>", number may be
// decimal ("24.47KB", "1.5us"), result rounded to the nearest base unit. Negative values parse
// (callers decide whether they are allowed).
std::optional<Time> ParseTime(std::string_view text, std::string* why = nullptr);   // ps .. s
std::optional<Rate> ParseRate(std::string_view text, std::string* why = nullptr);   // bps .. Tbps
std::optional<Bytes> ParseSize(std::string_view text, std::string* why = nullptr);  // B .. GiB

// Shortest exact string in the largest unit that keeps an integer or short decimal value,
// such that Parse(Format(x)) == x. Used for resolved.toml and messages.
std::string FormatTime(Time t);
std::string FormatRate(Rate r);
std::string FormatSize(Bytes b);

}  // namespace dcqcn
