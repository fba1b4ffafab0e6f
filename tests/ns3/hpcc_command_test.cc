// `dcqcn ns3` end to end on the HPCC sample (a 2:1 incast): run from a copy of the sample
// folder as that simulator is run, it writes the FCT file (8 columns, HPCC's IP encoding) and
// the PFC file where asked, and exits 1 with a clear message for bad input.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_util.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;

using dcqcn::testing::Result;

Result RunIn(const fs::path& dir, const std::string& args) {
  return dcqcn::testing::RunCliIn(dir, args);
}

std::vector<std::vector<std::string>> Rows(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    rows.emplace_back();
    for (std::string f; fields >> f;) rows.back().push_back(f);
  }
  return rows;
}

class HpccCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("dcqcn_hpcc_cmd_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::copy(fs::path(DCQCN_SOURCE_DIR) / "tests/ns3/data", dir_, fs::copy_options::recursive);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(HpccCommandTest, IncastWritesTheFctFileOfTwoLinesAndEightColumns) {
  const Result r = RunIn(dir_, "ns3 mix/config_topology_flow_dcqcn_nomon.txt --out OUT");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find("warning"), std::string::npos) << "the sample uses only modelled options\n"
                                                      << r.out;
  const std::vector<std::vector<std::string>> fct =
      Rows(dir_ / "OUT/fct_topology_flow_dcqcn_nomon.txt");
  ASSERT_EQ(fct.size(), 2u);
  for (const auto& row : fct) {
    ASSERT_EQ(row.size(), 8u);
    EXPECT_EQ(row[1], "0b000101") << "host 1 receives";
    EXPECT_TRUE(row[0] == "0b000201" || row[0] == "0b000301") << row[0];
    EXPECT_EQ(row[2], "10000") << "each sender's first port";
    EXPECT_EQ(row[3], "100");
    EXPECT_EQ(row[4], "200000000");
    EXPECT_EQ(row[5], "2000000000") << "absolute start, ns";
    EXPECT_EQ(row[7], "16772160") << "standalone FCT exactly as that simulator writes it";
    const double fct_ns = std::stod(row[6]);
    const double ideal_ns = std::stod(row[7]);
    // Two senders share the receiver's 100G link: each takes about twice its standalone time.
    EXPECT_GT(fct_ns / ideal_ns, 1.5);
    EXPECT_LT(fct_ns / ideal_ns, 2.5);
  }
  // The PFC file is there (5 columns a line when PFC fired) and our own folder too.
  ASSERT_TRUE(fs::exists(dir_ / "OUT/pfc_topology_flow_dcqcn_nomon.txt"));
  for (const auto& row : Rows(dir_ / "OUT/pfc_topology_flow_dcqcn_nomon.txt")) {
    EXPECT_EQ(row.size(), 5u);
  }
  for (const char* f : {"summary.json", "flows.csv", "resolved.toml"}) {
    EXPECT_TRUE(fs::exists(dir_ / "OUT" / f)) << f;
  }
  // The flows start at 2 s: rates, utilisation and queue statistics count from there.
  const std::string summary = dcqcn::testing::ReadFile(dir_ / "OUT/summary.json");
  EXPECT_NE(summary.find("\"active_start_ns\": 2000000000"), std::string::npos) << summary;
  EXPECT_NE(summary.find("\"from_ns\": 2000000000"), std::string::npos) << summary;
  const size_t util = summary.find("\"max_link_utilisation\": ");
  ASSERT_NE(util, std::string::npos);
  EXPECT_GT(std::stod(summary.substr(util + 24)), 0.5) << "the receiver's link is busy";
  EXPECT_FALSE(fs::exists(dir_ / "mix/fct_topology_flow_dcqcn_nomon.txt"))
      << "--out puts the FCT file there instead";
}

TEST_F(HpccCommandTest, ResultsNameTheHpccNodeIdsAndCountTimeFromTheFirstStart) {
  // The sample's switch is node 0, its hosts 1..65 (our h0..h64): flows 2 -> 1 and 3 -> 1 are
  // src,dst 1,0 and 2,0 in flows.csv, and src_node,dst_node give the file's ids back (issue 28,
  // item 10). The throughput series gives the summary its convergence line.
  const Result r = RunIn(dir_,
                         "hpcc mix/config_topology_flow_dcqcn_nomon.txt --out OUT --set "
                         "'output.timeseries=[\"throughput\"]'");
  ASSERT_EQ(r.code, 0) << r.out;
  const fs::path flows = dir_ / "OUT/flows.csv";
  EXPECT_EQ(dcqcn::testing::CsvColumn(flows, "src"), (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(dcqcn::testing::CsvColumn(flows, "dst"), (std::vector<std::string>{"0", "0"}));
  EXPECT_EQ(dcqcn::testing::CsvColumn(flows, "src_node"), (std::vector<std::string>{"2", "3"}));
  EXPECT_EQ(dcqcn::testing::CsvColumn(flows, "dst_node"), (std::vector<std::string>{"1", "1"}));
  const fs::path links = dir_ / "OUT/links.csv";
  const auto node = dcqcn::testing::CsvColumn(links, "node");
  const auto node_id = dcqcn::testing::CsvColumn(links, "node_id");
  const auto peer_id = dcqcn::testing::CsvColumn(links, "peer_id");
  ASSERT_EQ(node_id.size(), node.size());
  ASSERT_EQ(peer_id.size(), node.size());
  EXPECT_EQ(node[0], "h0");
  EXPECT_EQ(node_id[0], "1");
  EXPECT_EQ(peer_id[0], "0");
  EXPECT_EQ(node.back(), "s0");
  EXPECT_EQ(node_id.back(), "0");
  // One time origin: the summary line counts from the first flow's start (2 s), to the ns as
  // summary.json says.
  const nlohmann::json s =
      nlohmann::json::parse(dcqcn::testing::ReadFile(dir_ / "OUT/summary.json"));
  const int64_t active_ns = s["sim_time_ns"].get<int64_t>() - s["active_start_ns"].get<int64_t>();
  EXPECT_NE(r.out.find(fmt::format("{:.3f} ms simulated from the first flow's start at 2000.000 ms",
                                   static_cast<double>(active_ns) / 1e6)),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("after the last change of the active flows (at 0.000 ms from the first "
                       "flow's start)"),
            std::string::npos)
      << r.out;
}

TEST_F(HpccCommandTest, WithoutOutWritesWhereTheConfigSays) {
  const Result r = RunIn(dir_, "hpcc mix/config_topology_flow_dcqcn_nomon.txt --quiet");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(Rows(dir_ / "mix/fct_topology_flow_dcqcn_nomon.txt").size(), 2u);
  EXPECT_TRUE(fs::exists(dir_ / "mix/pfc_topology_flow_dcqcn_nomon.txt"));
  EXPECT_TRUE(fs::exists(dir_ / "results/config_topology_flow_dcqcn_nomon/summary.json"));
}

TEST_F(HpccCommandTest, BadInputExitsOneNamingTheProblem) {
  Result r = RunIn(dir_, "hpcc mix/no_such_config.txt");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("mix/no_such_config.txt: cannot read HPCC config"), std::string::npos)
      << r.out;
  {
    std::ofstream out(dir_ / "mix/hpcc_mode.txt");
    std::ifstream in(dir_ / "mix/config_topology_flow_dcqcn_nomon.txt");
    for (std::string line; std::getline(in, line);) {
      out << (line == "CC_MODE 1" ? "CC_MODE 10" : line) << "\n";
    }
  }
  r = RunIn(dir_, "hpcc mix/hpcc_mode.txt");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("CC_MODE: 10 is not available in dcqcn"), std::string::npos) << r.out;
  r = RunIn(dir_, "hpcc");
  EXPECT_EQ(r.code, 2) << r.out;
}

TEST_F(HpccCommandTest, SetAddsTimeSeriesAndChangesNothingElse) {
  const std::string config = "hpcc mix/config_topology_flow_dcqcn_nomon.txt";
  ASSERT_EQ(RunIn(dir_, config + " --quiet --out A").code, 0);
  const Result r = RunIn(dir_, config + " --quiet --out B --set 'output.timeseries=[\"queue\"]'");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "B/timeseries/queue.csv"));
  // The config read through the scenario loader is the same model: identical FCTs.
  EXPECT_EQ(dcqcn::testing::ReadFile(dir_ / "A/fct_topology_flow_dcqcn_nomon.txt"),
            dcqcn::testing::ReadFile(dir_ / "B/fct_topology_flow_dcqcn_nomon.txt"));
  const Result bad = RunIn(dir_, config + " --quiet --out C --set switch.ecn.kmin=5");
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.out.find("switch.ecn.kmin"), std::string::npos) << bad.out;
}

}  // namespace
