// Atomic writes: whole files under an unpredictable exclusive temporary name, errors with reasons.
#include "output/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(WriteFileAtomic, NeverWritesThroughAPlantedTemporaryName) {
  const fs::path dir = fs::temp_directory_path() / ("dcqcn_atomic_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // The old name was predictable (PATH.tmp.PID): a symlink planted there was written through.
  std::ofstream(dir / "victim") << "precious";
  fs::create_symlink(dir / "victim", dir / ("out.csv.tmp." + std::to_string(getpid())));
  WriteFileAtomic((dir / "out.csv").string(), "a,b\n");
  EXPECT_EQ(Read(dir / "out.csv"), "a,b\n");
  EXPECT_EQ(Read(dir / "victim"), "precious");
  EXPECT_EQ(fs::status(dir / "out.csv").permissions() & fs::perms::others_read,
            fs::perms::others_read);
  fs::remove_all(dir);
}

TEST(WriteFileAtomic, AFailedWriteSaysWhyAndLeavesNoTemporaryFile) {
  // A file-size limit makes write() fail as a full disk does; the message names the reason.
  const fs::path dir = fs::temp_directory_path() / ("dcqcn_atomic2_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  auto* previous = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old;
  small.rlim_cur = 4096;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string message;
  try {
    WriteFileAtomic((dir / "big.csv").string(), std::string(1 << 20, 'x'));
  } catch (const std::exception& e) {
    message = e.what();
  }
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, previous);
  EXPECT_EQ(message, "cannot write " + (dir / "big.csv").string() + ": File too large");
  EXPECT_TRUE(fs::is_empty(dir));
  fs::remove_all(dir);
}

// A file written in pieces larger and smaller than the buffer: nothing under the final name until
// Commit, the pieces in order after it; a writer never committed leaves no file at all.
TEST(AtomicFileWriter, PiecesAppearWholeOnlyOnCommit) {
  const fs::path dir = fs::temp_directory_path() / ("dcqcn_atomic3_" + std::to_string(getpid()));
  fs::remove_all(dir);
  std::string expected;
  {
    AtomicFileWriter file((dir / "flows.csv").string());
    for (int i = 0; i < 5; ++i) {
      const std::string piece(i % 2 ? 10 : 700000, static_cast<char>('a' + i));
      file.Write(piece);
      expected += piece;
    }
    EXPECT_FALSE(fs::exists(dir / "flows.csv"));
    file.Commit();
  }
  EXPECT_EQ(Read(dir / "flows.csv"), expected);
  {
    AtomicFileWriter abandoned((dir / "other.csv").string());
    abandoned.Write(std::string(3 << 20, 'z'));  // flushed to the temporary file
  }
  EXPECT_FALSE(fs::exists(dir / "other.csv"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dcqcn
