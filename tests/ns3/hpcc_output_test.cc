// Tests of the HPCC-format result files on a run that pauses: PFC lines carry the file's node
// ids, node types and 1-based interface numbers; FCT lines the file's IPs and ports.
#include "ns3/hpcc_output.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "ns3/hpcc_files.h"
#include "run/run_scenario.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

std::vector<std::vector<int64_t>> Numbers(const std::string& text, int hex_columns = 0) {
  std::vector<std::vector<int64_t>> rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    rows.emplace_back();
    std::string f;
    for (int i = 0; fields >> f; ++i)
      rows.back().push_back(std::stoll(f, nullptr, i < hex_columns ? 16 : 10));
  }
  return rows;
}

TEST(HpccOutput, PfcAndFctFilesUseTheFilesIdsAndInterfaces) {
  // Switch 2 between hosts 0, 1, 3, 4; hosts 1, 3 and 4 send to host 0 at line rate through a
  // small buffer, so the switch pauses them.
  const fs::path dir = fs::temp_directory_path() / "dcqcn_hpcc_output";
  fs::create_directories(dir);
  {
    std::ofstream(dir / "topo.txt") << "5 1 4\n2\n0 2 10Gbps 1us 0\n2 1 10Gbps 1us 0\n"
                                       "3 2 10Gbps 1us 0\n2 4 10Gbps 1us 0\n";
  }
  Scenario s;
  s.name = "pfc";
  s.source = "<test>";
  ReadHpccTopology((dir / "topo.txt").string(), s.topology, nullptr);
  s.cc.algorithm = "none";
  s.sw.buffer = 300000;
  s.sw.pfc.pause_until_resume = true;
  s.output.ts_pfc = true;
  for (int src : {1, 2, 3}) s.flows.push_back({src, 0, 500000, 2 * kSecond, 3});
  s.flows.push_back({1, 2, 3000, 2 * kSecond + 5 * kMicrosecond, 3});  // host 1's second flow
  s.explicit_flows = static_cast<int>(s.flows.size());
  s.duration = 3 * kSecond;

  std::string fct, pfc;
  RunOptions options;
  options.after_run = [&](const Network& net) {
    fct = HpccFctText(net, {100, 101, 102, 103});
    pfc = HpccPfcText(net);
  };
  RunScenario(s, options);
  fs::remove_all(dir);

  const auto pfc_rows = Numbers(pfc);
  ASSERT_GE(pfc_rows.size(), 2u) << "the buffer is small enough to pause";
  std::map<int64_t, int64_t> last_state;  // node -> last frame type
  int64_t last_time = 0;
  for (const auto& r : pfc_rows) {
    ASSERT_EQ(r.size(), 5u);
    EXPECT_GE(r[0], 2000000000) << "absolute ns";
    EXPECT_GE(r[0], last_time);
    last_time = r[0];
    EXPECT_TRUE(r[1] == 1 || r[1] == 3 || r[1] == 4) << "the senders' file ids, got " << r[1];
    EXPECT_EQ(r[2], 0) << "a host";
    EXPECT_EQ(r[3], 1) << "a host's only interface is 1 (0 is the loopback)";
    auto it = last_state.find(r[1]);
    if (it != last_state.end()) {
      EXPECT_NE(it->second, r[4]) << "pause and resume alternate";
    } else {
      EXPECT_EQ(r[4], 1) << "the first frame pauses";
    }
    last_state[r[1]] = r[4];
  }

  const auto fct_rows = Numbers(fct, 2);
  ASSERT_EQ(fct_rows.size(), 4u);
  std::map<int64_t, std::vector<int64_t>> by_dport;
  for (const auto& r : fct_rows) {
    ASSERT_EQ(r.size(), 8u);
    by_dport[r[3]] = r;
  }
  EXPECT_EQ(by_dport[100][0], 0x0b000101) << "flow 0 from file host 1";
  EXPECT_EQ(by_dport[100][1], 0x0b000001);
  EXPECT_EQ(by_dport[101][0], 0x0b000301) << "our host 2 is file host 3";
  EXPECT_EQ(by_dport[102][0], 0x0b000401);
  EXPECT_EQ(by_dport[100][2], 10000);
  EXPECT_EQ(by_dport[103][2], 10000) << "ports count per (source, destination) pair";
  EXPECT_EQ(by_dport[103][1], 0x0b000301);
  EXPECT_EQ(by_dport[103][5], 2000005000);
  // Lines come in order of completion.
  for (size_t i = 1; i < fct_rows.size(); ++i) {
    EXPECT_LE(fct_rows[i - 1][5] + fct_rows[i - 1][6], fct_rows[i][5] + fct_rows[i][6]);
  }
}

TEST(HpccStandaloneFct, MatchesThatSimulatorOnTheFatTreesThreePathLengths) {
  // fat.txt: 100 Gb/s host links, 400 Gb/s fabric, 1 us each. Base RTTs 4160, 8200, 12240 ns.
  const LinkSpec host{0, 0, 100 * kGbps, kMicrosecond};
  const LinkSpec fabric{0, 0, 400 * kGbps, kMicrosecond};
  const std::vector<LinkSpec> same_tor = {host, host};
  const std::vector<LinkSpec> same_pod = {host, fabric, fabric, host};
  const std::vector<LinkSpec> across = {host, fabric, fabric, fabric, fabric, host};
  // A 1-byte flow: base RTT plus 49 bytes at 100 Gb/s (3.92 ns, floored).
  EXPECT_EQ(HpccStandaloneFct(same_tor, 1, 1000), (4160 + 3) * kNanosecond);
  EXPECT_EQ(HpccStandaloneFct(same_pod, 1, 1000), (8200 + 3) * kNanosecond);
  EXPECT_EQ(HpccStandaloneFct(across, 1, 1000), (12240 + 3) * kNanosecond);
  // MODEL-NOTES' checked examples: 1000 B -> 4243 ns, 1 MB -> 88000 ns on two 100G hops.
  EXPECT_EQ(HpccStandaloneFct(same_tor, 1000, 1000), 4243 * kNanosecond);
  EXPECT_EQ(HpccStandaloneFct(same_tor, 1000000, 1000), 88000 * kNanosecond);
  // 1001 bytes are two packets: two headers.
  EXPECT_EQ(HpccStandaloneFct(same_tor, 1001, 1000), (4160 + 1097 * 8 / 100) * kNanosecond);
}

}  // namespace
}  // namespace dcqcn
