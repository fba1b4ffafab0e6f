// Helpers for tests that run the dcqcn binary (DCQCN_BINARY) as a user would.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace dcqcn::testing {

struct Result {
  int code;
  std::string out;  // stdout and stderr together
};

// Runs a shell command; `out` holds what it printed on the streams it captures.
inline Result RunCommand(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// Runs the binary; `redirect` says which streams are captured ("2>&1" both, "2>&1 >/dev/null"
// stderr alone).
inline Result RunCli(const std::string& args, const std::string& redirect = "2>&1") {
  return RunCommand(std::string(DCQCN_BINARY) + " " + args + " " + redirect);
}

// Runs the binary in folder `dir`, capturing both streams.
inline Result RunCliIn(const std::filesystem::path& dir, const std::string& args) {
  return RunCommand("cd '" + dir.string() + "' && " + std::string(DCQCN_BINARY) + " " + args +
                    " 2>&1");
}

inline std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh folder per test, named after it, removed afterwards.
class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() /
        ("dcqcn_" +
         std::string(::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path Write(const std::string& name, const std::string& text) {
    std::filesystem::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  std::filesystem::path dir_;
};

// A 4:1 incast of 300 KB over one switch with PFC alone and every time series: small and fast.
inline const char* kSmallIncast = R"(name = "cli-incast"
[topology]
type = "star"
hosts = 5
[cc]
algorithm = "none"
[workload]
type = "incast"
senders = 4
size = "300KB"
[output]
timeseries = ["queue", "pfc", "throughput", "rate"]
)";

}  // namespace dcqcn::testing
