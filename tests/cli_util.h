// Helpers for tests that run the dcqcn binary (DCQCN_BINARY) as a user would.
#pragma once

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

}  // namespace dcqcn::testing
