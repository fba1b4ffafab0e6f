// One key of a scenario table declared once, beside the options struct it sets: its
// documentation and the member its value goes to. The loader reads the key from the row, the
// resolved.toml writer writes it back from it and the key reference documents it, so the three
// cannot disagree. Each part declares its rows next to its options (net/switch_keys.h, ...).
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/key_schema.h"

namespace dcqcn {

template <class T>
struct MemberOf;
template <class C, class M>
struct MemberOf<M C::*> {
  using Class = C;
  using Type = M;
};

// A member of enum type, read and written as one of `names` (indexed by the enum's value).
template <class Config>
struct EnumField {
  std::span<const std::string_view> names;
  int (*get)(const Config&) = nullptr;
  void (*set)(Config&, int) = nullptr;
};

// The EnumField of the enum member `kMember`: ByName<&SwitchConfig::ecmp_hash>(kNames).
template <auto kMember>
constexpr EnumField<typename MemberOf<decltype(kMember)>::Class> ByName(
    std::span<const std::string_view> names) {
  using Config = typename MemberOf<decltype(kMember)>::Class;
  using Enum = typename MemberOf<decltype(kMember)>::Type;
  return {names, [](const Config& c) { return static_cast<int>(c.*kMember); },
          [](Config& c, int v) { c.*kMember = static_cast<Enum>(v); }};
}

// How resolved.toml writes a row's value.
enum class Written {
  kAlways,
  kUnlessZero,  // left out while 0 (not given)
  kByHand,      // by the table's own code: its place or its condition is its own
};

// doc.type says how a field is read and written: an int or int64_t "integer" within
// [min, max]; an int64_t "size", "time" or "rate" (bytes, ps, bps), > 0 when min > 0, else
// >= 0, and at most max when max > 0; a "number" (double) that `valid` accepts; a "boolean";
// a "string"; an enum by name. A row without a field (a table, or a value with rules of its
// own) is read and written by hand; its documentation is still the row.
template <class Config>
struct KeyRow {
  KeySchema doc;
  std::variant<std::monostate, int Config::*, int64_t Config::*, double Config::*, bool Config::*,
               std::string Config::*, EnumField<Config>>
      field = {};
  int64_t min = 0;
  int64_t max = 0;
  // What a bad value is told to be: integers, "an integer number of packets" (the range is
  // added); numbers, "a number > 0 (...)"; sizes over max, "at most 65535 bytes (one frame)".
  std::string_view expected = {};
  bool (*valid)(double) = nullptr;  // numbers: nullptr accepts any finite value
  // Numbers: a bad value is shown as the number read ("0.0"), not as written ("0").
  bool shows_number = false;
  Written written = Written::kAlways;
};

// The documentation of `rows`, in order: a table's schema.
template <class Config>
std::vector<KeySchema> DocsOf(std::span<const KeyRow<Config>> rows) {
  std::vector<KeySchema> docs;
  docs.reserve(rows.size());
  for (const KeyRow<Config>& row : rows) docs.push_back(row.doc);
  return docs;
}

// The row of `rows` named `name`, for a table read key by key; naming no row is our bug.
template <class Config>
const KeyRow<Config>& RowNamed(std::span<const KeyRow<Config>> rows, std::string_view name) {
  for (const KeyRow<Config>& row : rows) {
    if (row.doc.name == name) return row;
  }
  throw std::logic_error("no key row named " + std::string(name));
}

}  // namespace dcqcn
