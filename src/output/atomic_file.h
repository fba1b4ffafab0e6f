// Files are written to a temporary name and renamed when complete, so an interrupted run
// never leaves a half-written result.
#pragma once

#include <string>

namespace dcqcn {

// Writes `content` to `path` atomically (temp file in the same directory + rename); creates
// missing parent directories. Throws std::runtime_error on I/O failure.
void WriteFileAtomic(const std::string& path, const std::string& content);

}  // namespace dcqcn
