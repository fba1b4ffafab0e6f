// What the machine has, for bounds that depend on it, and tables that give back their slack.
#pragma once

#include <cstdint>
#include <vector>

namespace dcqcn {

// The machine's physical memory, in bytes.
uint64_t PhysicalMemoryBytes();

// Gives back what `v` holds beyond a quarter more than it uses (what was reserved, or doubled
// as it grew), for tables of millions held through a run.
template <class T>
void ShrinkSlack(std::vector<T>& v) {
  if (v.capacity() - v.size() > v.size() / 4) v.shrink_to_fit();
}

}  // namespace dcqcn
