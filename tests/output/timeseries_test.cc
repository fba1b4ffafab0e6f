// TimeSeriesSampler on the smallest networks, every value derived by hand: one flow at line rate
// through one switch (no queue, throughput at the link's payload rate), and a 2:1 incast (a
// queue that grows by a frame per frame time and drains).
#include "output/timeseries.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli_util.h"
#include "engine/one_thread_engine.h"
#include "net/network.h"
#include "scenario/scenario.h"
#include "test_util.h"

namespace dcqcn {
namespace {

// 100 Gb/s links and 914-byte payloads: 980-byte frames, 1,000 bytes on the wire, 80 ns each.
// Samples every 800 ns (ten frame times) from the first start. Each link's delay is 1 us and
// 40 ps, which puts every packet event 40 ps or more off the sampling grid: what a sample sees
// does not depend on the order of simultaneous events.
constexpr Bytes kPayload = 914;
constexpr Time kNs = kNanosecond;
constexpr Time kStart = 1 * kMicrosecond;
constexpr Time kInterval = 800 * kNs;
constexpr Time kLinkDelay = 1 * kMicrosecond + 40;

Scenario SmallStar(int hosts) {
  Scenario s = testing::StarScenario(hosts, 100 * kGbps, kLinkDelay);
  s.host.mtu = static_cast<int>(kPayload);
  s.output.ts_queue = s.output.ts_throughput = s.output.ts_rate = true;
  s.output.interval = kInterval;
  return s;
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

int Clamp(int v, int hi) { return std::clamp(v, 0, hi); }

using TimeSeriesTest = testing::TempDirTest;

TEST_F(TimeSeriesTest, OneFlowAtLineRate) {
  // Host 0 sends 50 packets to host 1 from 1 us. Packet k reaches host 1 at
  // start + 80 (k + 2) ns + 2 delays = start + 80 k + 2,160.08 ns: by sample j (start + 800 j ns)
  // 10 j - 27 packets have arrived (0 to 50). The last ACK reaches host 0 at
  // start + 6,080.08 + 2 x (7.2 + 1,000.04) = start + 8,094.56 ns, between samples 10 and 11:
  // sample 11 is the last, and the flow, finished less than an interval before it, is in it.
  Scenario s = SmallStar(2);
  s.flows = {{0, 1, 50 * kPayload, kStart, 3}};
  Network net(ToNetworkConfig(s));
  OneThreadEngine engine(net);
  TimeSeriesSampler sampler(&engine, s.output);
  engine.RunUntil(kTimeNever);
  ASSERT_TRUE(engine.all_done());
  EXPECT_EQ(net.flow_finish(0), kStart + 8'094'560);

  std::vector<Time> times;
  std::vector<std::pair<uint32_t, Bytes>> delivered;
  for (int j = 0; j <= 11; ++j) {
    times.push_back(kStart + j * kInterval);
    delivered.push_back({static_cast<uint32_t>(j), Clamp(10 * j - 27, 50) * kPayload});
  }
  EXPECT_EQ(sampler.times(), times);
  EXPECT_EQ(sampler.DeliveredByFlow(), DeliveredSamples{delivered});

  sampler.Write(dir_.string());
  // Throughput per interval: 10 packets of payload per 800 ns in full intervals, 91.4 Gb/s
  // (the link's 100 Gb/s times 914 / 1,000); 3 packets in the first, 7 in the last.
  std::string throughput = "time_ns,flow_id,gbps\n";
  const char* const gbps[] = {"0.000",  "0.000",  "27.420", "91.400", "91.400", "91.400",
                              "91.400", "63.980", "0.000",  "0.000",  "0.000"};
  for (int j = 1; j <= 11; ++j) {
    throughput += fmt::format("{},0,{}\n", (kStart + j * kInterval) / kNs, gbps[j - 1]);
  }
  EXPECT_EQ(ReadFile(dir_ / "timeseries/throughput.csv"), throughput);
  // No switch port ever queued a byte: the queue file has no rows.
  EXPECT_EQ(ReadFile(dir_ / "timeseries/queue.csv"), "time_ns,switch,port,queue_bytes,tx_gbps\n");
  // No congestion control: every sample has the line rate.
  std::string rate = "time_ns,flow_id,rc_gbps,rt_gbps,alpha\n";
  for (int j = 0; j <= 11; ++j) {
    rate += fmt::format("{},0,100.0000,100.0000,0.000000\n", (kStart + j * kInterval) / kNs);
  }
  EXPECT_EQ(ReadFile(dir_ / "timeseries/rate.csv"), rate);
}

// A DCQCN flow that never sees a CNP has no reaction-point state yet; rate.csv still reports
// the alpha its first CNP will cut by, cc.initial_alpha, not 0 (issue 28, item 12).
TEST_F(TimeSeriesTest, DcqcnAlphaBeforeTheFirstCnpIsTheInitialAlpha) {
  Scenario s = SmallStar(2);
  s.cc.algorithm = "dcqcn";
  s.cc.params["initial_alpha"] = {"0.5", 1};
  s.flows = {{0, 1, 50 * kPayload, kStart, 3}};
  Network net(ToNetworkConfig(s));
  OneThreadEngine engine(net);
  TimeSeriesSampler sampler(&engine, s.output);
  engine.RunUntil(kTimeNever);
  ASSERT_TRUE(engine.all_done());
  sampler.Write(dir_.string());
  const std::vector<std::string> alpha =
      testing::CsvColumn((dir_ / "timeseries/rate.csv").string(), "alpha");
  ASSERT_EQ(alpha.size(), 12u);
  for (const std::string& a : alpha) EXPECT_EQ(a, "0.500000");
}

TEST_F(TimeSeriesTest, TwoToOneIncastQueue) {
  // Hosts 1 and 2 send 20 packets each to host 0 from 1 us: a pair reaches the switch every
  // 80 ns, the first at start + 1,080.04 ns, and port 0 sends one per 80 ns from then on. By
  // sample j, with m = 10 j - 13, min(m, 20) pairs have come and min(m, 40) packets have left:
  // the queue holds 980 x (2 min(m, 20) - min(m, 40)) bytes (m from 0).
  Scenario s = SmallStar(3);
  s.flows = {{1, 0, 20 * kPayload, kStart, 3}, {2, 0, 20 * kPayload, kStart, 3}};
  Network net(ToNetworkConfig(s));
  OneThreadEngine engine(net);
  TimeSeriesSampler sampler(&engine, s.output);
  engine.RunUntil(kTimeNever);
  ASSERT_TRUE(engine.all_done());
  // Port 0 alternates: flow 0's packet k leaves (2k) x 80 ns after the first, flow 1's (2k + 1).
  // The last ACKs reach their senders at start + 7,214.56 and 7,294.56 ns: 11 samples.
  EXPECT_EQ(net.flow_finish(0), kStart + 7'214'560);
  EXPECT_EQ(net.flow_finish(1), kStart + 7'294'560);
  ASSERT_EQ(sampler.times().size(), 11u);
  EXPECT_EQ(sampler.times().back(), kStart + 10 * kInterval);
  // Flow 0's packet k reaches host 0 at start + 2,160.08 + 160 k ns, flow 1's 80 ns later.
  DeliveredSamples delivered(2);
  for (int j = 0; j <= 10; ++j) {
    delivered[0].push_back({static_cast<uint32_t>(j), Clamp(5 * j - 13, 20) * kPayload});
    delivered[1].push_back({static_cast<uint32_t>(j), Clamp(5 * j - 14, 20) * kPayload});
  }
  EXPECT_EQ(sampler.DeliveredByFlow(), delivered);

  sampler.Write(dir_.string());
  // Only port 0 ever queued. tx_gbps: 10 Gb/s per 1,000-byte frame sent in the interval.
  std::string queue = "time_ns,switch,port,queue_bytes,tx_gbps\n";
  int left_before = 0;
  for (int j = 0; j <= 10; ++j) {
    const int m = std::max(0, 10 * j - 13);
    const int pairs = std::min(m, 20);
    const int left = std::min(m, 40);
    const std::string tx = j == 0 ? "0.000" : fmt::format("{}.000", 10 * (left - left_before));
    queue += fmt::format("{},s0,0,{},{}\n", (kStart + j * kInterval) / kNs,
                         980 * (2 * pairs - left), tx);
    left_before = left;
  }
  EXPECT_EQ(ReadFile(dir_ / "timeseries/queue.csv"), queue);
  // Spelled out, the rows that queue: 7, 17, 13 and 3 frames.
  EXPECT_NE(queue.find("3400,s0,0,16660,100.000\n"), std::string::npos);
  EXPECT_NE(queue.find("5000,s0,0,2940,100.000\n"), std::string::npos);
}

TEST(TimeSeriesSamplerTest, NothingAskedForSchedulesNothing) {
  Scenario s = SmallStar(2);
  s.output.ts_queue = s.output.ts_throughput = s.output.ts_rate = false;
  s.flows = {{0, 1, 10 * kPayload, kStart, 3}};
  Network net(ToNetworkConfig(s));
  OneThreadEngine engine(net);
  const size_t pending = net.sim().pending();
  TimeSeriesSampler sampler(&engine, s.output);
  EXPECT_EQ(net.sim().pending(), pending);
  engine.RunUntil(kTimeNever);
  EXPECT_TRUE(sampler.times().empty());
  EXPECT_FALSE(sampler.samples_flows());
}

TEST(TimeSeriesSamplerTest, QueueAloneSamplesNoFlows) {
  // Queue only: sampled until every flow is done, but no flow samples (and no hold of finished
  // flows).
  Scenario s = SmallStar(2);
  s.output.ts_throughput = s.output.ts_rate = false;
  s.flows = {{0, 1, 50 * kPayload, kStart, 3}};
  Network net(ToNetworkConfig(s));
  OneThreadEngine engine(net);
  TimeSeriesSampler sampler(&engine, s.output);
  engine.RunUntil(kTimeNever);
  EXPECT_EQ(sampler.times().size(), 12u);
  EXPECT_TRUE(sampler.DeliveredByFlow().empty());
}

}  // namespace
}  // namespace dcqcn
