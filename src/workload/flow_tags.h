// The names of a scenario's flow tags. A flow spec holds a tag's index, not its name: millions of
// flows share a handful of tags.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace dcqcn {

class FlowTags {
 public:
  // The index of tag `name`, added if new; "" (no tag) is 0. Throws InputError beyond 65,535
  // distinct tags.
  uint16_t Index(std::string_view name) {
    for (size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == name) return static_cast<uint16_t>(i);
    }
    if (names_.size() > UINT16_MAX) throw InputError("more than 65535 distinct flow tags");
    names_.emplace_back(name);
    return static_cast<uint16_t>(names_.size() - 1);
  }
  const std::string& name(uint16_t index) const { return names_[index]; }

 private:
  std::vector<std::string> names_{""};
};

}  // namespace dcqcn
