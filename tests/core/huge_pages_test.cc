// PreferHugePages and HugePageKeeper: where the kernel offers transparent huge pages and can
// collapse memory in use (Linux 6.1+), that memory ends up in them.
#include "core/huge_pages.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <string>

namespace dcqcn {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

// THP is available unless the system disabled it ("[never]").
bool ThpAvailable() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  return std::getline(f, modes) && modes.find("[never]") == std::string::npos;
}

// 32 MB, written: resident, in 4 KB pages, with at least 14 whole 2 MB pages inside.
std::unique_ptr<char[]> TouchedBlock() {
  auto block = std::make_unique<char[]>(32 * kMiB);
  std::memset(block.get(), 1, 32 * kMiB);
  return block;
}

TEST(HugePagesTest, MemoryInUseMovesIntoHugePagesUnchanged) {
  if (!ThpAvailable()) GTEST_SKIP() << "transparent huge pages are disabled here";
  const size_t before = PreferHugePages();
  auto block = TouchedBlock();
  const size_t after = PreferHugePages();
  if (after == 0) GTEST_SKIP() << "no memory was collapsed (a kernel before 6.1, or a sanitizer)";
  EXPECT_GE(after, before + 14 * kMiB);
  for (size_t i = 0; i < 32 * kMiB; i += 4096) ASSERT_EQ(block[i], 1) << i;
}

TEST(HugePagesTest, KeeperCallsAgainOnceTheProcessHasGrownByItsStep) {
  if (!ThpAvailable()) GTEST_SKIP() << "transparent huge pages are disabled here";
  HugePageKeeper keeper(16 * kMiB);
  const size_t at_start = keeper.huge_bytes();
  auto small = std::make_unique<char[]>(4 * kMiB);
  std::memset(small.get(), 1, 4 * kMiB);
  keeper.Update();  // grown by less than the step: no call
  EXPECT_EQ(keeper.huge_bytes(), at_start);
  auto block = TouchedBlock();
  keeper.Update();
  if (keeper.huge_bytes() == 0) GTEST_SKIP() << "no memory was collapsed (before Linux 6.1?)";
  EXPECT_GE(keeper.huge_bytes(), at_start + 14 * kMiB);
}

}  // namespace
}  // namespace dcqcn
