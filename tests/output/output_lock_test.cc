// One writer per result folder: concurrent sweeps or runs into one --out never share a folder,
// the others stop with a clear error, and whatever is committed is complete.
#include "output/output_lock.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cli_util.h"
#include "core/error.h"
#include "output/resumable_folder.h"
#include "output/staged_folder.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

class OutputLockTest : public testing::TempDirTest {};

void WriteText(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// Eight writers commit sweeps into one folder as fast as they can (--force, as the issue's
// eight `dcqcn sweep ... --force` did). The lock must never have two holders at once; a writer
// that does not get it is told another process writes there; every commit is whole.
TEST_F(OutputLockTest, ConcurrentSweepsNeverShareTheirFolder) {
  const std::string out = (dir_ / "ry").string();
  std::atomic<int> holders{0};
  std::atomic<int> most_holders{0};
  std::atomic<int> commits{0};
  std::mutex errors_mutex;
  std::vector<std::string> errors;
  auto writer = [&](int id) {
    for (int i = 0; i < 150; ++i) {
      try {
        ResumableFolder folder(out, /*force=*/true, /*resume=*/false, {{"writer", id}},
                               "sweep.json");
        const int now = ++holders;
        int most = most_holders.load();
        while (now > most && !most_holders.compare_exchange_weak(most, now)) {
        }
        for (int run = 0; run < 3; ++run) {
          WriteText(
              fs::path(folder.path()) / "runs" / ("00" + std::to_string(run)) / "summary.json",
              "{}\n");
        }
        WriteText(fs::path(folder.path()) / "sweep.csv", "run\nruns/000\nruns/001\nruns/002\n");
        folder.Commit({{"writer", id}});
        --holders;
        ++commits;
      } catch (const InputError& e) {
        const std::string what = e.what();
        if (what.find("another dcqcn process") == std::string::npos) {
          std::lock_guard<std::mutex> lock(errors_mutex);
          errors.push_back(what);
        }
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(errors_mutex);
        errors.push_back(e.what());
      }
    }
  };
  std::vector<std::thread> threads;
  for (int id = 0; id < 8; ++id) threads.emplace_back(writer, id);
  for (auto& t : threads) t.join();

  EXPECT_EQ(most_holders.load(), 1);
  EXPECT_TRUE(errors.empty()) << errors.size() << " errors, the first: " << errors.front();
  EXPECT_GT(commits.load(), 0);
  // The final folder is one writer's whole sweep, and nothing is left beside or inside it.
  for (int run = 0; run < 3; ++run) {
    EXPECT_TRUE(fs::exists(dir_ / "ry" / "runs" / ("00" + std::to_string(run)) / "summary.json"));
  }
  EXPECT_TRUE(fs::exists(dir_ / "ry" / "sweep.json"));
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename(), "ry");
  }
  for (const auto& e : fs::directory_iterator(dir_ / "ry")) {
    const std::string name = e.path().filename().string();
    EXPECT_TRUE(name == "runs" || name == "sweep.csv" || name == "sweep.json") << name;
  }
}

// A run's folder is locked too, from the start: a second run (or sweep) into it stops at once
// instead of running to the end and then replacing the other's results.
TEST_F(OutputLockTest, ASecondWriterStopsAtOnceAndTheLockGoesWithTheFirst) {
  const std::string out = (dir_ / "out").string();
  const std::string lock = OutputLock::LockPath(out);
  EXPECT_EQ(lock, (dir_ / ".out.lock").string());
  {
    StagedFolder run(out, /*force=*/false);
    EXPECT_TRUE(fs::exists(lock));
    try {
      StagedFolder second(out, /*force=*/false);
      ADD_FAILURE() << "a second writer got the lock";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("another dcqcn process"), std::string::npos) << e.what();
    }
    EXPECT_THROW(ResumableFolder(out, /*force=*/true, /*resume=*/false, {}, "sweep.json"),
                 InputError);
    WriteText(fs::path(run.path()) / "summary.json", "{}\n");
    run.Commit();
  }
  EXPECT_FALSE(fs::exists(lock));
  EXPECT_TRUE(fs::exists(dir_ / "out" / "summary.json"));
  StagedFolder again(out, /*force=*/false);  // free again
}

}  // namespace
}  // namespace dcqcn
