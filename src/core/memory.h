// What the machine has, for bounds that depend on it.
#pragma once

#include <cstdint>

namespace dcqcn {

// The machine's physical memory, in bytes.
uint64_t PhysicalMemoryBytes();

}  // namespace dcqcn
