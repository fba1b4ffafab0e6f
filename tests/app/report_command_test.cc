// `dcqcn report`'s C++ side without Python: folder checks, script lookup and the message when
// the interpreter is missing. The figures themselves are tested by tests/python/test_report.py.
#include "app/report_command.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace {

namespace fs = std::filesystem;

// Sets an environment variable for one test and restores it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = getenv(name)) old_ = old;
    if (value) {
      setenv(name, value->c_str(), 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class ReportCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("dcqcn_report_cmd_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void WriteSummary() { std::ofstream(dir_ / "summary.json") << "{\"scenario\": \"x\"}\n"; }

  // Runs the command and returns (exit code, stderr).
  std::pair<int, std::string> Report(const std::string& dir) {
    ::testing::internal::CaptureStderr();
    int code = dcqcn::RunReportCommand(dir);
    return {code, ::testing::internal::GetCapturedStderr()};
  }

  fs::path dir_;
};

TEST_F(ReportCommandTest, MissingFolderIsInvalidInput) {
  auto [code, err] = Report((dir_ / "nope").string());
  EXPECT_EQ(code, 1);
  EXPECT_NE(err.find("no such folder"), std::string::npos) << err;
  EXPECT_NE(err.find((dir_ / "nope").string()), std::string::npos) << err;
}

TEST_F(ReportCommandTest, FolderWithoutSummaryIsInvalidInput) {
  auto [code, err] = Report(dir_.string());
  EXPECT_EQ(code, 1);
  EXPECT_NE(err.find("summary.json"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(dir_ / "report"));
}

TEST_F(ReportCommandTest, FindsTheScriptInTheSourceTree) {
  ScopedEnv env("DCQCN_PYTHON_DIR", std::nullopt);
  std::string found = dcqcn::FindReportScriptDir();
  ASSERT_FALSE(found.empty());
  EXPECT_TRUE(fs::exists(fs::path(found) / "dcqcn_report.py")) << found;
}

TEST_F(ReportCommandTest, EnvironmentOverridesTheScriptFolder) {
  ScopedEnv env("DCQCN_PYTHON_DIR", dir_.string());
  EXPECT_EQ(dcqcn::FindReportScriptDir(), dir_.string());
  WriteSummary();
  auto [code, err] = Report(dir_.string());  // dir_ has no dcqcn_report.py
  EXPECT_EQ(code, 1);
  EXPECT_NE(err.find("DCQCN_PYTHON_DIR"), std::string::npos) << err;
}

TEST_F(ReportCommandTest, MissingPythonSaysRunSetup) {
  ScopedEnv script("DCQCN_PYTHON_DIR", std::string(DCQCN_SOURCE_DIR) + "/python");
  ScopedEnv python("DCQCN_PYTHON", (dir_ / "no-python").string());
  WriteSummary();
  auto [code, err] = Report(dir_.string());
  EXPECT_EQ(code, 1);
  EXPECT_NE(err.find("scripts/setup.sh"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(dir_ / "report"));
}

}  // namespace
