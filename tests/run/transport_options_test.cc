// The transport options HPCC ns-3's congestion control runs with, independent of the algorithm:
// base RTT and BDP as that simulator computes them, the BDP window (host.window), and an ACK
// queue that obeys PFC (host.pause_acks).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "net/base_rtt.h"
#include "run/run_scenario.h"
#include "test_util.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

// Two racks of two hosts (100 Gb/s, 1 us) under one spine (400 Gb/s, 1 us): the values HPCC
// ns-3 prints for its fat tree (MODEL-NOTES.md: same ToR 4160 ns, same pod 8200 ns).
Topology TwoRacks() {
  Topology t;
  t.hosts = 4;
  t.switches = 3;  // s0, s1 racks; s2 spine
  const Time us = kMicrosecond;
  t.links = {{0, 4, 100 * kGbps, us}, {1, 4, 100 * kGbps, us}, {2, 5, 100 * kGbps, us},
             {3, 5, 100 * kGbps, us}, {4, 6, 400 * kGbps, us}, {5, 6, 400 * kGbps, us}};
  return t;
}

TEST(BaseRttTest, AsHpccNs3ComputesIt) {
  const Topology t = TwoRacks();
  // Same rack: 2 x 2 us + 2 x 80 ns (1000 B at 100 Gb/s, payload only, one way).
  const BaseRtt rack = PathBaseRtt({t.links[0], t.links[1]}, 1000);
  EXPECT_EQ(rack.rtt, 4160 * kNanosecond);
  EXPECT_EQ(rack.bdp, 4160 * 100 / 8);  // at the slowest link, 100 Gb/s: 52000 B
  // Across the spine: 2 x 4 us + 80 + 20 + 20 + 80 ns.
  const BaseRtt far = PathBaseRtt({t.links[0], t.links[4], t.links[5], t.links[2]}, 1000);
  EXPECT_EQ(far.rtt, 8200 * kNanosecond);
  EXPECT_EQ(far.bdp, 102500);
  // The largest over all pairs is the far pair's.
  const BaseRtt max = MaxBaseRtt(t, 1000);
  EXPECT_EQ(max.rtt, far.rtt);
  EXPECT_EQ(max.bdp, far.bdp);
}

// One flow of 64-byte packets at 100 Gb/s with no propagation delay: its BDP by HPCC's rule
// (one payload's serialization per link, 5 ns each) is 10 ns x 100 Gb/s = 125 bytes, two
// packets, while a packet's real round trip (headers, both links, the ACK) is several times
// longer. So the window, not the line, limits the flow.
Scenario TinyBdpFlow() {
  Scenario s = testing::StarScenario(2, 100 * kGbps, 0);
  s.host.mtu = 64;
  s.flows = {{1, 0, 640000, 0, 3}};
  s.explicit_flows = 1;
  s.duration = 10 * kMillisecond;
  return s;
}

// Runs `s` and returns the FCTs (ns) of its finished flows whose column `key` (of flows.csv)
// is `value`.
std::vector<double> FctsWhere(const Scenario& s, const std::string& key, int value,
                              const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("dcqcn_transport_" + name);
  fs::remove_all(dir);
  RunScenario(s, {.out_dir = dir.string(), .after_run = nullptr});
  const std::string flows = (dir / "flows.csv").string();
  const auto keys = testing::CsvColumn(flows, key);
  const auto fct = testing::CsvColumn(flows, "fct_ns");
  std::vector<double> fcts;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == std::to_string(value) && !fct[i].empty()) fcts.push_back(std::stod(fct[i]));
  }
  fs::remove_all(dir);
  return fcts;
}

// The FCT of flow `id` of `s`, in ns (-1 if it did not finish).
double FctOf(const Scenario& s, int id, const std::string& name) {
  const std::vector<double> fcts = FctsWhere(s, "flow_id", id, name);
  return fcts.empty() ? -1 : fcts[0];
}

TEST(WindowTest, TheBdpWindowLimitsBytesInFlightAndAcksReopenIt) {
  Scenario s = TinyBdpFlow();
  const double free = FctOf(s, 0, "free");
  s.host.window = true;
  const double limited = FctOf(s, 0, "limited");
  ASSERT_GT(free, 0);
  EXPECT_GT(limited, 1.3 * free);  // and it finished: ACKs reopen the window
  // Per-pair and largest base RTT are the same on a star.
  s.host.base_rtt = HostConfig::BaseRtt::kPair;
  EXPECT_EQ(FctOf(s, 0, "pair"), limited);
  // At line rate a rate-scaled window is the whole window.
  s.host.window_scales_with_rate = true;
  EXPECT_EQ(FctOf(s, 0, "scaled"), limited);
}

// The mean FCT of the finished flows from host `src`, in ns (-1 if none).
double MeanFctFrom(const Scenario& s, int src, const std::string& name) {
  const std::vector<double> fcts = FctsWhere(s, "src", src, name);
  double sum = 0;
  for (double f : fcts) sum += f;
  return fcts.empty() ? -1 : sum / static_cast<double>(fcts.size());
}

TEST(PauseAcksTest, AnAckQueueThatObeysPfcDelaysTheAcksOfAPausedHost) {
  // 8:1 incast onto h0 with PFC alone, so the switch keeps pausing h1..h8; meanwhile h0 sends
  // ten one-packet flows to h1, whose ACKs leave from a NIC that is paused most of the time.
  Scenario s = testing::IncastScenario(8, 5000000);
  for (int k = 0; k < 10; ++k) s.flows.push_back({0, 1, 1000, (1000 + 100 * k) * kMicrosecond, 3});
  s.explicit_flows = static_cast<int>(s.flows.size());
  s.duration = 50 * kMillisecond;
  const nlohmann::json j = RunScenario(s, {});
  EXPECT_GT(j["pfc_pause_frames"].get<int>(), 100);
  const double first = MeanFctFrom(s, 0, "acks_first");
  s.host.pause_acks = true;
  const double paused = MeanFctFrom(s, 0, "acks_paused");
  ASSERT_GT(first, 0);
  EXPECT_GT(paused, 1.5 * first);
}

}  // namespace
}  // namespace dcqcn
