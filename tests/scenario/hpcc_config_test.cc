// Tests of the HPCC config reader: every mapped key lands on the right dcqcn parameter, missing
// keys take that simulator's defaults, options we do not model warn, and errors name the line.
#include "scenario/hpcc_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cc/dcqcn/dcqcn_params.h"
#include "cc/dctcp/dctcp_params.h"
#include "cc/hpcc/hpcc_params.h"
#include "cc/timely/timely_params.h"
#include "core/error.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

// Three hosts (file ids 0, 2, 3) on switch 1 at 100G, plus a 400G port to switch 4.
const char* kTopology =
    "6 2 5\n1 4\n0 1 100Gbps 0.001ms 0\n2 1 100Gbps 0.001ms 0\n3 1 100Gbps 0.001ms 0\n"
    "1 4 400Gbps 0.001ms 0\n5 4 100Gbps 0.001ms 0\n";
const char* kFlows = "2\n2 0 3 100 1000000 2\n3 0 3 100 1000000 2.000001\n";

// A config in the layout of the HPCC samples; {DIR} becomes the test folder.
const char* kConfig = R"(ENABLE_QCN 1
USE_DYNAMIC_PFC_THRESHOLD 1
PACKET_PAYLOAD_SIZE 1000
TOPOLOGY_FILE {DIR}/topo.txt
FLOW_FILE {DIR}/flow.txt
TRACE_FILE {DIR}/trace.txt
TRACE_OUTPUT_FILE {DIR}/out.tr
FCT_OUTPUT_FILE {DIR}/fct.txt
PFC_OUTPUT_FILE {DIR}/pfc.txt
SIMULATOR_STOP_TIME 2.1
CC_MODE 1
ALPHA_RESUME_INTERVAL 1
RATE_DECREASE_INTERVAL 4
CLAMP_TARGET_RATE 0
RP_TIMER 300
EWMA_GAIN 0.00390625
FAST_RECOVERY_TIMES 1
RATE_AI 20Mb/s
RATE_HAI 200Mb/s
MIN_RATE 1000Mb/s
DCTCP_RATE_AI 1000Mb/s
ERROR_RATE_PER_LINK 0.0000
L2_CHUNK_SIZE 4000
L2_ACK_INTERVAL 1
L2_BACK_TO_ZERO 0
HAS_WIN 0
GLOBAL_T 1
VAR_WIN 0
FAST_REACT 0
U_TARGET 0.95
MI_THRESH 0
INT_MULTI 1
MULTI_RATE 0
SAMPLE_FEEDBACK 0
PINT_LOG_BASE 1.01
PINT_PROB 1.0
RATE_BOUND 1
ACK_HIGH_PRIO 1
LINK_DOWN 0 0 0
ENABLE_TRACE 0
KMAX_MAP 2 100000000000 1600 400000000000 6400
KMIN_MAP 2 100000000000 400 400000000000 1600
PMAX_MAP 2 100000000000 0.20 400000000000 0.20
BUFFER_SIZE 32
QLEN_MON_FILE {DIR}/qlen.txt
QLEN_MON_START 2000000000
QLEN_MON_END 2000000000
)";

class HpccConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("dcqcn_hpcc_config_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "topo.txt") << kTopology;
    std::ofstream(dir_ / "flow.txt") << kFlows;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The sample config with `from` replaced by `to` (whole lines; "" deletes), written out.
  std::string Config(const std::string& from = "", const std::string& to = "") {
    std::string text = kConfig;
    for (size_t at; (at = text.find("{DIR}")) != std::string::npos;) {
      text.replace(at, 5, dir_.string());
    }
    if (!from.empty()) {
      const size_t at = text.find(from);
      EXPECT_NE(at, std::string::npos) << from;
      text.replace(at, from.size() + (to.empty() ? 1 : 0), to);
    }
    const fs::path p = dir_ / "config.txt";
    std::ofstream(p) << text;
    return p.string();
  }
  std::string ErrorOf(const std::string& path) {
    try {
      LoadHpccConfig(path);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }
  static bool HasWarning(const HpccSetup& s, const std::string& part) {
    for (const std::string& w : s.warnings) {
      if (w.find(part) != std::string::npos) return true;
    }
    return false;
  }
  fs::path dir_;
};

TEST_F(HpccConfigTest, MapsEveryKeyOntoTheScenario) {
  const HpccSetup setup = LoadHpccConfig(Config());
  const Scenario& s = setup.scenario;
  EXPECT_EQ(s.name, "config");
  EXPECT_EQ(s.duration, 2100 * kMillisecond);
  EXPECT_EQ(s.cc.algorithm, "dcqcn");
  EXPECT_EQ(s.cc.profile, "hpcc");
  const DcqcnParams p = ResolveDcqcnParams(s);
  EXPECT_EQ(p.alpha_period, 1 * kMicrosecond);
  EXPECT_EQ(p.rate_reduce_period, 4 * kMicrosecond);
  EXPECT_EQ(p.timer, 300 * kMicrosecond);
  EXPECT_DOUBLE_EQ(p.g, 1.0 / 256);
  EXPECT_EQ(p.f, 1);
  EXPECT_EQ(p.rai, 20 * kMbps);
  EXPECT_EQ(p.rhai, 200 * kMbps);
  EXPECT_EQ(p.min_rate, 1000 * kMbps);
  EXPECT_FALSE(p.clamp_target_rate);
  EXPECT_TRUE(p.cnp_on_ack);
  EXPECT_EQ(s.cc.params.at("timer").line, 15) << "messages point at the config line";
  // ECN from the 100G entry (the hosts' rate), KB x 1000.
  EXPECT_TRUE(s.sw.ecn.enabled);
  EXPECT_EQ(s.sw.ecn.kmin, 400000);
  EXPECT_EQ(s.sw.ecn.kmax, 1600000);
  EXPECT_DOUBLE_EQ(s.sw.ecn.pmax, 0.2);
  EXPECT_EQ(s.sw.buffer, 32 << 20);
  EXPECT_TRUE(s.sw.pfc.enabled);
  EXPECT_TRUE(s.sw.pfc.dynamic_threshold);
  EXPECT_DOUBLE_EQ(s.sw.pfc.alpha, 0.125);
  EXPECT_TRUE(s.sw.pfc.pause_until_resume);
  EXPECT_EQ(s.sw.pfc.reserve, 4096);
  EXPECT_EQ(s.sw.pfc.xon_offset, 3072);
  EXPECT_EQ(s.host.mtu, 1000);
  EXPECT_EQ(s.host.ack_interval, 1);
  EXPECT_TRUE(s.output.ts_pfc);
  EXPECT_EQ(s.output.warmup, 0);  // statistics count from the first flow's start anyway
  // Topology and flows with our ids: file hosts 0, 2, 3, 5 are our 0..3.
  EXPECT_EQ(s.topology.hosts, 4);
  EXPECT_EQ(s.topology.switches, 2);
  ASSERT_EQ(s.flows.size(), 2u);
  EXPECT_EQ(s.flows[0].src, 1);
  EXPECT_EQ(s.flows[1].src, 2);
  EXPECT_EQ(s.flows[1].start, 2 * kSecond + kMicrosecond);
  EXPECT_EQ(setup.dports, (std::vector<uint16_t>{100, 100}));
  EXPECT_EQ(setup.fct_output_file, (dir_ / "fct.txt").string());
  EXPECT_EQ(setup.pfc_output_file, (dir_ / "pfc.txt").string());
  // The 400G ports get their own ECN entry (switch.ecn.by_rate) and PFC alpha 1/2
  // (switch.pfc.by_rate: shift 3, minus one per doubling over the hosts' 100G); HPCC's headroom
  // rule and ECMP hash; no warnings.
  ASSERT_EQ(s.sw.ecn.by_rate.size(), 1u);
  EXPECT_EQ(s.sw.ecn.by_rate[0].rate, 400 * kGbps);
  EXPECT_EQ(s.sw.ecn.by_rate[0].kmin, 1600000);
  EXPECT_EQ(s.sw.ecn.by_rate[0].kmax, 6400000);
  EXPECT_DOUBLE_EQ(s.sw.ecn.by_rate[0].pmax, 0.2);
  EXPECT_EQ(s.sw.ecn.ForPortRate(400 * kGbps).kmax, 6400000);
  EXPECT_EQ(s.sw.ecn.ForPortRate(100 * kGbps).kmax, s.sw.ecn.kmax);
  ASSERT_EQ(s.sw.pfc.by_rate.size(), 1u);
  EXPECT_EQ(s.sw.pfc.by_rate[0].rate, 400 * kGbps);
  EXPECT_DOUBLE_EQ(s.sw.pfc.by_rate[0].alpha, 0.5);
  EXPECT_DOUBLE_EQ(s.sw.pfc.AlphaForRate(100 * kGbps), 0.125);
  EXPECT_EQ(s.sw.pfc.headroom_rule, PfcConfig::HeadroomRule::kHpcc);
  EXPECT_EQ(s.sw.ecmp_hash, SwitchConfig::EcmpHash::kHpcc);
  EXPECT_TRUE(setup.warnings.empty()) << ::testing::PrintToString(setup.warnings);
}

TEST_F(HpccConfigTest, TheFctAndPfcFilesMustDiffer) {
  // Both are written when the run ends: the PFC file would replace the FCTs.
  const std::string m = ErrorOf(Config("/pfc.txt", "/./fct.txt"));
  EXPECT_NE(m.find("config.txt:9: PFC_OUTPUT_FILE:"), std::string::npos) << m;
  EXPECT_NE(m.find("also FCT_OUTPUT_FILE"), std::string::npos) << m;
}

TEST_F(HpccConfigTest, AFlowBetweenDisconnectedHostsNamesTheFlowFilesLine) {
  // Without the 1 - 4 cable, hosts 0, 2, 3 (on switch 1) and 5 (on switch 4) are apart.
  std::ofstream(dir_ / "topo.txt") << "6 2 4\n1 4\n0 1 100Gbps 0.001ms 0\n2 1 100Gbps 0.001ms 0\n"
                                      "3 1 100Gbps 0.001ms 0\n5 4 100Gbps 0.001ms 0\n";
  std::ofstream(dir_ / "flow.txt") << "2\n2 0 3 100 1000000 2\n5 0 3 100 1000000 2.000001\n";
  const std::string m = ErrorOf(Config());
  EXPECT_NE(m.find("flow.txt:3: flow from node 5 to node 0: no path"), std::string::npos) << m;
}

TEST_F(HpccConfigTest, WarnsAboutWhatWeDoNotModel) {
  std::string text;
  {
    std::ifstream in(Config());
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto set = [&](const std::string& from, const std::string& to) {
    text.replace(text.find(from), from.size(), to);
  };
  set("ENABLE_TRACE 0", "ENABLE_TRACE 1");
  set("ERROR_RATE_PER_LINK 0.0000", "ERROR_RATE_PER_LINK 0.01");
  set("LINK_DOWN 0 0 0", "LINK_DOWN 1000 1 4");
  set("HAS_WIN 0", "HAS_WIN 1");
  set("ACK_HIGH_PRIO 1", "ACK_HIGH_PRIO 0");
  set("L2_BACK_TO_ZERO 0", "L2_BACK_TO_ZERO 1");
  set("RATE_BOUND 1", "RATE_BOUND 0");
  set("QLEN_MON_END 2000000000", "QLEN_MON_END 2100000000");
  set("BUFFER_SIZE 32", "BUFER_SIZE 32\nBUFFER_SIZE 32\nRP_TIMER 900");
  const fs::path p = dir_ / "warn.txt";
  std::ofstream(p) << text;
  const HpccSetup setup = LoadHpccConfig(p.string());
  for (const char* part :
       {"warn.txt:40: ENABLE_TRACE: 1: the packet trace", "ERROR_RATE_PER_LINK: random packet loss",
        "LINK_DOWN: taking the link 1 - 4 down", "L2_BACK_TO_ZERO", "RATE_BOUND: 0",
        "QLEN_MON_FILE", "BUFER_SIZE: unknown key, ignored (did you mean BUFFER_SIZE?)",
        "RP_TIMER: given again (also on line 15)"}) {
    EXPECT_TRUE(HasWarning(setup, part)) << part << "\n"
                                         << ::testing::PrintToString(setup.warnings);
  }
  EXPECT_EQ(ResolveDcqcnParams(setup.scenario).timer, 900 * kMicrosecond) << "the last counts";
  // The window and the NIC's ACK queue are modelled now: no warning, and they are on.
  EXPECT_FALSE(HasWarning(setup, "HAS_WIN")) << ::testing::PrintToString(setup.warnings);
  EXPECT_FALSE(HasWarning(setup, "ACK_HIGH_PRIO")) << ::testing::PrintToString(setup.warnings);
  EXPECT_TRUE(setup.scenario.host.window);
  EXPECT_TRUE(setup.scenario.host.pause_acks);
}

// The sample config with several whole lines replaced.
std::string Edited(const std::string& path,
                   const std::vector<std::pair<std::string, std::string>>& edits) {
  std::string text;
  {
    std::ifstream in(path);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  for (const auto& [from, to] : edits) {
    const size_t at = text.find(from + "\n");
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  }
  std::ofstream(path) << text;
  return path;
}

TEST_F(HpccConfigTest, OtherCcModesTakeTheirKeys) {
  // run.py's settings for each mode, at 100 Gb/s (../shared/hpcc-format/mix/config_fat_ws30_*).
  HpccSetup setup = LoadHpccConfig(Edited(Config(), {{"CC_MODE 1", "CC_MODE 3"},
                                                     {"RATE_AI 20Mb/s", "RATE_AI 50Mb/s"},
                                                     {"HAS_WIN 0", "HAS_WIN 1"},
                                                     {"VAR_WIN 0", "VAR_WIN 1"},
                                                     {"FAST_REACT 0", "FAST_REACT 1"},
                                                     {"INT_MULTI 1", "INT_MULTI 4"},
                                                     {"ACK_HIGH_PRIO 1", "ACK_HIGH_PRIO 0"}}));
  const Scenario& s = setup.scenario;
  EXPECT_EQ(s.cc.algorithm, "hpcc");
  const HpccParams hp = ResolveHpccParams(s.cc, s.source);
  EXPECT_EQ(hp.rate_ai, 50 * kMbps);
  EXPECT_EQ(hp.min_rate, 1000 * kMbps);
  EXPECT_EQ(hp.mi_thresh, 0);
  EXPECT_TRUE(hp.fast_react);
  EXPECT_FALSE(hp.multi_rate);
  EXPECT_EQ(hp.fields.multi, 4);
  EXPECT_DOUBLE_EQ(hp.target_util, 0.95);
  EXPECT_TRUE(s.host.window);
  EXPECT_TRUE(s.host.window_scales_with_rate);
  EXPECT_TRUE(s.host.pause_acks);

  setup = LoadHpccConfig(Edited(Config(), {{"CC_MODE 1", "CC_MODE 7"},
                                           {"RATE_AI 20Mb/s", "RATE_AI 100Mb/s"},
                                           {"RATE_HAI 200Mb/s", "RATE_HAI 500Mb/s"},
                                           {"GLOBAL_T 1", "GLOBAL_T 0"}}));
  EXPECT_EQ(setup.scenario.cc.algorithm, "timely");
  const TimelyParams tm = ResolveTimelyParams(setup.scenario.cc, "x");
  EXPECT_EQ(tm.rate_ai, 100 * kMbps);
  EXPECT_EQ(tm.rate_hai, 500 * kMbps);
  EXPECT_EQ(tm.t_low, 50 * kMicrosecond);
  EXPECT_FALSE(setup.scenario.host.window);
  EXPECT_FALSE(setup.scenario.host.pause_acks);
  EXPECT_EQ(setup.scenario.host.base_rtt, HostConfig::BaseRtt::kPair);

  setup = LoadHpccConfig(Edited(Config(), {{"CC_MODE 1", "CC_MODE 8"},
                                           {"EWMA_GAIN 0.00390625", "EWMA_GAIN 0.0625"},
                                           {"DCTCP_RATE_AI 1000Mb/s", "DCTCP_RATE_AI 615Mb/s"}}));
  EXPECT_EQ(setup.scenario.cc.algorithm, "dctcp");
  const DctcpParams dc = ResolveDctcpParams(setup.scenario.cc, "x");
  EXPECT_DOUBLE_EQ(dc.g, 0.0625);
  EXPECT_EQ(dc.rate_ai, 615 * kMbps);
  EXPECT_EQ(dc.min_rate, 1000 * kMbps);
}

TEST_F(HpccConfigTest, MissingKeysTakeThatSimulatorsDefaults) {
  // Only the files and the ECN maps: everything else as third.cc initialises it.
  const std::string p = (dir_ / "min.txt").string();
  std::ofstream(p) << "TOPOLOGY_FILE " << (dir_ / "topo.txt").string() << "\nFLOW_FILE "
                   << (dir_ / "flow.txt").string()
                   << "\nKMAX_MAP 2 100000000000 1600 400000000000 6400\n"
                      "KMIN_MAP 2 100000000000 400 400000000000 1600\n"
                      "PMAX_MAP 2 100000000000 0.20 400000000000 0.20\n";
  const HpccSetup setup = LoadHpccConfig(p);
  const DcqcnParams params = ResolveDcqcnParams(setup.scenario);
  EXPECT_EQ(params.alpha_period, 55 * kMicrosecond);
  EXPECT_EQ(params.f, 5);
  EXPECT_EQ(params.min_rate, 100 * kMbps);
  EXPECT_EQ(setup.scenario.sw.buffer, 16 << 20);
  EXPECT_EQ(setup.scenario.duration, 3010 * kMillisecond);
  EXPECT_EQ(setup.fct_output_file, "fct.txt");
  // HAS_WIN 1, GLOBAL_T 1, VAR_WIN 0 and ACK_HIGH_PRIO 0 by default.
  EXPECT_TRUE(setup.scenario.host.window);
  EXPECT_EQ(setup.scenario.host.base_rtt, HostConfig::BaseRtt::kMax);
  EXPECT_FALSE(setup.scenario.host.window_scales_with_rate);
  EXPECT_TRUE(setup.scenario.host.pause_acks);
  // Broken defaults: the hpcc profile's values, with a warning each.
  EXPECT_DOUBLE_EQ(params.g, 1.0 / 256);
  EXPECT_EQ(params.timer, 300 * kMicrosecond);
  for (const char* key :
       {"EWMA_GAIN: missing", "RP_TIMER: missing", "RATE_AI: missing", "RATE_HAI: missing",
        "ENABLE_TRACE: missing (default 1)", "L2_ACK_INTERVAL: 0"}) {
    EXPECT_TRUE(HasWarning(setup, key)) << key << "\n" << ::testing::PrintToString(setup.warnings);
  }
}

TEST_F(HpccConfigTest, ErrorsNameFileLineAndKey) {
  std::string m = ErrorOf(Config("CC_MODE 1", "CC_MODE 10"));
  EXPECT_NE(m.find("config.txt:11: CC_MODE: 10 is not available in dcqcn; it runs 1 (DCQCN), 3 "
                   "(HPCC), 7 (TIMELY) and 8 (DCTCP); 10 is HPCC-PINT"),
            std::string::npos)
      << m;
  m = ErrorOf(Config("CC_MODE 1", "CC_MODE 42"));
  EXPECT_NE(m.find("CC_MODE: 42 is not available"), std::string::npos) << m;
  // HPCC's queue term needs the window.
  m = ErrorOf(Config("CC_MODE 1", "CC_MODE 3"));
  EXPECT_NE(m.find("HAS_WIN: HPCC (CC_MODE 3) needs HAS_WIN 1"), std::string::npos) << m;
  m = ErrorOf(Config("RATE_AI 20Mb/s", "RATE_AI 20Mbit"));
  EXPECT_NE(m.find("config.txt:18: RATE_AI: expected an ns-3 data rate"), std::string::npos) << m;
  m = ErrorOf(Config("EWMA_GAIN 0.00390625", "EWMA_GAIN 0"));
  EXPECT_NE(m.find("EWMA_GAIN: expected a gain in (0, 1]"), std::string::npos) << m;
  m = ErrorOf(Config("BUFFER_SIZE 32", "BUFFER_SIZE 32 MB"));
  EXPECT_NE(m.find("BUFFER_SIZE: expected 1 value, got \"32 MB\""), std::string::npos) << m;
  m = ErrorOf(
      Config("KMIN_MAP 2 100000000000 400 400000000000 1600", "KMIN_MAP 1 100000000000 400"));
  EXPECT_NE(m.find("KMIN_MAP: no entry for 400000000000 (400Gbps)"), std::string::npos) << m;
  m = ErrorOf(Config("PMAX_MAP 2 100000000000 0.20 400000000000 0.20", "PMAX_MAP 2 100000000000"));
  EXPECT_NE(m.find("PMAX_MAP: expected"), std::string::npos) << m;
  m = ErrorOf(Config("PACKET_PAYLOAD_SIZE 1000", "PACKET_PAYLOAD_SIZE 10"));
  EXPECT_NE(m.find("config.txt:3: PACKET_PAYLOAD_SIZE"), std::string::npos) << m;
  m = ErrorOf(Config("TOPOLOGY_FILE " + dir_.string() + "/topo.txt", "TOPOLOGY_FILE nowhere.txt"));
  // The config's line names the missing file.
  EXPECT_NE(m.find("config.txt:"), std::string::npos) << m;
  EXPECT_NE(m.find("TOPOLOGY_FILE: cannot read nowhere.txt: No such file or directory"),
            std::string::npos)
      << m;
  m = ErrorOf(Config("FLOW_FILE " + dir_.string() + "/flow.txt", ""));
  EXPECT_NE(m.find("FLOW_FILE: required"), std::string::npos) << m;
  // A misspelt required key: the error points at the likely typo.
  m = ErrorOf(Config("FLOW_FILE ", "FLOW_FIEL "));
  EXPECT_NE(m.find("FLOW_FILE: required: the path of the flow file (unknown keys: FLOW_FIEL on "
                   "line 5 (did you mean FLOW_FILE?))"),
            std::string::npos)
      << m;
  m = ErrorOf((dir_ / "no_config.txt").string());
  EXPECT_NE(m.find("no_config.txt: cannot read HPCC config"), std::string::npos) << m;
}

}  // namespace
}  // namespace dcqcn
