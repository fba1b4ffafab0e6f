// `dcqcn buffer` end to end (the paper's numbers, errors and exit codes), and the buffer warnings
// that `dcqcn check` and `dcqcn run` print.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "analysis/buffer_thresholds.h"
#include "cli_util.h"
#include "core/error.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

using dcqcn::testing::Result;
using dcqcn::testing::RunCli;

TEST(BufferCommand, PrintsThePapersNumbers) {
  const Result r = RunCli(
      "buffer --ports 32 --buffer 12000KB --rate 40Gbps --mtu 1500 --headroom 22.4KB --beta 8");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out,
            "switch: 32 ports of 40Gbps, buffer 12000.00 KB (12MB), MTU 1500 B, beta 8\n"
            "headroom t_flight              22.40 KB per port per priority (--headroom)\n"
            "headroom, all priorities     5734.40 KB = 8 x n x t_flight (47.8% of the buffer)\n"
            "t_PFC, static threshold   <=   24.47 KB = (B - 8 n t_flight) / (8 n)\n"
            "t_ECN, static threshold   <     0.76 KB = t_PFC / n: below one MTU (1.50 KB), "
            "infeasible\n"
            "t_ECN, dynamic threshold  <    21.75 KB = beta (B - 8 n t_flight) / (8 n (beta + "
            "1))\n"
            "Kmin 5KB:\n"
            "  dynamic threshold (beta 8): safe, below 21.75 KB\n"
            "  static threshold at t_PFC: UNSAFE, not below 0.76 KB: PFC can fire before ECN\n");
}

TEST(BufferCommand, DefaultsEstimateTheHeadroom) {
  const Result r = RunCli("buffer");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* part :
       {"headroom t_flight              21.87 KB per port per priority (21864 B)",
        "cable round trip              5000 B  2 x 500ns (100m of cable) at 40Gbps",
        "frames in transmission        3084 B", "PFC frame                       84 B",
        "response allowance           13696 B"}) {
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
  }
}

TEST(BufferCommand, KminVerdict) {
  Result r = RunCli("buffer --headroom 22.4KB --kmin 21.7KB");
  EXPECT_NE(r.out.find("dynamic threshold (beta 8): safe, below 21.75 KB"), std::string::npos)
      << r.out;
  r = RunCli("buffer --headroom 22.4KB --kmin 21.8KB");
  EXPECT_EQ(r.code, 0);  // a verdict, not an error
  EXPECT_NE(r.out.find("dynamic threshold (beta 8): UNSAFE, not below 21.75 KB"), std::string::npos)
      << r.out;
  // Few ports: a static threshold leaves room for Kmin too.
  r = RunCli("buffer --ports 2 --kmin 1KB");
  EXPECT_NE(r.out.find("static threshold at t_PFC: safe"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("infeasible"), std::string::npos) << r.out;
}

TEST(BufferCommand, BadValuesExitOne) {
  struct Case {
    const char* args;
    const char* message;
  };
  for (const Case& c : {
           Case{"--ports 0",
                "error: --ports: expected an integer number of switch ports 1..65535, "
                "got \"0\""},
           Case{"--ports -1", "--ports: expected"},
           Case{"--ports 3x", "--ports: expected"},
           Case{"--buffer 12", "--buffer: expected a positive size such as \"12MB\""},
           Case{"--buffer -12MB", "--buffer: expected a positive size"},
           Case{"--buffer 0KB", "--buffer: expected a positive size"},
           Case{"--rate 40G", "--rate: expected a positive rate such as \"40Gbps\""},
           Case{"--rate 0Gbps", "--rate: expected a positive rate"},
           Case{"--cable 100", "--cable: expected a positive cable length such as \"100m\""},
           Case{"--cable -5m", "--cable: expected a positive cable length"},
           Case{"--cable 0km", "--cable: expected a positive cable length"},
           Case{"--mtu 0", "--mtu: expected an Ethernet MTU in bytes 68..9216, got \"0\""},
           Case{"--mtu 1500B", "--mtu: expected"},
           Case{"--headroom 0KB", "--headroom: expected a positive size"},
           Case{"--beta -8", "--beta: expected a positive number such as 8, got \"-8\""},
           Case{"--beta eight", "--beta: expected a positive number"},
           Case{"--kmin 5", "--kmin: expected a positive size"},
           Case{"--headroom 100KB",
                "error: --buffer: 12000KB cannot hold the headroom of 8 priorities x 32 ports x "
                "100.00 KB = 25600.00 KB"},
           Case{"--headroom 1000GB", "cannot hold the headroom"},
           Case{"--ports 65535 --headroom 1KB", "cannot hold the headroom"},
       }) {
    const Result r = RunCli(std::string("buffer ") + c.args);
    EXPECT_EQ(r.code, 1) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
  }
}

TEST(BufferCommand, UsageErrorsExitTwo) {
  EXPECT_EQ(RunCli("buffer --no-such-option").code, 2);
  EXPECT_EQ(RunCli("buffer --ports").code, 2);
  EXPECT_EQ(RunCli("buffer extra-argument").code, 2);
}

TEST(BufferCommand, ReportThrowsInputError) {
  EXPECT_THROW(BufferReport(BufferOptions{.beta = "0"}), InputError);
  EXPECT_THROW(BufferReport(BufferOptions{.ports = "0"}), InputError);
  const BufferOptions defaults;
  EXPECT_NE(BufferReport(defaults).find("21.87 KB"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Warnings from check and run.

class BufferWarningCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("dcqcn_buffer_cli_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    scenario_ = (dir_ / "s.toml").string();
    // Kmin 150 KB is above the t_ECN bound of a 9-port switch with alpha 1/8 (76.66 KB).
    std::ofstream(scenario_) << "[topology]\ntype = \"star\"\nhosts = 9\n"
                                "[switch.ecn]\nkmin = \"150KB\"\n"
                                "[workload]\ntype = \"incast\"\nsenders = 2\nsize = \"20KB\"\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  std::string scenario_;
};

TEST_F(BufferWarningCli, CheckPrintsWarningsAfterOk) {
  const Result r = RunCli("check " + scenario_, "2>&1 >/dev/null");
  ASSERT_EQ(r.code, 0) << r.out;
  const size_t ok = r.out.find(": ok (9 hosts, 1 switch, 2 flows)");
  const size_t warning = r.out.find(
      "warning: s0: ECN Kmin 150KB is not below the t_ECN bound 76.66 KB of the dynamic PFC "
      "threshold");
  ASSERT_NE(ok, std::string::npos) << r.out;
  ASSERT_NE(warning, std::string::npos) << r.out;
  EXPECT_LT(ok, warning);
  // Without the problem, no warning.
  const Result clean = RunCli("check " + scenario_ + " --set switch.ecn.kmin=5KB", "2>&1");
  EXPECT_EQ(clean.code, 0);
  EXPECT_EQ(clean.out.find("warning"), std::string::npos) << clean.out;
}

TEST_F(BufferWarningCli, RunPrintsWarningsUnlessQuiet) {
  const std::string out = (dir_ / "out").string();
  Result r = RunCli("run " + scenario_ + " --out " + out, "2>&1 >/dev/null");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("warning: s0: ECN Kmin 150KB"), std::string::npos) << r.out;
  r = RunCli("run " + scenario_ + " --quiet --out " + out, "2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace dcqcn
