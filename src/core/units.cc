// Parsing and printing of times, rates and sizes with unit suffixes.
#include "core/units.h"

#include <cmath>
#include <cstdlib>
#include <utility>
#include <vector>

namespace dcqcn {
namespace {

struct Unit {
  std::string_view suffix;
  int64_t scale;
};

std::string Format(int64_t v, const std::vector<Unit>& units);

// Splits "12.5us" into a number and a suffix and looks the suffix up (exact, case-sensitive).
std::optional<int64_t> ParseWithUnits(std::string_view text, const std::vector<Unit>& units,
                                      int64_t max, std::string* why) {
  size_t i = 0;
  while (i < text.size() && (text[i] == ' ')) ++i;
  size_t num_begin = i;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  bool digits = false;
  while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) {
    digits = digits || text[i] != '.';
    ++i;
  }
  if (!digits) return std::nullopt;
  std::string number(text.substr(num_begin, i - num_begin));
  if (number.find('.') != number.rfind('.')) return std::nullopt;
  while (i < text.size() && text[i] == ' ') ++i;
  std::string_view suffix = text.substr(i);
  for (const Unit& u : units) {
    if (u.suffix != suffix) continue;
    // Split integer and fraction so large integers stay exact.
    bool negative = number[0] == '-';
    if (number[0] == '-' || number[0] == '+') number.erase(0, 1);
    size_t dot = number.find('.');
    std::string int_part = number.substr(0, dot);
    while (int_part.size() > 1 && int_part[0] == '0') int_part.erase(0, 1);
    std::string frac_part = dot == std::string::npos ? "" : number.substr(dot + 1);
    if (int_part.size() > 18) {  // beyond any bound (and 64 bits)
      if (why != nullptr) *why = "at most " + Format(max, units);
      return std::nullopt;
    }
    __int128 whole = int_part.empty() ? 0 : std::strtoll(int_part.c_str(), nullptr, 10);
    __int128 value = whole * u.scale;
    if (!frac_part.empty()) {
      if (frac_part.size() > 18) frac_part.resize(18);
      __int128 frac = std::strtoll(frac_part.c_str(), nullptr, 10);
      __int128 denom = 1;
      for (size_t k = 0; k < frac_part.size(); ++k) denom *= 10;
      value += (frac * u.scale + denom / 2) / denom;
    }
    if (value > max) {
      if (why != nullptr) *why = "at most " + Format(max, units);
      return std::nullopt;
    }
    return negative ? -static_cast<int64_t>(value) : static_cast<int64_t>(value);
  }
  return std::nullopt;
}

const std::vector<Unit> kTimeUnits = {{"ps", kPicosecond},
                                      {"ns", kNanosecond},
                                      {"us", kMicrosecond},
                                      {"ms", kMillisecond},
                                      {"s", kSecond}};
const std::vector<Unit> kRateUnits = {
    {"bps", 1}, {"Kbps", kKbps}, {"Mbps", kMbps}, {"Gbps", kGbps}, {"Tbps", 1000 * kGbps}};
const std::vector<Unit> kSizeUnits = {
    {"B", 1},         {"KB", 1000},     {"MB", 1000 * 1000}, {"GB", 1000LL * 1000 * 1000},
    {"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1LL << 30}};

// Picks the largest unit in which the value has at most 3 decimals and prints it exactly.
std::string Format(int64_t v, const std::vector<Unit>& units) {
  if (v == 0) return std::string("0") + std::string(units.front().suffix);
  const Unit* best = &units.front();
  for (const Unit& u : units) {
    if (u.suffix.find('i') != std::string_view::npos) continue;  // prefer decimal units
    // 128-bit: v * 1000 overflows int64 above ~9.2e15 (e.g. times beyond 2.5 hours).
    if (std::llabs(v) >= u.scale && (static_cast<__int128>(v) * 1000) % u.scale == 0) best = &u;
  }
  int64_t whole = v / best->scale;
  int64_t rem = std::llabs(v % best->scale);
  std::string out = std::to_string(whole);
  if (v < 0 && whole == 0) out = "-0";
  if (rem != 0) {
    // rem * 1000 / scale is exact by the choice of unit.
    std::string frac = std::to_string(rem * 1000 / best->scale);
    while (frac.size() < 3) frac.insert(0, "0");
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
    out += "." + frac;
  }
  return out + std::string(best->suffix);
}

}  // namespace

std::optional<Time> ParseTime(std::string_view text, std::string* why) {
  return ParseWithUnits(text, kTimeUnits, kMaxTime, why);
}
std::optional<Rate> ParseRate(std::string_view text, std::string* why) {
  return ParseWithUnits(text, kRateUnits, kMaxRate, why);
}
std::optional<Bytes> ParseSize(std::string_view text, std::string* why) {
  return ParseWithUnits(text, kSizeUnits, kMaxSize, why);
}

std::string FormatTime(Time t) { return Format(t, kTimeUnits); }
std::string FormatRate(Rate r) { return Format(r, kRateUnits); }
std::string FormatSize(Bytes b) { return Format(b, kSizeUnits); }

}  // namespace dcqcn
