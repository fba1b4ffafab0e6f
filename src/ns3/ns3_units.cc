// ns-3 DataRate and Time strings, mapped onto our own unit parsers so rounding is the same.
#include "ns3/ns3_units.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace dcqcn {
namespace {

// Splits "12.5Mb/s" into "12.5" and "Mb/s"; the number part is digits with at most one '.'.
bool SplitNumber(std::string_view text, std::string* number, std::string_view* suffix) {
  size_t i = 0;
  bool digits = false;
  int dots = 0;
  while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) {
    digits = digits || text[i] != '.';
    dots += text[i] == '.';
    ++i;
  }
  if (!digits || dots > 1) return false;
  *number = std::string(text.substr(0, i));
  *suffix = text.substr(i);
  return true;
}

// number x factor, rounded; nullopt beyond `max` (kMaxRate or kMaxTime, as our parsers bound).
std::optional<int64_t> Scaled(const std::string& number, double factor, int64_t max) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(number.c_str(), &end) * factor;
  if (errno != 0 || !std::isfinite(v) || v > static_cast<double>(max)) return std::nullopt;
  return std::llround(v);
}

}  // namespace

std::optional<Rate> ParseNs3DataRate(std::string_view text) {
  std::string number;
  std::string_view suffix;
  if (!SplitNumber(text, &number, &suffix)) return std::nullopt;
  if (suffix.empty()) return ParseRate(number + "bps");
  // The unit is "<prefix><b|B><ps|/s>".
  bool found = false;
  bool bytes = false;
  std::string_view prefix;
  for (std::string_view tail : {"bps", "b/s", "Bps", "B/s"}) {
    if (suffix.size() >= tail.size() && suffix.substr(suffix.size() - tail.size()) == tail) {
      found = true;
      bytes = tail[0] == 'B';
      prefix = suffix.substr(0, suffix.size() - tail.size());
      break;
    }
  }
  if (!found) return std::nullopt;
  std::optional<Rate> bits;
  if (prefix.empty()) {
    bits = ParseRate(number + "bps");
  } else if (prefix == "k" || prefix == "K") {
    bits = ParseRate(number + "Kbps");
  } else if (prefix == "M") {
    bits = ParseRate(number + "Mbps");
  } else if (prefix == "G") {
    bits = ParseRate(number + "Gbps");
  } else if (prefix == "Ki") {
    bits = Scaled(number, 1024.0, kMaxRate);
  } else if (prefix == "Mi") {
    bits = Scaled(number, 1024.0 * 1024, kMaxRate);
  } else if (prefix == "Gi") {
    bits = Scaled(number, 1024.0 * 1024 * 1024, kMaxRate);
  }
  if (!bits || (bytes && *bits > kMaxRate / 8)) return std::nullopt;  // beyond kMaxRate
  return bytes ? *bits * 8 : *bits;
}

std::optional<Time> ParseNs3Time(std::string_view text) {
  std::string number;
  std::string_view suffix;
  if (!SplitNumber(text, &number, &suffix)) return std::nullopt;
  if (suffix.empty()) return ParseTime(number + "s");
  if (suffix == "s" || suffix == "ms" || suffix == "us" || suffix == "ns" || suffix == "ps") {
    return ParseTime(number + std::string(suffix));
  }
  if (suffix == "min") return Scaled(number, 60.0 * kSecond, kMaxTime);
  if (suffix == "h") return Scaled(number, 3600.0 * kSecond, kMaxTime);
  if (suffix == "d") return Scaled(number, 86400.0 * kSecond, kMaxTime);
  return std::nullopt;
}

std::optional<Time> ParseSeconds(std::string_view text) {
  std::string number;
  std::string_view suffix;
  if (SplitNumber(text, &number, &suffix) && suffix.empty()) return ParseTime(number + "s");
  // Other forms C's strtod reads ("1e-3"), rounded to the picosecond.
  const std::string copy(text);
  if (copy.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || errno != 0 || !std::isfinite(v) || v < 0 ||
      v > static_cast<double>(kMaxTime / kSecond)) {
    return std::nullopt;
  }
  return std::llround(v * static_cast<double>(kSecond));
}

std::optional<Time> ParseNs3Seconds(std::string_view text) {
  if (!ParseSeconds(text)) return std::nullopt;  // the same syntax and range
  const std::string copy(text);
  const double v = std::strtod(copy.c_str(), nullptr);
  // Exactly, as ns-3's 64.64 fixed point does: v = m * 2^e with a 53-bit m, so v * 1e9 =
  // m * 1e9 * 2^e fits 128 bits. ("2.001428604" * 1e9 is 2001428603.99999999998: a long
  // double would round it up.)
  int exp = 0;
  const double frac = std::frexp(v, &exp);
  const __int128 m = static_cast<__int128>(std::ldexp(frac, 53)) * 1000000000;
  const int e = exp - 53;
  const __int128 ns = e >= 0 ? m << e : (-e >= 127 ? 0 : m >> -e);
  return static_cast<Time>(ns) * kNanosecond;
}

}  // namespace dcqcn
