// Bounded reads of input files: devices and FIFOs are refused before they can hang a run.
#include "core/input_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

std::string ErrorOf(const std::string& path, size_t max_bytes = 1 << 20) {
  try {
    ReadInputFile(path, "test file", max_bytes);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ReadInputFile, RefusesDevicesFifosDirectoriesAndOversizedFiles) {
  EXPECT_EQ(ErrorOf("/dev/zero"), "/dev/zero: cannot read test file: not a regular file");
  const fs::path dir = fs::temp_directory_path() / ("dcqcn_input_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string fifo = (dir / "fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(ErrorOf(fifo), fifo + ": cannot read test file: not a regular file");
  EXPECT_EQ(ErrorOf(dir.string()), dir.string() + ": cannot read test file: it is a directory");
  EXPECT_NE(ErrorOf((dir / "none").string()).find("No such file"), std::string::npos);
  const std::string big = (dir / "big").string();
  std::ofstream(big) << std::string(3 << 20, 'x');
  EXPECT_EQ(ErrorOf(big, 2 << 20), big + ": cannot read test file: larger than 2 MiB");
  const std::string ok = (dir / "ok").string();
  std::ofstream(ok) << "a = 1\n";
  EXPECT_EQ(ReadInputFile(ok, "test file", 1 << 20), "a = 1\n");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dcqcn
