// Edit distance counting an insertion, a deletion, a substitution or a swap of two adjacent
// characters as one edit (optimal string alignment), for "did you mean ...?" hints on misspelt
// keys: "ria" is one edit from "rai".
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace dcqcn {

inline size_t EditDistance(std::string_view a, std::string_view b) {
  // Three rows of the table: i - 2, i - 1 and i.
  std::vector<size_t> before(b.size() + 1), prev(b.size() + 1), row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      row[j] =
          std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1] ? 1 : 0)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        row[j] = std::min(row[j], before[j - 2] + 1);
      }
    }
    before.swap(prev);
    prev.swap(row);
  }
  return prev[b.size()];
}

// The name in `names` nearest to `key` when it is a near miss: at most two edits, and fewer than
// half the key's length (so "x" suggests nothing). "" when none is.
template <class Names>
std::string NearMiss(std::string_view key, const Names& names) {
  std::string near;
  size_t best = std::min<size_t>(3, key.size() / 2 + 1);
  for (const auto& name : names) {
    const size_t d = EditDistance(key, name);
    if (d < best) {
      best = d;
      near = std::string(name);
    }
  }
  return near;
}

// "; did you mean NAME?" for a near miss of `key`, else "": to follow "unknown ...".
template <class Names>
std::string DidYouMean(std::string_view key, const Names& names) {
  const std::string near = NearMiss(key, names);
  return near.empty() ? std::string() : "; did you mean " + near + "?";
}

}  // namespace dcqcn
