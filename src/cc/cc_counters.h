// Named event counts of a congestion control. Each algorithm declares its counters once (name,
// how the NICs' counts combine, meaning); summary.json and the report write them by name, so a
// new algorithm adds counters without touching the writers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace dcqcn {

enum class CcCounterKind {
  kCount,     // summed over NICs
  kMaxCount,  // the largest over NICs
  kTime,      // picoseconds, summed; written in ns as "<name>_ns"
  kMaxTime,   // picoseconds, the largest; written in ns as "<name>_ns"
};

struct CcCounterSpec {
  std::string_view name;  // the key under summary.json's "cc" (times get "_ns")
  CcCounterKind kind;
  std::string_view meaning;  // one line, for docs/metrics.md
};

class CcCounters {
 public:
  CcCounters() = default;  // no counters (algorithm "none"); adopts the first it is added
  explicit CcCounters(std::span<const CcCounterSpec> specs)
      : specs_(specs), values_(specs.size(), 0) {}

  std::span<const CcCounterSpec> specs() const { return specs_; }
  size_t size() const { return values_.size(); }
  int64_t& operator[](size_t i) { return values_[i]; }
  int64_t operator[](size_t i) const { return values_[i]; }
  // The counter called `name`; throws InvariantError when there is none (a bug of the caller).
  int64_t at(std::string_view name) const {
    for (size_t i = 0; i < specs_.size(); ++i) {
      if (specs_[i].name == name) return values_[i];
    }
    throw InvariantError("no congestion-control counter called " + std::string(name));
  }

  // Adds another NIC's counts of the same algorithm.
  CcCounters& operator+=(const CcCounters& o) {
    if (specs_.empty()) {
      *this = o;
      return *this;
    }
    if (o.specs_.data() != specs_.data()) {
      if (o.specs_.empty()) return *this;
      throw InvariantError("congestion-control counters of two algorithms added");
    }
    for (size_t i = 0; i < values_.size(); ++i) {
      const CcCounterKind k = specs_[i].kind;
      values_[i] = k == CcCounterKind::kMaxCount || k == CcCounterKind::kMaxTime
                       ? std::max(values_[i], o.values_[i])
                       : values_[i] + o.values_[i];
    }
    return *this;
  }

 private:
  std::span<const CcCounterSpec> specs_;
  std::vector<int64_t> values_;
};

}  // namespace dcqcn
