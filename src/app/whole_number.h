// The command line's whole-number options (--threads, --jobs, --seeds, --flows), checked with a
// message that says what they accept: CLI11's own range check prints its bounds as doubles
// ("Value 0 not in range 0.000000 to 1797...").
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace dcqcn {

// Why `text` is not a whole number from `least` up to INT_MAX ("" when it is one), e.g.
// "expected a whole number >= 1 (or omit it for automatic), got 0". `omitted` follows the
// bound: what leaving the option out means, or "".
std::string WholeNumberProblem(const std::string& text, int least, const std::string& omitted);

// The same as a CLI11 check: the error reads "--threads: expected a whole number >= 1 ...".
CLI::Validator WholeNumberAtLeast(int least, const std::string& omitted = "");

}  // namespace dcqcn
