// Switch load balancing on a whole network (switch.load_balancing): a ring AllReduce whose
// cross-leaf hops collide under ECMP on a 2:1 leaf-spine (examples/ai/ecmp_collisions, smaller).
// Adaptive routing spreads the load and finishes sooner; oblivious spraying with go-back-N NICs
// turns the reordering into NACKs and retransmissions; every mode runs the same over threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "run_to_end.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

constexpr const char* kCollisions = R"(
duration = "1s"
[topology]
type = "leaf_spine"
leaves = 4
spines = 2
hosts_per_leaf = 4
oversubscription = 2
link_rate = "100Gbps"
link_delay = "1us"
[[collective]]
op = "allreduce"
algorithm = "ring"
ranks = [0, 4, 8, 12, 1, 5, 9, 13]
size = "8MB"
)";

using testing::NetworkRun;
using testing::RunToEnd;

NetworkRun RunWith(const std::string& mode, int parts = 1,
                   const std::string& reorder = "go_back_n") {
  return RunToEnd(LoadScenarioText(kCollisions, "collisions.toml",
                                   std::vector<std::string>{"switch.load_balancing=" + mode,
                                                            "host.reorder=" + reorder}),
                  parts);
}

TEST(LoadBalancing, AdaptiveRoutingBeatsEcmpsCollisionsAndSprayingMakesGoBackNRetransmit) {
  const NetworkRun ecmp = RunWith("ecmp");
  const NetworkRun adaptive = RunWith("adaptive");
  const NetworkRun spray = RunWith("spray");
  // Lossless and complete: every mode delivers every byte, PFC drops nothing.
  for (const NetworkRun* o : {&ecmp, &adaptive, &spray}) {
    EXPECT_EQ(o->stats.drops, 0u);
    EXPECT_EQ(o->stats.payload_delivered, ecmp.stats.payload_delivered);
  }
  // ECMP keeps each flow on one path: nothing overtakes, nothing is resent.
  EXPECT_EQ(ecmp.stats.nacks, 0u);
  EXPECT_EQ(ecmp.stats.retransmitted_packets, 0u);
  // Adaptive routing moves packets off the colliding uplink: the AllReduce ends sooner, though
  // the packets it moves arrive out of order and go-back-N resends some.
  EXPECT_LT(adaptive.end(), 0.9 * static_cast<double>(ecmp.end()));
  EXPECT_GT(adaptive.stats.nacks, 0u);
  // Spraying every packet blindly reorders most of them: go-back-N NICs NACK and resend so much
  // (72% of what they send, where adaptive resends 31%) that the AllReduce takes over twice as
  // long as with ECMP's collisions (10.98 ms, 4.58 ms; adaptive 3.76 ms).
  EXPECT_GT(spray.stats.nacks, 4 * adaptive.stats.nacks);
  EXPECT_GT(spray.stats.retransmitted_packets, spray.stats.data_packets_sent / 2);
  EXPECT_GT(spray.end(), 2 * ecmp.end());
}

TEST(LoadBalancing, FlowletsFollowTheGapsBetweenRingSteps) {
  // The ring's steps are separate transfers of one queue pair, with a gap between them while the
  // next chunk comes: with a timeout shorter than that gap each step may take a new path; with
  // a second-long one a queue pair never leaves its first port and the run is ECMP's load.
  const NetworkRun flowlet = RunWith("flowlet");
  EXPECT_EQ(flowlet.stats.drops, 0u);
  const Scenario s = LoadScenarioText(
      kCollisions, "collisions.toml",
      std::vector<std::string>{"switch.load_balancing=flowlet", "switch.flowlet_timeout=1s"});
  EXPECT_EQ(RunToEnd(s).stats.nacks, 0u);  // one path per flowlet, never a reorder
}

TEST(LoadBalancing, NicsThatToleratePacketsOutOfOrderTurnSprayingIntoTheFastest) {
  const NetworkRun ecmp = RunWith("ecmp");
  const NetworkRun go_back_n = RunWith("spray");
  const NetworkRun selective = RunWith("spray", 1, "selective");
  const NetworkRun placement = RunWith("spray", 1, "placement");
  for (const NetworkRun* o : {&selective, &placement}) {
    EXPECT_EQ(o->stats.drops, 0u);
    EXPECT_EQ(o->stats.payload_delivered, ecmp.stats.payload_delivered);
    EXPECT_GT(o->stats.out_of_order_packets, o->stats.data_packets_sent / 10);
  }
  // Placement: the reordering costs nothing, every path carries its share: the fastest run,
  // well under ECMP's collisions, with no NACK and nothing resent.
  EXPECT_EQ(placement.stats.nacks, 0u);
  EXPECT_EQ(placement.stats.retransmitted_packets, 0u);
  EXPECT_EQ(placement.stats.duplicate_packets, 0u);
  EXPECT_LT(placement.end(), 0.7 * static_cast<double>(ecmp.end()));
  // Selective repeat resends single packets, most of them spuriously (the original was only
  // late): far fewer than go-back-N, and it keeps most of spraying's gain.
  EXPECT_LT(selective.stats.retransmitted_packets, go_back_n.stats.retransmitted_packets / 5);
  EXPECT_GT(selective.stats.duplicate_packets, selective.stats.retransmitted_packets / 2);
  EXPECT_LT(selective.end(), ecmp.end());
  EXPECT_LT(placement.end(), selective.end());
}

TEST(LoadBalancing, ThreadsMakeTheSameChoicesAsOneLoop) {
  for (const std::string mode : {"adaptive", "spray", "flowlet"}) {
    const NetworkRun one = RunWith(mode, 1, mode == "spray" ? "selective" : "go_back_n");
    const NetworkRun two = RunWith(mode, 2, mode == "spray" ? "selective" : "go_back_n");
    EXPECT_EQ(one.finish, two.finish) << mode;
    EXPECT_EQ(one.stats.nacks, two.stats.nacks) << mode;
    EXPECT_EQ(one.stats.retransmitted_packets, two.stats.retransmitted_packets) << mode;
  }
}

TEST(LoadBalancing, KeysRoundTripAndOnePathIsAnInputError) {
  const Scenario s = LoadScenarioText(
      kCollisions, "collisions.toml",
      std::vector<std::string>{"switch.load_balancing=spray", "switch.spray_order=round_robin",
                               "switch.load_balancing_at=leaves", "switch.flowlet_timeout=50us"});
  const Scenario again = LoadScenarioText(ResolvedToml(s), "resolved.toml");
  EXPECT_EQ(again.sw.load_balancing, SwitchConfig::LoadBalancing::kSpray);
  EXPECT_EQ(again.sw.spray_order, SwitchConfig::SprayOrder::kRoundRobin);
  EXPECT_EQ(again.sw.load_balancing_at, SwitchConfig::LoadBalancingAt::kLeaves);
  EXPECT_EQ(again.sw.flowlet_timeout, 50 * kMicrosecond);
  EXPECT_NE(testing::InputErrorOf([&] {
              LoadScenarioText(kCollisions, "c.toml", {"switch.load_balancing=letflow"});
            }).find("switch.load_balancing"),
            std::string::npos);
  // A star has one path everywhere; a leaf-spine's spines have one path down.
  const std::string star =
      "[topology]\ntype = \"star\"\nhosts = 4\n[[flow]]\nsrc = 1\ndst = 0\n"
      "size = \"1MB\"\n";
  const Scenario one_path = LoadScenarioText(star, "star.toml", {"switch.load_balancing=spray"});
  EXPECT_NE(testing::InputErrorOf([&] {
              Network net(ToNetworkConfig(one_path));
            }).find("star.toml: switch.load_balancing: no switch it applies to"),
            std::string::npos);
  const Scenario spines =
      LoadScenarioText(kCollisions, "c.toml",
                       std::vector<std::string>{"switch.load_balancing=spray",
                                                "switch.load_balancing_at=above_leaves"});
  EXPECT_NE(testing::InputErrorOf([&] { Network net(ToNetworkConfig(spines)); }), "");
}

}  // namespace
}  // namespace dcqcn
