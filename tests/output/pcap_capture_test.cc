// [output.pcap]: captures decoded by Wireshark's tshark hold exactly what the simulator counted
// at the capture point (data packets, CE marks, CNPs, PAUSE frames), with PSNs in order; and
// bad points are input errors naming the key.
#include "output/pcap_capture.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "cli_util.h"
#include "run/run_scenario.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

using PcapCaptureTest = testing::TempDirTest;

// An 8:1 incast on one switch with DCQCN: ECN marks, CNPs and (with a small buffer) PAUSEs.
const char* kIncast = R"(name = "pcap-incast"
duration = "5ms"
[topology]
type = "star"
hosts = 9
link_rate = "40Gbps"
[switch]
buffer = "400KB"
[cc]
algorithm = "dcqcn"
profile = "paper"
[workload]
type = "incast"
senders = 8
size = "400KB"
)";

#ifdef DCQCN_TSHARK
// One line per frame of `pcap`, with these tshark fields separated by commas.
std::vector<std::vector<std::string>> Tshark(const std::filesystem::path& pcap,
                                             const std::vector<std::string>& fields) {
  std::string cmd = std::string(DCQCN_TSHARK) + " -r '" + pcap.string() +
                    "' -T fields -E separator=, -E occurrence=f";
  for (const std::string& f : fields) cmd += " -e " + f;
  const testing::Result r = testing::RunCommand(cmd + " 2>/dev/null");
  EXPECT_EQ(r.code, 0) << cmd;
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    cells.resize(fields.size());
    rows.push_back(cells);
  }
  return rows;
}

TEST_F(PcapCaptureTest, TsharkSeesWhatTheSimulatorCounted) {
  // At the receiver's NIC: every data packet arrives there (none is lost), every CE mark with
  // it, and every CNP leaves from there.
  Scenario s =
      LoadScenarioText(std::string(kIncast) + "[output.pcap]\npoints = [\"h0\"]\n", "incast.toml");
  const std::filesystem::path at_receiver = dir_ / "receiver";
  const nlohmann::json summary =
      RunScenario(s, {.out_dir = at_receiver.string(), .after_run = nullptr});
  ASSERT_GT(summary["ecn_marked_packets"].get<int64_t>(), 0);
  ASSERT_GT(summary["cnps"].get<int64_t>(), 0);
  ASSERT_GT(summary["pfc_pause_frames"].get<int64_t>(), 0);
  ASSERT_EQ(summary["drops"].get<int64_t>(), 0);
  const auto frames = Tshark(at_receiver / "capture.pcap",
                             {"infiniband.bth.opcode", "ip.dsfield.ecn", "infiniband.bth.destqp",
                              "infiniband.bth.psn", "ip.dst", "udp.dstport", "vlan.priority"});
  EXPECT_EQ(static_cast<int64_t>(frames.size()), summary["capture"]["packets"].get<int64_t>());
  int64_t data = 0, ce = 0, cnps = 0, acks = 0;
  std::map<std::string, int64_t> next_psn;  // per destination QP
  for (const auto& f : frames) {
    ASSERT_EQ(f[5], "4791") << "not RoCEv2";
    const int opcode = std::stoi(f[0], nullptr, 0);
    if (opcode <= 4) {  // SEND first, middle, last, only
      ++data;
      ce += f[1] == "3";
      EXPECT_EQ(f[1] == "2" || f[1] == "3", true) << "data must be ECN-capable: " << f[1];
      EXPECT_EQ(f[4], "11.0.0.1");  // host 0, HPCC ns-3's address for node 0
      EXPECT_EQ(f[6], "3");
      // Lossless: every flow's PSNs arrive in order, without a gap or a repeat.
      EXPECT_EQ(std::stoll(f[3]), next_psn[f[2]]++) << "QP " << f[2];
    } else if (opcode == 0x81) {
      ++cnps;
    } else if (opcode == 0x11) {
      ++acks;
    }
  }
  EXPECT_EQ(data, summary["data_packets_sent"].get<int64_t>());
  EXPECT_EQ(ce, summary["ecn_marked_packets"].get<int64_t>());
  EXPECT_EQ(cnps, summary["cnps"].get<int64_t>());
  EXPECT_EQ(acks, data);  // one ACK per packet (host.ack_interval 1)
  EXPECT_EQ(next_psn.size(), 8u);

  // At the switch ports facing the senders, PFC frames only: the PAUSEs and RESUMEs it sent.
  s = LoadScenarioText(std::string(kIncast) +
                           "[output.pcap]\npoints = [\"s0:1\", \"s0:2\", \"s0:3\", \"s0:4\", "
                           "\"s0:5\", \"s0:6\", \"s0:7\", \"s0:8\"]\nkinds = [\"pfc\"]\n",
                       "incast.toml");
  const std::filesystem::path at_switch = dir_ / "switch";
  const nlohmann::json again =
      RunScenario(s, {.out_dir = at_switch.string(), .after_run = nullptr});
  const auto pfc = Tshark(at_switch / "capture.pcap",
                          {"macc.opcode", "macc.cbfc.enbv", "macc.cbfc.pause_time.c3"});
  int64_t pauses = 0, resumes = 0;
  for (const auto& f : pfc) {
    EXPECT_EQ(std::stoi(f[0], nullptr, 0), 0x0101);
    EXPECT_EQ(std::stoi(f[1], nullptr, 0), 1 << 3);  // class 3
    (std::stoi(f[2]) > 0 ? pauses : resumes)++;
  }
  EXPECT_EQ(pauses, again["pfc_pause_frames"].get<int64_t>());
  EXPECT_EQ(resumes, again["pfc_resume_frames"].get<int64_t>());
}
#endif

TEST_F(PcapCaptureTest, MaxPacketsAndTimeWindowLimitTheCapture) {
  if (!BuiltWithPcap()) GTEST_SKIP() << "built without libpcap";
  Scenario s = LoadScenarioText(
      std::string(kIncast) + "[output.pcap]\npoints = [\"h0\"]\nmax_packets = 100\n",
      "incast.toml");
  nlohmann::json summary = RunScenario(s, {.out_dir = (dir_ / "a").string(), .after_run = nullptr});
  EXPECT_EQ(summary["capture"]["packets"], 100);
  EXPECT_EQ(summary["capture"]["stopped_at_max_packets"], true);
  s = LoadScenarioText(
      std::string(kIncast) + "[output.pcap]\npoints = [\"h0\"]\nfrom = \"5ms\"\nuntil = \"6ms\"\n",
      "incast.toml");
  summary = RunScenario(s, {.out_dir = (dir_ / "b").string(), .after_run = nullptr});
  EXPECT_EQ(summary["capture"]["packets"], 0);  // the run ends before 5 ms
  // 24-byte file header and nothing else.
  EXPECT_EQ(std::filesystem::file_size(dir_ / "b/capture.pcap"), 24u);
}

TEST_F(PcapCaptureTest, ResolvedTomlKeepsTheCapture) {
  const Scenario s = LoadScenarioText(std::string(kIncast) +
                                          "[output.pcap]\npoints = [\"s0:2\", \"h1\"]\n"
                                          "kinds = [\"cnp\", \"pfc\"]\nuntil = \"3ms\"\n",
                                      "x.toml");
  const std::string resolved = ResolvedToml(s);
  EXPECT_NE(resolved.find("[output.pcap]\npoints = [\"s0:2\", \"h1\"]\nkinds = [\"cnp\", \"pfc\"]"),
            std::string::npos)
      << resolved;
  const Scenario back = LoadScenarioText(resolved, "r.toml");
  EXPECT_EQ(ResolvedToml(back), resolved);
  EXPECT_EQ(back.output.pcap.taps, (std::vector<std::pair<int, int>>{{9, 2}, {1, 0}}));
}

TEST_F(PcapCaptureTest, BadPointsAreInputErrors) {
  auto error = [](const std::string& pcap) {
    return testing::InputErrorOf(
        [&] { LoadScenarioText(std::string(kIncast) + "[output.pcap]\n" + pcap, "x.toml"); });
  };
  EXPECT_NE(error("points = [\"h9\"]\n")
                .find("x.toml:17: output.pcap.points[0]: expected a host h0 to h8"),
            std::string::npos)
      << error("points = [\"h9\"]\n");
  EXPECT_NE(error("points = [\"s0:9\"]\n").find("switch s0 has ports 0 to 8"), std::string::npos);
  EXPECT_NE(error("points = [\"s1:0\"]\n").find("switches s0 to s0"), std::string::npos);
  EXPECT_NE(error("points = [\"h1\"]\nkinds = [\"pause\"]\n").find("output.pcap.kinds[0]"),
            std::string::npos);
  EXPECT_NE(error("kinds = [\"pfc\"]\n").find("output.pcap.points: required"), std::string::npos);
  // A capture of no kind of packet is an empty file: refused, naming the key.
  EXPECT_NE(
      error("points = [\"h1\"]\nkinds = []\n").find("output.pcap.kinds: expected at least one"),
      std::string::npos)
      << error("points = [\"h1\"]\nkinds = []\n");
  EXPECT_NE(error("points = [\"h1\"]\nsnaplen = 10\n").find("output.pcap.snaplen"),
            std::string::npos);
  EXPECT_NE(error("points = [\"h1\"]\nfrom = \"2ms\"\nuntil = \"1ms\"\n").find("after from"),
            std::string::npos);
}

}  // namespace
}  // namespace dcqcn
