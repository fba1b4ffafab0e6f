// Bounded whole-file reads of regular files.
#include "core/input_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace dcqcn {

std::string ReadInputFile(const std::string& path, std::string_view what, size_t max_bytes) {
  auto fail = [&](std::string_view reason) {
    throw InputError(fmt::format("{}: cannot read {}: {}", path, what, reason));
  };
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (ec)
    fail(ec == std::errc::no_such_file_or_directory ? "No such file or directory" : ec.message());
  if (std::filesystem::is_directory(st)) fail("it is a directory");
  // Checked before opening: opening a FIFO for reading waits for a writer.
  if (!std::filesystem::is_regular_file(st)) fail("not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(std::strerror(errno));
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<size_t>(in.gcount()));
    if (text.size() > max_bytes) fail(fmt::format("larger than {} MiB", max_bytes >> 20));
  }
  if (in.bad()) fail(std::strerror(errno));
  return text;
}

}  // namespace dcqcn
