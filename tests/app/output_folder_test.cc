// Output folders are replaced whole: a re-run never mixes its files with an earlier run's, an
// interrupted or failed run leaves the previous results as they were, and a folder that is not
// a dcqcn result is never deleted without --force.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_util.h"
#include "output/staged_folder.h"
#include "test_util.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunCli;

class OutputFolderTest : public testing::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    Write("s.toml", testing::kSmallIncast);
  }
  std::string Scenario() const { return (dir_ / "s.toml").string(); }
};

TEST_F(OutputFolderTest, ARerunReplacesTheWholeFolder) {
  const fs::path out = dir_ / "out";
  ASSERT_EQ(RunCli("run " + Scenario() + " --quiet --out " + out.string()).code, 0);
  ASSERT_TRUE(fs::exists(out / "timeseries/rate.csv"));
  const auto second = RunCli("run " + Scenario() + " --quiet --out " + out.string() +
                             " --set 'output.timeseries=[\"queue\"]' --set workload.senders=2");
  ASSERT_EQ(second.code, 0) << second.out;
  // Only the second run's files: no rate, pfc or throughput series of the first.
  EXPECT_TRUE(fs::exists(out / "timeseries/queue.csv"));
  EXPECT_FALSE(fs::exists(out / "timeseries/rate.csv"));
  EXPECT_FALSE(fs::exists(out / "timeseries/throughput.csv"));
  EXPECT_FALSE(fs::exists(out / "timeseries/pfc.csv"));
  EXPECT_EQ(testing::CsvRowCount((out / "flows.csv").string()), 2u);
  // Nothing else left beside it.
  for (const auto& e : fs::directory_iterator(dir_)) {
    const std::string name = e.path().filename().string();
    EXPECT_TRUE(name == "out" || name == "s.toml") << name;
  }
}

TEST_F(OutputFolderTest, ASweepReplacesAnOldSweep) {
  const fs::path out = dir_ / "sweep";
  ASSERT_EQ(
      RunCli("sweep " + Scenario() + " --quiet --vary workload.senders=1,2,3 --out " + out.string())
          .code,
      0);
  ASSERT_TRUE(fs::exists(out / "runs/002"));
  ASSERT_EQ(
      RunCli("sweep " + Scenario() + " --quiet --vary workload.senders=1,2 --out " + out.string())
          .code,
      0);
  EXPECT_TRUE(fs::exists(out / "runs/001/summary.json"));
  EXPECT_FALSE(fs::exists(out / "runs/002")) << "a run of the old sweep is left";
}

TEST_F(OutputFolderTest, AFailedRunLeavesThePreviousResults) {
  const fs::path out = dir_ / "out";
  ASSERT_EQ(RunCli("run " + Scenario() + " --quiet --out " + out.string()).code, 0);
  const std::string flows = ReadFile(out / "flows.csv");
  // A buffer too small for its reserves fails while the network is built, after staging began.
  const auto bad =
      RunCli("run " + Scenario() + " --quiet --out " + out.string() + " --set switch.buffer=1KB");
  EXPECT_EQ(bad.code, 1) << bad.out;
  EXPECT_EQ(ReadFile(out / "flows.csv"), flows);
  EXPECT_TRUE(fs::exists(out / "timeseries/rate.csv"));
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().find(".partial"), std::string::npos) << e.path();
  }
}

TEST_F(OutputFolderTest, AnInterruptedRunLeavesThePreviousResults) {
  const fs::path out = dir_ / "out";
  ASSERT_EQ(RunCli("run " + Scenario() + " --quiet --out " + out.string()).code, 0);
  const std::string flows = ReadFile(out / "flows.csv");
  // A long run, stopped with SIGINT, SIGTERM or SIGHUP (a closed terminal) while it simulates:
  // the shell's status for it, and neither its staging folder nor its lock is left.
  for (const auto& [signal, status] :
       {std::pair{"INT", "130"}, std::pair{"TERM", "143"}, std::pair{"HUP", "129"}}) {
    const auto r = testing::RunCommand(
        std::string(DCQCN_BINARY) + " run " + Scenario() + " --quiet --out " + out.string() +
        " --set workload.size=10GB --set duration=10s 2>&1 & pid=$!; sleep 1; kill -" + signal +
        " $pid; wait $pid; echo exit=$?");
    EXPECT_NE(r.out.find(std::string("exit=") + status), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(std::string("interrupted: no results written (SIG") + signal + ")"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(ReadFile(out / "flows.csv"), flows);
  }
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().find(".partial"), std::string::npos) << e.path();
    EXPECT_NE(e.path().filename().string(), ".out.lock");
  }
}

TEST_F(OutputFolderTest, AForeignFolderIsNotReplacedWithoutForce) {
  const fs::path out = dir_ / "mine";
  fs::create_directories(out);
  std::ofstream(out / "notes.txt") << "my notes";
  const auto refused = RunCli("run " + Scenario() + " --quiet --out " + out.string());
  EXPECT_EQ(refused.code, 1);
  EXPECT_NE(refused.out.find("--force"), std::string::npos) << refused.out;
  EXPECT_TRUE(fs::exists(out / "notes.txt"));
  EXPECT_EQ(RunCli("run " + Scenario() + " --quiet --force --out " + out.string()).code, 0);
  EXPECT_FALSE(fs::exists(out / "notes.txt"));
  EXPECT_TRUE(fs::exists(out / "summary.json"));
  // An empty folder is fine.
  fs::create_directories(dir_ / "empty");
  EXPECT_EQ(RunCli("run " + Scenario() + " --quiet --out " + (dir_ / "empty").string()).code, 0);
}

TEST_F(OutputFolderTest, TheCurrentFolderOrTheRootIsNeverAnOutputFolder) {
  for (const char* out : {".", "..", "/", "./"}) {
    const auto r = testing::RunCliIn(dir_, "run " + Scenario() + " --quiet --force --out " + out);
    EXPECT_EQ(r.code, 1) << out << ": " << r.out;
    EXPECT_NE(r.out.find("folder of its own"), std::string::npos) << r.out;
  }
  EXPECT_TRUE(fs::exists(dir_ / "s.toml"));
}

TEST_F(OutputFolderTest, StagingFoldersOfDeadRunsAreRemoved) {
  // A run killed with SIGKILL leaves its staging folder; the next run into the same place
  // removes it. (Process 1 lives, an unused pid does not.)
  const pid_t dead = 999999;
  ASSERT_NE(kill(dead, 0), 0);
  fs::create_directories(dir_ / (".out.partial-" + std::to_string(dead) + "-0"));
  fs::create_directories(dir_ / ".out.partial-1-0");
  {
    StagedFolder folder((dir_ / "out").string(), false);
    std::ofstream(fs::path(folder.path()) / "summary.json") << "{}";
    folder.Commit();
  }
  EXPECT_FALSE(fs::exists(dir_ / (".out.partial-" + std::to_string(dead) + "-0")));
  EXPECT_TRUE(fs::exists(dir_ / ".out.partial-1-0"));
  EXPECT_TRUE(fs::exists(dir_ / "out/summary.json"));
  // A staging folder that is not committed disappears with its owner.
  std::string staging;
  {
    StagedFolder folder((dir_ / "out").string(), false);
    staging = folder.path();
    EXPECT_TRUE(fs::exists(staging));
  }
  EXPECT_FALSE(fs::exists(staging));
  EXPECT_TRUE(fs::exists(dir_ / "out/summary.json"));
}

TEST_F(OutputFolderTest, AFolderUnderAFileIsAClearError) {
  Write("file", "x");
  const auto r = RunCli("run " + Scenario() + " --quiet --out " + (dir_ / "file/out").string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("is a file, not a folder"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("filesystem error"), std::string::npos) << r.out;
}

// Results go where a link points, and the link stays a link.
TEST_F(OutputFolderTest, ALinkedFolderKeepsItsLink) {
  fs::create_directories(dir_ / "elsewhere");
  fs::create_directory_symlink(dir_ / "elsewhere", dir_ / "out");
  for (int i = 0; i < 2; ++i) {  // a new folder, then a replaced one
    ASSERT_EQ(RunCli("run " + Scenario() + " --quiet --out " + (dir_ / "out").string()).code, 0);
    EXPECT_TRUE(fs::is_symlink(dir_ / "out"));
    EXPECT_TRUE(fs::exists(dir_ / "elsewhere/summary.json"));
  }
  fs::remove(dir_ / "out");
  fs::create_directory_symlink(dir_ / "nowhere", dir_ / "out");
  const auto r = RunCli("run " + Scenario() + " --quiet --out " + (dir_ / "out").string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("which does not exist"), std::string::npos) << r.out;
}

TEST_F(OutputFolderTest, StagingFoldersHaveUnpredictableNamesAndUsualPermissions) {
  const std::string prefix = ".out.partial-" + std::to_string(getpid()) + "-";
  std::vector<std::string> names;
  for (int i = 0; i < 2; ++i) {  // one after the other: one writer at a time (OutputLock)
    StagedFolder f((dir_ / "out").string(), false);
    const fs::path p = f.path();
    const std::string name = p.filename().string();
    ASSERT_EQ(name.rfind(prefix, 0), 0u) << name;
    EXPECT_EQ(name.size(), prefix.size() + 6) << name;  // mkdtemp's six random characters
    EXPECT_TRUE(fs::is_directory(fs::symlink_status(p))) << name;
    // Not mkdtemp's private 0700: the folder a user gets is like any other new folder.
    const mode_t mask = umask(0);
    umask(mask);
    EXPECT_EQ(static_cast<mode_t>(fs::status(p).permissions()), 0777 & ~mask) << name;
    names.push_back(name);
  }
  EXPECT_NE(names[0], names[1]);
}

}  // namespace
}  // namespace dcqcn
