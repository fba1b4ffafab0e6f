// Tests of the HPCC topology and flow files: id mapping (switches interleaved among hosts in
// the file, hosts first for us), round trips through the writers, and every error with its line.
#include "ns3/hpcc_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "test_util.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

class HpccFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("dcqcn_hpcc_files_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  // The message of the InputError reading `topology` throws ("" if none).
  std::string TopologyError(const std::string& topology) {
    TopologyConfig t;
    try {
      ReadHpccTopology(Write("t.txt", topology), t, nullptr);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }
  fs::path dir_;
};

// Five nodes: switches 1 and 3 between hosts 0, 2 and 4; trailing notes as in HPCC's samples.
const char* kInterleaved =
    "5 2 4\n"
    "1 3\n"
    "0 1 100Gbps 0.001ms 0\n"
    "2 1 100Gbps 1000ns 0\n"
    "1 3 400Gbps 2us 0\n"
    "3 4 25Gbps 0.001ms 0\n"
    "\n"
    "First line: total node #, switch node #, link #\n";

TEST_F(HpccFilesTest, MapsHostsFirstAndKeepsTheFileIds) {
  TopologyConfig t;
  ReadHpccTopology(Write("t.txt", kInterleaved), t, nullptr);
  EXPECT_EQ(t.type, "hpcc_file");
  EXPECT_EQ(t.hosts, 3);
  EXPECT_EQ(t.switches, 2);
  EXPECT_EQ(t.hpcc_ids, (std::vector<int>{0, 2, 4, 1, 3}));
  ASSERT_EQ(t.links.size(), 4u);
  // Links stay in file order with our ids: host 2 is our h1, switch 3 is our s1 (node 4).
  EXPECT_EQ(t.links[1].a, 1);
  EXPECT_EQ(t.links[1].b, 3);
  EXPECT_EQ(t.links[1].delay, kMicrosecond);
  EXPECT_EQ(t.links[2].a, 3);
  EXPECT_EQ(t.links[2].b, 4);
  EXPECT_EQ(t.links[2].rate, 400 * kGbps);
  EXPECT_EQ(t.links[3].b, 2);
  EXPECT_EQ(t.links[3].rate, 25 * kGbps);
  EXPECT_EQ(t.hpcc_id(2), 4);
  EXPECT_EQ(t.hpcc_id(4), 3);
}

TEST_F(HpccFilesTest, FlowsUseFileIdsAndAbsoluteStarts) {
  TopologyConfig t;
  ReadHpccTopology(Write("t.txt", kInterleaved), t, nullptr);
  std::vector<std::string> warnings;
  const std::vector<HpccFlow> flows = ReadHpccFlows(
      Write("f.txt", "2\n4 0 3 100 5000 2.000001\n2 4 5 200 1 2\nsome notes\n"), t, &warnings);
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(flows[0].spec.src, 2);  // file host 4
  EXPECT_EQ(flows[0].spec.dst, 0);
  EXPECT_EQ(flows[0].spec.priority, 3);
  EXPECT_EQ(flows[0].dport, 100);
  EXPECT_EQ(flows[0].spec.size, 5000);
  EXPECT_EQ(flows[0].spec.start, 2 * kSecond + kMicrosecond);
  EXPECT_EQ(flows[0].line, 2);
  EXPECT_EQ(flows[1].spec.src, 1);
  EXPECT_EQ(flows[1].spec.priority, 5);
  ASSERT_EQ(warnings.size(), 1u) << "out of order start times";
  EXPECT_NE(warnings[0].find("f.txt:3:"), std::string::npos) << warnings[0];
}

TEST_F(HpccFilesTest, RoundTripsThroughTheWriters) {
  Scenario s = testing::StarScenario(5, 100 * kGbps, 1500 * kPicosecond);
  s.topology.links[4].rate = 25 * kGbps + 1;  // written in bps; the 1.5 ns delays in ps
  s.flows = {{1, 0, 123456, 2 * kSecond + 7, 3}, {3, 4, 1, 0, 6}};
  TopologyConfig back;
  ReadHpccTopology(Write("t.txt", HpccTopologyText(s.topology)), back, nullptr);
  ASSERT_EQ(back.links.size(), s.topology.links.size());
  EXPECT_EQ(back.hosts, 5);
  for (size_t i = 0; i < back.links.size(); ++i) {
    EXPECT_EQ(back.links[i].a, s.topology.links[i].a);
    EXPECT_EQ(back.links[i].b, s.topology.links[i].b);
    EXPECT_EQ(back.links[i].rate, s.topology.links[i].rate);
    EXPECT_EQ(back.links[i].delay, s.topology.links[i].delay);
  }
  const std::vector<HpccFlow> flows =
      ReadHpccFlows(Write("f.txt", HpccFlowsText(s.flows, back)), back, nullptr);
  ASSERT_EQ(flows.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(flows[i].spec.src, s.flows[i].src);
    EXPECT_EQ(flows[i].spec.dst, s.flows[i].dst);
    EXPECT_EQ(flows[i].spec.size, s.flows[i].size);
    // That simulator's time resolution is a nanosecond.
    EXPECT_EQ(flows[i].spec.start, s.flows[i].start / kNanosecond * kNanosecond);
    EXPECT_EQ(flows[i].spec.priority, s.flows[i].priority);
  }
  // A file read with interleaved ids writes those ids back.
  TopologyConfig t;
  ReadHpccTopology(Write("t2.txt", kInterleaved), t, nullptr);
  const std::string text = HpccTopologyText(t);
  EXPECT_EQ(text.substr(0, text.find('\n', text.find('\n') + 1) + 1), "5 2 4\n1 3\n");
  EXPECT_NE(text.find("2 1 100Gbps 1000ns 0\n"), std::string::npos) << text;
}

TEST_F(HpccFilesTest, TopologyErrorsNameFileAndLine) {
  EXPECT_NE(TopologyError("5 2 4\n1 3\n0 1 100Gbps 0.001ms 0\n2 1 100Gbs 1us 0\n")
                .find("t.txt:4: topology: link 2 of 4: expected a rate > 0"),
            std::string::npos);
  EXPECT_NE(TopologyError("5 2 4\n1 3\n0 1 100Gbps 0.001ms 0\n2 1 100Gbps 1us 0\n")
                .find("t.txt:4: topology: expected link 3 of 4"),
            std::string::npos);
  EXPECT_NE(TopologyError("5 2 1\n1 7\n").find("t.txt:2:"), std::string::npos);
  EXPECT_NE(TopologyError("5 2 1\n1 1\n").find("listed twice"), std::string::npos);
  EXPECT_NE(TopologyError("3 1 2\n1\n0 1 1Gbps 1us 0\n0 1 1Gbps 1us 0\n")
                .find("t.txt:4: topology: host 0 has a second link (the first is on line 3)"),
            std::string::npos);
  EXPECT_NE(TopologyError("3 1 1\n1\n0 1 1Gbps 1us 0\n").find("host 2"), std::string::npos);
  EXPECT_NE(TopologyError("3 1 1\n1\n0 0 1Gbps 1us 0\n").find("to itself"), std::string::npos);
  EXPECT_NE(TopologyError("3 1 1\n1\n0 9 1Gbps 1us 0\n").find("node id 0..2"), std::string::npos);
  EXPECT_NE(TopologyError("3 1 1\n1\n0 1 1Gbps 0us 0\n").find("delay > 0"), std::string::npos);
  EXPECT_NE(TopologyError("3 1 1\n1\n0 1 1Gbps 1us x\n").find("error rate"), std::string::npos);
  EXPECT_NE(TopologyError("three 1 1\n").find("t.txt:1: topology: expected the number of nodes"),
            std::string::npos);
  TopologyConfig t;
  try {
    ReadHpccTopology((dir_ / "missing.txt").string(), t, nullptr);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("missing.txt: cannot read topology file"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(HpccFilesTest, LinkErrorRateIsAWarning) {
  TopologyConfig t;
  std::vector<std::string> warnings;
  ReadHpccTopology(Write("t.txt", "3 1 2\n1\n0 1 1Gbps 1us 0.001\n2 1 1Gbps 1us 0.5\n"), t,
                   &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("t.txt:3: link error rate 0.001"), std::string::npos) << warnings[0];
}

TEST_F(HpccFilesTest, FlowErrorsNameFileAndLine) {
  TopologyConfig t;
  ReadHpccTopology(Write("t.txt", kInterleaved), t, nullptr);
  auto error = [&](const std::string& text) {
    try {
      ReadHpccFlows(Write("f.txt", text), t, nullptr);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error("1\n1 0 3 100 10 2\n")
                .find("f.txt:2: flow: flow 1 of 1: src: expected the node "
                      "id of a host, got \"1\" (a switch)"),
            std::string::npos);
  EXPECT_NE(error("2\n0 2 3 100 10 2\n0 0 3 100 10 2\n").find("f.txt:3:"), std::string::npos);
  EXPECT_NE(error("1\n0 2 0 100 10 2\n").find("pg"), std::string::npos);
  EXPECT_NE(error("1\n0 2 3 100 0 2\n").find("size"), std::string::npos);
  EXPECT_NE(error("1\n0 2 3 100 10 2s\n").find("start time"), std::string::npos);
  EXPECT_NE(error("1\n0 2 3 70000 10 2\n").find("dport"), std::string::npos);
  EXPECT_NE(error("3\n0 2 3 100 10 2\n").find("f.txt:2: flow: expected flow 2 of 3"),
            std::string::npos);
  EXPECT_NE(error("0\n").find("number of flows"), std::string::npos);
}

TEST(HpccIp, EncodesNodeIds) {
  EXPECT_EQ(HpccNodeIp(0), 0x0b000001u);
  EXPECT_EQ(HpccNodeIp(1), 0x0b000101u);
  EXPECT_EQ(HpccNodeIp(255), 0x0b00ff01u);
  EXPECT_EQ(HpccNodeIp(256), 0x0b010001u);
  EXPECT_EQ(HpccNodeIp(300), 0x0b012c01u);
}

}  // namespace
}  // namespace dcqcn
