// Tests of the paper's buffer-threshold rules: the paper's own numbers exactly, the headroom
// estimate's terms, and the per-switch warnings for scenarios.
#include "analysis/buffer_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "net/headers.h"
#include "net/network.h"
#include "test_util.h"
#include "topology/builders.h"

namespace dcqcn {
namespace {

TEST(BufferRules, PaperNumbers) {
  // 32 ports, B = 12,000 KB (decimal), t_flight = 22.4 KB, beta = 8 (spec 4.2).
  const Bytes shared = SharedBufferAfterHeadroom(12000000, 32, 22400);
  EXPECT_EQ(shared, 12000000 - 8 * 32 * 22400);
  EXPECT_EQ(shared, 6265600);

  const double t_pfc = StaticPfcBound(shared, 32);
  EXPECT_DOUBLE_EQ(t_pfc, 24475.0);
  EXPECT_EQ(KbFloor(t_pfc), "24.47 KB");  // the paper's figure: rounded down, still a bound

  const double ecn_static = StaticEcnBound(t_pfc, 32);
  EXPECT_DOUBLE_EQ(ecn_static, 24475.0 / 32);
  EXPECT_EQ(KbFloor(ecn_static), "0.76 KB");
  EXPECT_LT(ecn_static, 1500);  // below one MTU: infeasible

  const double ecn_dynamic = DynamicEcnBound(shared, 32, 8);
  EXPECT_DOUBLE_EQ(ecn_dynamic, 8.0 * 6265600 / (8.0 * 32 * 9));
  EXPECT_EQ(KbFloor(ecn_dynamic), "21.75 KB");
  EXPECT_LT(5000, ecn_dynamic);  // Kmin = 5 KB satisfies it
}

TEST(BufferRules, LargerBetaLeavesMoreRoomForKmin) {
  const Bytes shared = SharedBufferAfterHeadroom(12000000, 32, 22400);
  EXPECT_LT(DynamicEcnBound(shared, 32, 1), DynamicEcnBound(shared, 32, 8));
  EXPECT_LT(DynamicEcnBound(shared, 32, 8), DynamicEcnBound(shared, 32, 64));
  // beta -> infinity approaches the static bound's t_PFC share: shared / (8 n).
  EXPECT_LT(DynamicEcnBound(shared, 32, 1e9), StaticPfcBound(shared, 32));
  EXPECT_NEAR(DynamicEcnBound(shared, 32, 1e9), StaticPfcBound(shared, 32), 1e-3);
}

TEST(BufferRules, SharedBufferGoesNegativeWhenHeadroomDoesNotFit) {
  EXPECT_EQ(SharedBufferAfterHeadroom(1000000, 32, 4000), 1000000 - 1024000);
}

TEST(BufferRules, HeadroomEstimateTerms) {
  // 40 Gb/s, 100 m of cable (500 ns one way), MTU 1500.
  const HeadroomTerms t = EstimateHeadroom(40 * kGbps, 500 * kNanosecond, 1500);
  EXPECT_EQ(t.round_trip, 5000);              // 40 Gb/s x 1 us
  EXPECT_EQ(t.frames, 2 * (1500 + 22 + 20));  // one frame on the wire at each end
  EXPECT_EQ(t.pfc_frame, 64 + 20);
  EXPECT_EQ(t.response, (2 * 24576 + 60416) / 8);
  EXPECT_EQ(t.total(), 21864);
  EXPECT_EQ(KbCeil(static_cast<double>(t.total())), "21.87 KB");

  // The round trip scales with rate and cable; the rest does not depend on them.
  const HeadroomTerms fast = EstimateHeadroom(100 * kGbps, 500 * kNanosecond, 1500);
  EXPECT_EQ(fast.round_trip, 12500);
  EXPECT_EQ(fast.frames, t.frames);
  EXPECT_EQ(fast.response, t.response);
  // Rounded up: a fraction of a byte in flight still needs a byte of buffer.
  EXPECT_EQ(EstimateHeadroom(40 * kGbps, 1, 1500).round_trip, 1);
  EXPECT_EQ(EstimateHeadroom(40 * kGbps, 0, 9000).frames, 2 * (9000 + 42));
}

TEST(BufferRules, ParseCableDelay) {
  EXPECT_EQ(ParseCableDelay("100m"), 500 * kNanosecond);
  EXPECT_EQ(ParseCableDelay("1.5km"), 7500 * kNanosecond);
  EXPECT_EQ(ParseCableDelay("0.2m"), 1 * kNanosecond);
  EXPECT_EQ(ParseCableDelay("0m"), 0);
  for (const char* bad :
       {"", "m", "km", "100", "-1m", "10 m", "10mm", "1e400m", "abc", "5ft", "nanm", "infm"}) {
    EXPECT_EQ(ParseCableDelay(bad), std::nullopt) << bad;
  }
}

TEST(BufferRules, KilobyteFormatting) {
  EXPECT_EQ(KbFloor(24475), "24.47 KB");
  EXPECT_EQ(KbFloor(24470), "24.47 KB");  // exact values are not pushed a step down
  EXPECT_EQ(KbFloor(24479.9), "24.47 KB");
  EXPECT_EQ(KbCeil(22400), "22.40 KB");
  EXPECT_EQ(KbCeil(22401), "22.41 KB");
  EXPECT_EQ(KbCeil(0), "0.00 KB");
}

// ---------------------------------------------------------------------------------------------
// BufferWarnings

using testing::IncastScenario;

// 32 hosts on one switch with the paper's numbers: B = 12,000 KB, t_flight = 22.4 KB, beta = 8.
Scenario PaperSwitch() {
  Scenario s = IncastScenario(31, 100000);
  s.cc.algorithm = "dcqcn";
  s.sw.buffer = 12000000;
  s.sw.pfc.headroom_rule = PfcConfig::HeadroomRule::kFixed;
  s.sw.pfc.headroom = 22400;
  s.sw.pfc.alpha = 1;  // beta = 8 * alpha = 8
  return s;
}

std::string Joined(const std::vector<std::string>& warnings) {
  std::string all;
  for (const std::string& w : warnings) all += w + "\n";
  return all;
}

TEST(BufferWarnings, DefaultsAreQuiet) {
  EXPECT_TRUE(BufferWarnings(IncastScenario(8, 100000)).empty());
  Scenario s = IncastScenario(8, 100000);
  s.cc.algorithm = "dcqcn";
  EXPECT_TRUE(BufferWarnings(s).empty());
  EXPECT_TRUE(BufferWarnings(PaperSwitch()).empty());
}

TEST(BufferWarnings, KminAgainstThePapersDynamicBound) {
  Scenario s = PaperSwitch();
  s.sw.ecn.kmin = 21700;  // just below 21.75 KB
  EXPECT_TRUE(BufferWarnings(s).empty()) << Joined(BufferWarnings(s));
  s.sw.ecn.kmin = 21800;
  const std::vector<std::string> w = BufferWarnings(s);
  ASSERT_EQ(w.size(), 1u) << Joined(w);
  EXPECT_EQ(w[0],
            "s0: ECN Kmin 21.8KB is not below the t_ECN bound 21.75 KB of the dynamic PFC "
            "threshold (beta = 8 x alpha = 8; 32 ports, buffer 12MB, headroom 22.40 KB per port "
            "and priority): PFC can fire before ECN");
}

TEST(BufferWarnings, AutoHeadroomIsWhatTheSimulatorReserves) {
  // A star of 9 at 40 Gb/s, 1 us: AutoHeadroom = 10000 + 3 x 1086 + 84 = 13342 per port.
  Scenario s = IncastScenario(8, 100000);
  s.cc.algorithm = "dcqcn";
  ASSERT_EQ(AutoHeadroom(40 * kGbps, kMicrosecond, DataFrameBytes(s.host.mtu)), 13342);
  // alpha 1/8 (beta 1): bound = (12e6 - 8 x 9 x 13342) / (8 x 9 x 2) = 76662.3 bytes.
  s.sw.ecn.kmin = 76000;
  EXPECT_TRUE(BufferWarnings(s).empty());
  s.sw.ecn.kmin = 77000;
  const std::vector<std::string> w = BufferWarnings(s);
  ASSERT_EQ(w.size(), 1u) << Joined(w);
  EXPECT_NE(w[0].find("t_ECN bound 76.66 KB"), std::string::npos) << w[0];
  EXPECT_NE(w[0].find("9 ports, buffer 12MB, headroom 13.35 KB"), std::string::npos) << w[0];
}

TEST(BufferWarnings, StaticThreshold) {
  Scenario s = PaperSwitch();
  s.sw.pfc.dynamic_threshold = false;
  s.sw.pfc.static_threshold = 24470;  // just under the t_PFC bound of 24.475 KB
  std::vector<std::string> w = BufferWarnings(s);
  ASSERT_EQ(w.size(), 1u) << Joined(w);  // Kmin 5 KB > 24470 / 32
  EXPECT_EQ(w[0],
            "s0: ECN Kmin 5KB is not below the t_ECN bound 0.76 KB of the static PFC threshold "
            "24.47KB (threshold / 32 ports): PFC can fire before ECN");

  s.sw.pfc.static_threshold = 30000;  // above the t_PFC bound too
  s.sw.ecn.kmin = 500;
  w = BufferWarnings(s);
  ASSERT_EQ(w.size(), 1u) << Joined(w);
  EXPECT_NE(w[0].find("static PFC threshold 30KB is above the t_PFC bound 24.47 KB"),
            std::string::npos)
      << w[0];
}

TEST(BufferWarnings, HeadroomSmallerThanInFlightBytes) {
  Scenario s = IncastScenario(8, 100000);
  s.sw.pfc.headroom_rule = PfcConfig::HeadroomRule::kFixed;
  s.sw.pfc.headroom = 10000;  // below the 13342 bytes a 40 Gb/s, 1 us port has in flight
  std::vector<std::string> w = BufferWarnings(s);
  ASSERT_EQ(w.size(), 1u) << Joined(w);
  EXPECT_EQ(w[0],
            "s0: switch.pfc.headroom 10KB is smaller than the in-flight bytes of 9 of its 9 ports "
            "(up to 13.35 KB on 40Gbps, 1us links: two one-way delays of data, 3 frames and a "
            "PAUSE): PFC can drop packets");
  s.sw.pfc.headroom = 13342;
  EXPECT_TRUE(BufferWarnings(s).empty());
}

TEST(BufferWarnings, EcnDisabledWithDcqcn) {
  Scenario s = IncastScenario(8, 100000);
  s.sw.ecn.enabled = false;
  EXPECT_TRUE(BufferWarnings(s).empty());  // cc none: nothing expects ECN
  s.cc.algorithm = "dcqcn";
  std::vector<std::string> w = BufferWarnings(s);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("switch.ecn is disabled with cc.algorithm = \"dcqcn\""), std::string::npos);
}

TEST(BufferWarnings, NothingWithoutPfc) {
  Scenario s = PaperSwitch();
  s.sw.ecn.kmin = 100000;
  s.sw.ecn.enabled = false;
  s.sw.pfc.headroom = 1000;
  ASSERT_FALSE(BufferWarnings(s).empty());
  s.sw.pfc.enabled = false;
  EXPECT_TRUE(BufferWarnings(s).empty());
}

TEST(BufferWarnings, HeadroomFillingTheBuffer) {
  Scenario s = PaperSwitch();
  s.sw.buffer = 8 * 32 * 22400;
  std::vector<std::string> w = BufferWarnings(s);
  ASSERT_EQ(w.size(), 1u) << Joined(w);
  EXPECT_NE(w[0].find("takes the whole buffer"), std::string::npos) << w[0];
}

TEST(BufferWarnings, IdenticalSwitchesShareOneWarning) {
  Scenario s = IncastScenario(3, 100000);
  s.cc.algorithm = "dcqcn";
  s.topology.type = "fat_tree";
  s.topology.k = 8;  // 80 switches of 8 ports, all links alike
  BuildTopology(s.topology, "x");
  s.sw.ecn.kmin = 150000;
  s.sw.ecn.kmax = 400000;
  std::vector<std::string> w = BufferWarnings(s);
  ASSERT_EQ(w.size(), 1u) << Joined(w);
  EXPECT_EQ(w[0].rfind("s0-s79 (80 switches): ECN Kmin 150KB", 0), 0u) << w[0];

  // Leaves (8 ports) and spines (4 ports) differ: one warning each, naming their switches.
  s.topology = TopologyConfig();
  s.topology.type = "leaf_spine";
  s.topology.leaves = 4;
  s.topology.spines = 2;
  s.topology.hosts_per_leaf = 6;
  BuildTopology(s.topology, "x");
  s.sw.ecn.kmin = 200000;
  w = BufferWarnings(s);
  ASSERT_EQ(w.size(), 2u) << Joined(w);
  EXPECT_EQ(w[0].rfind("s0-s3 (4 switches): ", 0), 0u) << w[0];
  EXPECT_NE(w[0].find("8 ports"), std::string::npos) << w[0];
  EXPECT_EQ(w[1].rfind("s4-s5 (2 switches): ", 0), 0u) << w[1];
  EXPECT_NE(w[1].find("4 ports"), std::string::npos) << w[1];
}

}  // namespace
}  // namespace dcqcn
