// Whole-number options of the command line.
#include "app/whole_number.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <limits>
#include <system_error>

namespace dcqcn {

std::string WholeNumberProblem(const std::string& text, int least, const std::string& omitted) {
  constexpr int64_t kMost = std::numeric_limits<int>::max();
  int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  // Digits beyond int64 are a whole number too, just too large (or too small).
  const bool whole = ptr == end && (ec == std::errc() || ec == std::errc::result_out_of_range);
  const bool too_large = whole && (ec == std::errc() ? value > kMost : text[0] != '-');
  if (ec == std::errc() && ptr == end && value >= least && value <= kMost) return "";
  const std::string got = whole ? text : fmt::format("\"{}\"", text);
  if (too_large) {
    return fmt::format("expected a whole number {}..{}{}, got {}", least, kMost, omitted, got);
  }
  return fmt::format("expected a whole number >= {}{}, got {}", least, omitted, got);
}

CLI::Validator WholeNumberAtLeast(int least, const std::string& omitted) {
  return CLI::Validator(
      [least, omitted](std::string& text) { return WholeNumberProblem(text, least, omitted); },
      least == 1 ? "POSITIVE" : fmt::format("AT LEAST {}", least),
      fmt::format("whole number >= {}", least));
}

}  // namespace dcqcn
