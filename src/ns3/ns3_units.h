// The unit strings of the HPCC ns-3 simulator's files: ns-3 DataRate ("100Gbps", "20Mb/s"),
// ns-3 Time ("0.001ms", "1000ns", a bare number is seconds) and plain decimal seconds.
#pragma once

#include <optional>
#include <string_view>

#include "core/units.h"

namespace dcqcn {

// ns-3 DataRate text: a decimal number and one of bps b/s Bps B/s, with an optional prefix
// k K M G (decimal) or Ki Mi Gi (binary); byte units count 8 bits. A bare number is bits/s.
std::optional<Rate> ParseNs3DataRate(std::string_view text);

// ns-3 Time text: a decimal number and one of s ms us ns ps min h d; a bare number is seconds.
std::optional<Time> ParseNs3Time(std::string_view text);

// Decimal seconds ("2.000000828", "1e-3"), exact to the picosecond for plain decimals.
std::optional<Time> ParseSeconds(std::string_view text);
// A flow's start as that simulator takes it: the text read into a double (`flowf >>
// start_time`), then Seconds(double) truncated to whole nanoseconds. "2.000013072" is the
// double 2.00001307199999..., so the flow starts at 2000013071 ns (MODEL-NOTES.md: ns-3 Time
// from a double is truncated; the double's exact value counts).
std::optional<Time> ParseNs3Seconds(std::string_view text);

}  // namespace dcqcn
