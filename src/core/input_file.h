// Reading an input file whole, bounded: only regular files (a FIFO would block, /dev/zero never
// end), at most `max_bytes`. Errors are InputErrors "PATH: cannot read WHAT: REASON".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dcqcn {

std::string ReadInputFile(const std::string& path, std::string_view what, size_t max_bytes);

}  // namespace dcqcn
