#include "core/memory.h"

#include <unistd.h>

namespace dcqcn {

uint64_t PhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page)
                               : UINT64_MAX;
}

}  // namespace dcqcn
