// Hosts whose NIC has several ports (NetworkMultiPortTest): two servers of two GPUs, each GPU
// cabled to its rail's leaf and to its server's NVSwitch, as SimAI's topologies are. A flow
// leaves by the port nearest its receiver, its ACKs come back on the port its data came in
// on, and the run is the same split over threads as on one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/one_thread_engine.h"
#include "net/network.h"
#include "run_to_end.h"
#include "scenario/scenario.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

// h0, h1: server 0; h2, h3: server 1. s0, s1: the leaves of rails 0 and 1; s2: a spine;
// s3, s4: the servers' NVSwitches.
constexpr const char* kTwoServers = R"(
duration = "2ms"
[cc]
algorithm = "none"  # rates as the ports give them (h0's link carries h3's flow and h0's ACKs)
[topology]
type = "custom"
hosts = 4
switches = 5
link_rate = "400Gbps"
link_delay = "500ns"
links = [["h0", "s0"], ["h0", "s3", "2880Gbps", "25ns"],
         ["h1", "s1"], ["h1", "s3", "2880Gbps", "25ns"],
         ["h2", "s0"], ["h2", "s4", "2880Gbps", "25ns"],
         ["h3", "s1"], ["h3", "s4", "2880Gbps", "25ns"],
         ["s0", "s2"], ["s1", "s2"]]
[[flow]]
src = 0
dst = 1
size = "4MB"
[[flow]]
src = 0
dst = 2
size = "4MB"
[[flow]]
src = 3
dst = 0
size = "4MB"
[[flow]]
src = 3
dst = 2
size = "4MB"
)";

std::vector<std::string> Hops(const Network& net, uint32_t flow, int direction) {
  std::vector<std::string> hops;
  for (const auto& [node, port] : net.PortPathOf(flow, direction)) {
    hops.push_back(net.config().topology.node_name(node) + ":" + std::to_string(port));
  }
  return hops;
}

using testing::NetworkRun;
using testing::RunToEnd;

NetworkRun RunSplit(int parts) {
  return RunToEnd(LoadScenarioText(kTwoServers, "two_servers.toml"), parts);
}

TEST(NetworkMultiPortTest, EachFlowLeavesByThePortNearestItsReceiver) {
  const Scenario s = LoadScenarioText(kTwoServers, "two_servers.toml");
  Network net(ToNetworkConfig(s));
  EXPECT_EQ(net.num_ports(0), 2);
  EXPECT_EQ(net.hosts()[0]->num_ports(), 2);
  // Inside a server: over the NVSwitch (port 1), both ways.
  EXPECT_EQ(Hops(net, 0, 0), (std::vector<std::string>{"h0:1", "s3:1"}));
  EXPECT_EQ(Hops(net, 0, 1), (std::vector<std::string>{"h1:1", "s3:0"}));
  // Same rail: the leaf; another rail: the leaf, the spine and the other leaf.
  EXPECT_EQ(Hops(net, 1, 0), (std::vector<std::string>{"h0:0", "s0:1"}));
  EXPECT_EQ(Hops(net, 2, 0), (std::vector<std::string>{"h3:0", "s1:2", "s2:0", "s0:0"}));
  EXPECT_EQ(Hops(net, 2, 1), (std::vector<std::string>{"h0:0", "s0:2", "s2:1", "s1:1"}));
  EXPECT_EQ(Hops(net, 3, 0), (std::vector<std::string>{"h3:1", "s4:0"}));
  EXPECT_EQ(net.SenderPort(0), 1);
  EXPECT_EQ(net.SenderPort(1), 0);
}

TEST(NetworkMultiPortTest, NvlinkPortsCarryTheirFlowsAtTheirOwnRate) {
  const NetworkRun o = RunSplit(1);
  ASSERT_EQ(o.finish.size(), 4u);
  for (const Time t : o.finish) EXPECT_GT(t, 0);
  // 4 MB: 11.1 us at 2880 Gb/s, 80 us at 400 Gb/s. h0 and h3 each send two flows, by
  // different ports: neither shares one, and h0 sends one and receives another on port 0.
  for (const int nvlink : {0, 3}) {
    EXPECT_GT(o.finish[nvlink], 11 * kMicrosecond);
    EXPECT_LT(o.finish[nvlink], 15 * kMicrosecond);
  }
  for (const int nic : {1, 2}) {
    EXPECT_GT(o.finish[nic], 80 * kMicrosecond);
    EXPECT_LT(o.finish[nic], 100 * kMicrosecond);
  }
  EXPECT_EQ(o.stats.drops, 0u);
  EXPECT_EQ(o.stats.payload_delivered, 4 * 4000000);
}

TEST(NetworkMultiPortTest, ThreadsGiveTheSameRunAsOne) {
  const NetworkRun one = RunSplit(1);
  const NetworkRun two = RunSplit(2);
  EXPECT_EQ(one.finish, two.finish);
  EXPECT_EQ(one.stats.packet_hops, two.stats.packet_hops);
  EXPECT_EQ(one.stats.ecn_marked_packets, two.stats.ecn_marked_packets);
}

// Dual-ToR (topology.ports_per_host = 2): each queue pair's hash picks one of its host's two
// ports, so a host's flows use both leaves, and the run is the same over threads.
constexpr const char* kDualTor = R"(
duration = "1s"
[topology]
type = "leaf_spine"
leaves = 4
spines = 2
hosts_per_leaf = 4
ports_per_host = 2
link_rate = "100Gbps"
[[collective]]
op = "alltoall"
size = "8MB"
)";

TEST(NetworkMultiPortTest, DualTorQueuePairsSpreadOverBothPortsAndThreadsAgree) {
  const Scenario s = LoadScenarioText(kDualTor, "dual_tor.toml");
  std::vector<std::vector<Time>> finish;
  for (const int parts : {1, 2}) {
    const NetworkRun run = RunToEnd(s, parts, [](Network& net) {
      EXPECT_EQ(net.hosts()[0]->num_ports(), 2);
      int on_port[2] = {0, 0};
      for (uint32_t id = 0; id < net.num_flows(); ++id) {
        if (net.config().flows[id].src == 0) ++on_port[net.SenderPort(id)];
      }
      // h0 sends 7 flows; both ports carry some.
      EXPECT_GT(on_port[0], 0);
      EXPECT_GT(on_port[1], 0);
    });
    EXPECT_EQ(run.stats.drops, 0u);
    finish.push_back(run.finish);
  }
  EXPECT_EQ(finish[0], finish[1]);
}

// One port of a dual-ToR NIC fails: what is sent into it is lost until the routes reconverge;
// then its queue pairs move to the other port (a bond's failover) and every flow finishes, the
// same over threads.
TEST(NetworkMultiPortTest, QueuePairsOfAFailedPortMoveToTheOtherAndFinish) {
  const std::string text =
      std::string(kDualTor) +
      "[[event]]\nat = \"20us\"\nkind = \"link_down\"\nlink = [\"h0\", \"s0\"]\n";
  const Scenario s = LoadScenarioText(text, "failover.toml",
                                      std::vector<std::string>{"topology.reconvergence=10us"});
  std::vector<std::vector<Time>> finish;
  for (const int parts : {1, 2}) {
    std::vector<uint32_t> on_port0;  // h0's flows bound to the port that fails
    const NetworkRun run = RunToEnd(
        s, parts,
        [&](Network& net) {
          for (uint32_t id = 0; id < net.num_flows(); ++id) {
            if (net.config().flows[id].src == 0 && net.SenderPort(id) == 0) on_port0.push_back(id);
          }
          ASSERT_FALSE(on_port0.empty());
        },
        [&](Network& net) {
          for (const uint32_t id : on_port0) EXPECT_EQ(net.SenderPort(id), 1) << id;
        });
    EXPECT_GT(run.stats.link_drops, 0u);  // sent into the dead link before the failover
    for (uint32_t id = 0; id < run.finish.size(); ++id) EXPECT_GT(run.finish[id], 0) << id;
    finish.push_back(run.finish);
  }
  EXPECT_EQ(finish[0], finish[1]);
}

}  // namespace
}  // namespace dcqcn
