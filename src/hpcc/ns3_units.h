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

}  // namespace dcqcn
