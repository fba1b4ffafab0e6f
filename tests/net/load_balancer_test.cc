// The switch's per-flowlet and per-packet choices (net/load_balancer.h), against a test clock.
#include "net/load_balancer.h"

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <set>

namespace dcqcn {
namespace {

LoadBalancer Make(SwitchConfig::LoadBalancing mode,
                  SwitchConfig::SprayOrder order = SwitchConfig::SprayOrder::kRandom) {
  SwitchConfig c;
  c.load_balancing = mode;
  c.spray_order = order;
  c.flowlet_timeout = 10 * kMicrosecond;
  return LoadBalancer(c, 1, 7);
}

constexpr std::array<uint16_t, 4> kPorts = {3, 5, 8, 9};
const auto kIdle = [](int) -> Bytes { return 0; };

TEST(LoadBalancerTest, AdaptiveTakesTheShortestQueueAndOnTiesTheFlowsEcmpPort) {
  LoadBalancer lb = Make(SwitchConfig::LoadBalancing::kAdaptive);
  // All idle: ECMP's port (hash 6 % 4 = 2: port 8), whatever the time.
  EXPECT_EQ(lb.Choose(6, 0, kPorts.data(), 4, kIdle), 8);
  EXPECT_EQ(lb.Choose(6, kSecond, kPorts.data(), 4, kIdle), 8);
  std::map<int, Bytes> queued = {{3, 9000}, {5, 4000}, {8, 4500}, {9, 4000}};
  auto q = [&](int port) { return queued.at(port); };
  // 5 and 9 hold the least: the first of them from port 8 on, wrapping, is 9.
  EXPECT_EQ(lb.Choose(6, 0, kPorts.data(), 4, q), 9);
  // From port 3 on (hash 4), 5 comes first.
  EXPECT_EQ(lb.Choose(4, 0, kPorts.data(), 4, q), 5);
  queued[3] = 0;
  EXPECT_EQ(lb.Choose(6, 0, kPorts.data(), 4, q), 3);
}

TEST(LoadBalancerTest, FlowletsChangePortOnlyAfterAGapOverTheTimeout) {
  LoadBalancer lb = Make(SwitchConfig::LoadBalancing::kFlowlet);
  const uint64_t flow = 0x1234567890abcdefULL;
  const int first = lb.Choose(flow, 0, kPorts.data(), 4, kIdle);
  EXPECT_EQ(lb.flowlets(), 1);
  // Packets closer together than the timeout stay on the flowlet's port, however long it runs.
  Time t = 0;
  for (int i = 0; i < 100; ++i) {
    t += 10 * kMicrosecond;  // a gap of exactly the timeout does not start a new flowlet
    EXPECT_EQ(lb.Choose(flow, t, kPorts.data(), 4, kIdle), first);
  }
  EXPECT_EQ(lb.flowlets(), 1);
  // After longer gaps each packet starts a flowlet, on a port drawn at random: all four come.
  std::set<int> seen;
  for (int i = 0; i < 64; ++i) {
    t += 10 * kMicrosecond + 1;
    seen.insert(lb.Choose(flow, t, kPorts.data(), 4, kIdle));
  }
  EXPECT_EQ(lb.flowlets(), 65);
  EXPECT_EQ(seen, (std::set<int>{3, 5, 8, 9}));
  // A slot whose port is not among another destination's choices starts a flowlet too.
  const std::array<uint16_t, 2> other = {1, 2};
  const int p = lb.Choose(flow, t + 1, other.data(), 2, kIdle);
  EXPECT_TRUE(p == 1 || p == 2);
  EXPECT_EQ(lb.flowlets(), 66);
}

TEST(LoadBalancerTest, SprayRoundRobinTakesThePortsInTurnAndRandomSpreadsEvenly) {
  LoadBalancer rr =
      Make(SwitchConfig::LoadBalancing::kSpray, SwitchConfig::SprayOrder::kRoundRobin);
  for (int round = 0; round < 3; ++round) {
    for (const uint16_t port : kPorts) EXPECT_EQ(rr.Choose(6, 0, kPorts.data(), 4, kIdle), port);
  }
  LoadBalancer random = Make(SwitchConfig::LoadBalancing::kSpray);
  std::map<int, int> count;
  for (int i = 0; i < 40000; ++i) ++count[random.Choose(6, 0, kPorts.data(), 4, kIdle)];
  ASSERT_EQ(count.size(), 4u);
  for (const auto& [port, n] : count) {
    EXPECT_GT(n, 9500) << port;  // 10000 expected; 5 sigma is 433
    EXPECT_LT(n, 10500) << port;
  }
  // The same seed and switch draw the same ports: runs are deterministic.
  LoadBalancer again = Make(SwitchConfig::LoadBalancing::kSpray);
  LoadBalancer twin = Make(SwitchConfig::LoadBalancing::kSpray);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(again.Choose(6, 0, kPorts.data(), 4, kIdle),
              twin.Choose(6, 0, kPorts.data(), 4, kIdle));
  }
}

}  // namespace
}  // namespace dcqcn
