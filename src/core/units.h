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

// Parsers return std::nullopt on malformed input; the caller names the file, line and key.
// Accepted: "<number><unit>", number may be decimal ("24.47KB", "1.5us"), result rounded to the
// nearest base unit. Negative values parse (callers decide whether they are allowed).
std::optional<Time> ParseTime(std::string_view text);   // ps ns us ms s
std::optional<Rate> ParseRate(std::string_view text);   // bps Kbps Mbps Gbps Tbps
std::optional<Bytes> ParseSize(std::string_view text);  // B KB MB GB (decimal), KiB MiB GiB

// Shortest exact string in the largest unit that keeps an integer or short decimal value,
// such that Parse(Format(x)) == x. Used for resolved.toml and messages.
std::string FormatTime(Time t);
std::string FormatRate(Rate r);
std::string FormatSize(Bytes b);

}  // namespace dcqcn
