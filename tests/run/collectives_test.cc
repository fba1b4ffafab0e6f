// [[collective]] through the loader and whole runs: input errors name the key; --set and
// resolved.toml keep the tables; on an idle non-blocking fabric the ring and halving-doubling
// take their ideal time within 2%; every dependent flow starts exactly when its source host sees
// the last prerequisite complete; NVLink carries intra-server steps; summary.json and
// collectives.csv report the iterations.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli_util.h"
#include "engine/one_thread_engine.h"
#include "net/network.h"
#include "run/collective_metrics.h"
#include "run/ideal_times.h"
#include "run/run_scenario.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

Scenario Load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return LoadScenarioText(text, "coll.toml", overrides);
}

void ExpectError(const std::string& text, const std::vector<std::string>& parts,
                 const std::vector<std::string>& overrides = {}) {
  testing::ExpectLoadError(text, "coll.toml", parts, overrides);
}

// A non-blocking two-tier fabric of `hosts` hosts at 100 Gb/s (8 per leaf, as many spines).
std::string Fabric(int hosts) {
  const int per_leaf = std::min(hosts, 8);
  return fmt::format(
      "duration = \"2s\"\n[topology]\ntype = \"leaf_spine\"\nleaves = {}\nspines = {}\n"
      "hosts_per_leaf = {}\nlink_rate = \"100Gbps\"\nlink_delay = \"1us\"\n",
      hosts / per_leaf, per_leaf, per_leaf);
}

std::string Collective(const std::string& op, const std::string& algorithm, const std::string& size,
                       const std::string& extra = "") {
  return fmt::format("\n[[collective]]\nop = \"{}\"\nalgorithm = \"{}\"\nsize = \"{}\"\n{}", op,
                     algorithm, size, extra);
}

// Runs `s` and returns its collectives' outcomes, checking every dependency on the way: a
// waiting flow starts exactly (to the picosecond) its delay after its last prerequisite
// completed as its source host sees it, or when the transfer before it on its connection sent
// its last packet, whichever is later.
std::vector<CollectiveOutcome> RunAndCheck(const Scenario& s) {
  Network net(ToNetworkConfig(s));
  OneThreadEngine engine(net);
  engine.RunUntil(s.duration);
  EXPECT_TRUE(engine.all_done());
  for (uint32_t id = 0; id < net.num_flows(); ++id) {
    const uint32_t before = s.flow_after.previous_of(id);
    if (!s.flow_after.waits(id) && before == FlowAfter::kNone) continue;
    Time last = 0;
    for (const uint32_t p : s.flow_after.of(id)) {
      const Time done =
          s.flows[p].dst == s.flows[id].src ? net.flow_delivered_at(p) : net.flow_finish(p);
      last = std::max(last, done);
    }
    Time ready = s.flow_after.waits(id) ? last + s.flow_after.delay(id) : 0;
    if (before != FlowAfter::kNone) {
      EXPECT_GE(net.flow_sent_at(before), net.flow_start(before)) << "flow " << before;
      ready = std::max(ready, net.flow_sent_at(before));
    }
    EXPECT_EQ(net.flow_start(id), std::max(s.flows[id].start, ready)) << "flow " << id;
  }
  EXPECT_EQ(net.stats().drops, 0);
  return CollectiveOutcomes(s, net);
}

// Halving-doubling only within one leaf: across leaves its steps are several flows between the
// same two leaves, which ECMP may hash onto one spine (docs/collectives.md).
TEST(Collectives, RingAndHalvingDoublingTakeTheirIdealTimeOnAnIdleFabric) {
  struct Case {
    int n;
    std::string op, algorithm, size;
  };
  const std::vector<Case> cases = {
      {2, "allreduce", "ring", "1MB"},
      {4, "allreduce", "ring", "4MB"},
      {8, "allreduce", "ring", "1MB"},
      {16, "allreduce", "ring", "16MB"},
      {16, "allgather", "ring", "8MB"},
      {8, "reducescatter", "ring", "8MB"},
      {8, "allreduce", "halving_doubling", "4MB"},
      {8, "allgather", "halving_doubling", "16MB"},
  };
  // With an ACK per 16 packets (as RoCE NICs coalesce them) within 2% of the ideal; with one per
  // packet each host link also carries the ACKs of what its host receives, which the ideal, a
  // lower bound, counts only in its busiest-link term: within 10%, never below.
  for (const int ack_interval : {16, 1}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(fmt::format("n = {}, {} {} {}, ACK per {}", c.n, c.op, c.algorithm, c.size,
                               ack_interval));
      const Scenario s = Load(Fabric(c.n) + Collective(c.op, c.algorithm, c.size),
                              {fmt::format("host.ack_interval={}", ack_interval)});
      const std::vector<CollectiveOutcome> o = RunAndCheck(s);
      ASSERT_EQ(o.size(), 1u);
      ASSERT_TRUE(o[0].iterations[0].finished());
      const double ratio =
          static_cast<double>(o[0].iterations[0].time()) / static_cast<double>(o[0].ideal);
      EXPECT_GE(ratio, 1.0);
      EXPECT_LE(ratio, ack_interval == 16 ? 1.02 : 1.10);
    }
  }
}

// Issue 43, item 4: the ideal is a lower bound, also where it was not: 1-byte all-to-alls over
// many channels (whose last ACKs come after the iteration ends), and transmit times truncated to
// whole ns (wire.whole_ns, as ns-3's).
TEST(Collectives, TheIdealIsALowerBound) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {Collective("alltoall", "direct", "8B", "channels = 64\n"), {}},
      {Collective("alltoall", "direct", "8KB", "channels = 8\n"), {}},
      {Collective("allreduce", "ring", "1MB"), {"wire.whole_ns=true"}},
      {Collective("alltoall", "direct", "1MB"), {"wire.whole_ns=true"}},
  };
  for (const auto& [collective, overrides] : cases) {
    SCOPED_TRACE(collective);
    const Scenario s = Load(Fabric(8) + collective, overrides);
    const std::vector<CollectiveOutcome> o = RunAndCheck(s);
    ASSERT_TRUE(o[0].iterations[0].finished());
    EXPECT_GE(o[0].iterations[0].time(), o[0].ideal);
  }
}

// NCCL's double binary tree: with one chunk per tree, an iteration's ideal is its longest
// chain, two flows up and two down the trees of 4 ranks (each of half the data, all alike on a
// star). The run takes longer: its first and last stages put two flows on one link (two
// children into their parent, a parent to its two children), which the chain counts one at a
// time (3 S/B against 2 S/B). Pipelined in 512 KiB chunks, with PFC alone it comes within 20% of
// its ideal, and it is slower than the ring: its inner ranks send 2S where the ring's send 2(n-1)/n
// S.
TEST(Collectives, TreeTakesItsChainOfHalvesAndPipelinesLargeSizes) {
  const std::string star =
      "duration = \"1s\"\n[topology]\ntype = \"star\"\nhosts = 4\n"
      "link_rate = \"100Gbps\"\n";
  const Scenario small = Load(star + Collective("allreduce", "tree", "256KB"));
  ASSERT_EQ(small.flows.size(), 12u);
  {
    Network net(ToNetworkConfig(small));
    const std::vector<CollectiveOutcome> ideal = CollectiveOutcomes(small, net);
    EXPECT_EQ(ideal[0].ideal, 4 * IdealDelivery(net, 0, false));
  }
  const std::vector<CollectiveOutcome> o = RunAndCheck(small);
  ASSERT_TRUE(o[0].iterations[0].finished());
  EXPECT_GE(o[0].iterations[0].time(), o[0].ideal);
  EXPECT_LT(o[0].iterations[0].time(), o[0].ideal * 3 / 2);

  const std::string pfc_alone = "\n[cc]\nalgorithm = \"none\"\n";
  const Scenario tree = Load(Fabric(8) + pfc_alone + Collective("allreduce", "tree", "64MB"));
  const Scenario ring = Load(Fabric(8) + pfc_alone + Collective("allreduce", "ring", "64MB"));
  const std::vector<CollectiveOutcome> t = RunAndCheck(tree);
  const std::vector<CollectiveOutcome> r = RunAndCheck(ring);
  ASSERT_TRUE(t[0].iterations[0].finished());
  EXPECT_GE(t[0].iterations[0].time(), t[0].ideal);
  EXPECT_LT(static_cast<double>(t[0].iterations[0].time()), 1.2 * static_cast<double>(t[0].ideal));
  EXPECT_GT(t[0].iterations[0].time(), r[0].iterations[0].time());
}

using CollectivesRun = testing::TempDirTest;

TEST_F(CollectivesRun, IterationsWaitForTheirGapAndReportNcclTestsBandwidths) {
  const Scenario s =
      Load(Fabric(4) + Collective("allreduce", "ring", "4MB", "iterations = 3\ngap = \"20us\"\n"));
  const std::filesystem::path dir = dir_;
  RunOptions options;
  options.out_dir = dir.string();
  const nlohmann::json j = RunScenario(s, options);
  const nlohmann::json& c = j["collectives"][0];
  EXPECT_EQ(c["op"], "allreduce");
  EXPECT_EQ(c["algorithm"], "ring");
  EXPECT_EQ(c["ranks"], (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(c["size_bytes"], 4000000);
  ASSERT_EQ(c["iterations"].size(), 3u);
  EXPECT_EQ(c["finished_iterations"], 3);
  double previous_end = -1;
  for (const nlohmann::json& it : c["iterations"]) {
    const double t = it["time_ns"];
    EXPECT_NEAR(it["algbw_gbps"].get<double>(), 4e6 * 8 / t, 1e-6);
    EXPECT_NEAR(it["busbw_gbps"].get<double>(), it["algbw_gbps"].get<double>() * 2 * 3 / 4, 1e-6);
    EXPECT_NEAR(it["slowdown"].get<double>(), t / it["ideal_time_ns"].get<double>(), 1e-9);
    // An iteration starts at least the gap after the previous one's last delivery.
    if (previous_end >= 0) {
      EXPECT_GE(it["start_ns"].get<double>(), previous_end + 20000);
    }
    previous_end = it["start_ns"].get<double>() + t;
  }
  std::ifstream csv(dir / "collectives.csv");
  std::string header, row;
  std::getline(csv, header);
  EXPECT_EQ(header,
            "collective,tag,op,algorithm,ranks,size_bytes,iteration,start_ns,time_ns,algbw_gbps,"
            "busbw_gbps,ideal_time_ns,slowdown");
  int rows = 0;
  while (std::getline(csv, row)) ++rows;
  EXPECT_EQ(rows, 3);
}

// NCCL's PXN for rings: each channel's ring leaves a server by the NIC it came in by, its last
// rank's chunk crossing NVLink to that NIC's GPU first. On a rail fabric the rotated rings of 4
// servers x 4 GPUs then never cross a spine, where without PXN each channel's server-to-server
// hops go from one rail to the next through them.
TEST_F(CollectivesRun, PxnRingsStayOnTheirRails) {
  const std::string rail =
      "duration = \"1s\"\n[topology]\ntype = \"rail\"\nservers = 4\ngpus_per_server = 4\n"
      "servers_per_leaf = 4\nspines = 2\nlink_rate = \"100Gbps\"\nnvlink_rate = \"800Gbps\"\n";
  const std::string ring = Collective("allreduce", "ring", "16MB",
                                      "channels = 4\n"
                                      "rotate_rings = true\n");
  // The spines' utilisation in links.csv: rows of nodes s4 and s5 (after the 4 rail leaves).
  auto spine_utilisation = [&](const Scenario& s, const std::string& name) {
    RunOptions options;
    options.out_dir = (dir_ / name).string();
    RunScenario(s, options);
    std::ifstream csv(dir_ / name / "links.csv");
    std::string row;
    double sum = 0;
    while (std::getline(csv, row)) {
      if (row.rfind("s4,", 0) == 0 || row.rfind("s5,", 0) == 0) {
        sum += std::stod(row.substr(row.rfind(',') + 1));
      }
    }
    return sum;
  };
  const Scenario pxn = Load(rail + ring + "pxn = true\n");
  const Scenario plain = Load(rail + ring);
  EXPECT_EQ(spine_utilisation(pxn, "pxn"), 0.0);
  EXPECT_GT(spine_utilisation(plain, "plain"), 0.0);
  // Every relay waits for its NVLink hop and every step for its chunk, to the picosecond.
  const std::vector<CollectiveOutcome> o = RunAndCheck(pxn);
  ASSERT_TRUE(o[0].iterations[0].finished());
  EXPECT_GE(o[0].iterations[0].time(), o[0].ideal);
}

TEST(Collectives, HierarchicalUsesNvlinkInsideServersAndRailsBetweenThem) {
  // 4 servers x 4 GPUs at 100 Gb/s, NVLink at 800 Gb/s: the hierarchical allreduce moves 3/4 of
  // each rank's bytes over NVLink and only 2 x 3/16 of them over the fabric, so it beats the
  // flat ring, whose every step crosses the slowest link.
  const std::string rail =
      "duration = \"1s\"\n[topology]\ntype = \"rail\"\nservers = 4\ngpus_per_server = 4\n"
      "servers_per_leaf = 4\nspines = 2\nlink_rate = \"100Gbps\"\nnvlink_rate = \"800Gbps\"\n";
  const Scenario h = Load(rail + Collective("allreduce", "hierarchical", "16MB"));
  const Scenario flat = Load(rail + Collective("allreduce", "ring", "16MB"));
  {
    Network net(ToNetworkConfig(h));
    int over_nvlink = 0;
    for (uint32_t id = 0; id < net.num_flows(); ++id) over_nvlink += net.OverNvlink(id) ? 1 : 0;
    EXPECT_EQ(over_nvlink, 2 * 3 * 16);  // the two intra-server phases: 3 steps x 16 ranks
  }
  const std::vector<CollectiveOutcome> ho = RunAndCheck(h);
  const std::vector<CollectiveOutcome> fo = RunAndCheck(flat);
  ASSERT_TRUE(ho[0].iterations[0].finished());
  ASSERT_TRUE(fo[0].iterations[0].finished());
  EXPECT_LT(ho[0].iterations[0].time(), fo[0].iterations[0].time() / 2);
  // Within 2% of its ideal (a lower bound) with ACKs coalesced as RoCE NICs do; with an ACK per
  // packet the host links also carry the ACKs of what their hosts receive: within 10%.
  const double ratio = static_cast<double>(ho[0].iterations[0].time()) / ho[0].ideal;
  EXPECT_GE(ratio, 1.0);
  EXPECT_LE(ratio, 1.10);
  const Scenario h16 =
      Load(rail + Collective("allreduce", "hierarchical", "16MB"), {"host.ack_interval=16"});
  const std::vector<CollectiveOutcome> h16o = RunAndCheck(h16);
  EXPECT_NEAR(static_cast<double>(h16o[0].iterations[0].time()) / h16o[0].ideal, 1.0, 0.02);
}

// Issue 43, item 0. A flat ring over 4 servers x 8 GPUs of a rail fabric under DCQCN, two
// iterations: 7 of 8 hops cross NVLink and 1 the fabric, where ECMP puts some on one spine and
// DCQCN throttles them. With NCCL's persistent connections the transfers between two ranks start
// and are delivered in the order they were sent, over one source port; with a queue pair per
// transfer (connection = "per_flow") later steps, fresh at line rate, overtake the throttled
// earlier ones to the same peer (over 400 of 3,936 here).
TEST(Collectives, AConnectionsTransfersRunInOrderOverOneQueuePair) {
  const std::string text =
      "duration = \"1s\"\n[topology]\ntype = \"rail\"\nservers = 4\ngpus_per_server = 8\n"
      "servers_per_leaf = 16\nspines = 8\nlink_rate = \"400Gbps\"\nlink_delay = \"1us\"\n" +
      Collective("allreduce", "ring", "1MB", "iterations = 2\ngap = \"100us\"\n");
  // Consecutive transfers of one (source, destination) pair whose delivery came before the
  // earlier one's.
  const auto overtaken = [](const Scenario& s, const Network& net, bool same_port) {
    std::map<std::pair<int, int>, uint32_t> last;
    int count = 0;
    for (uint32_t id = 0; id < net.num_flows(); ++id) {
      const auto [it, fresh] = last.try_emplace({s.flows[id].src, s.flows[id].dst}, id);
      if (fresh) continue;
      const uint32_t before = it->second;
      it->second = id;
      EXPECT_GE(net.flow_delivered_at(id), 0) << "flow " << id;
      if (net.flow_delivered_at(id) < net.flow_delivered_at(before)) ++count;
      if (same_port) {
        EXPECT_GE(net.flow_start(id), net.flow_start(before)) << "flow " << id;
        EXPECT_EQ(net.flow_sport(id), net.flow_sport(before)) << "flow " << id;
      }
    }
    return count;
  };
  {
    const Scenario s = Load(text);
    Network net(ToNetworkConfig(s));
    OneThreadEngine engine(net);
    engine.RunUntil(s.duration);
    ASSERT_TRUE(engine.all_done());
    EXPECT_EQ(overtaken(s, net, true), 0);
  }
  {
    const Scenario s = Load(text, {"collective.0.connection=per_flow"});
    Network net(ToNetworkConfig(s));
    OneThreadEngine engine(net);
    engine.RunUntil(s.duration);
    ASSERT_TRUE(engine.all_done());
    EXPECT_GT(overtaken(s, net, false), 400);
  }
}

TEST(Collectives, InputErrorsNameTheKey) {
  const std::string star = "[topology]\ntype = \"star\"\nhosts = 4\n";
  ExpectError(star + Collective("allreduse", "ring", "1MB"),
              {"coll.toml:6:", "collective[0].op", "\"allreduse\""});
  ExpectError(star + Collective("allreduce", "rign", "1MB"),
              {"coll.toml:7:", "collective[0].algorithm", "\"rign\""});
  ExpectError(star + Collective("alltoall", "ring", "1MB"),
              {"collective[0].algorithm", "\"ring\" does not implement alltoall", "\"direct\""});
  ExpectError(star + Collective("allreduce", "ring", "1MB", "ranks = [0, 9]\n"),
              {"collective[0].ranks[1]", "expected a host index 0..3, got 9"});
  ExpectError(star + Collective("allreduce", "ring", "1MB", "ranks = [0, 1, 0]\n"),
              {"coll.toml:9:", "collective[0].ranks", "host 0 is listed twice"});
  ExpectError(star + Collective("allreduce", "halving_doubling", "1MB", "ranks = [0, 1, 2]\n"),
              {"collective[0].ranks", "power-of-two number of ranks, got 3"});
  ExpectError(star + Collective("allreduce", "hierarchical", "1MB"),
              {"collective[0].algorithm", "topology.type = \"rail\""});
  ExpectError(star + Collective("allreduce", "ring", "0B"), {"collective[0].size"});
  ExpectError(star + Collective("alltoall", "direct", "1MB", "pxn = true\n"),
              {"collective[0].pxn", "only on a topology of servers"});
  ExpectError(star + Collective("allreduce", "ring", "1MB", "ranks = \"some\"\n"),
              {"collective[0].ranks", "expected \"all\" or an array of host indices"});
  ExpectError(star + Collective("allreduce", "ring", "1MB", "colour = 1\n"),
              {"collective[0].colour", "unknown key"});
  ExpectError(star + "\n[[collective]]\nsize = \"1MB\"\n",
              {"collective[0].op", "required in every [[collective]]"});
  ExpectError(star + Collective("allreduce", "ring", "1MB"), {"--set collective.0.channels=0"},
              {"collective.0.channels=0"});
  ExpectError(star + Collective("allreduce", "ring", "1MB"), {"no collective[1]"},
              {"collective.1.size=2MB"});
  ExpectError(
      "[topology]\ntype = \"rail\"\ngpus_per_server = 0\n" + Collective("allreduce", "ring", "1MB"),
      {"topology.gpus_per_server", "got 0"});
}

// A collective too large for this machine's memory is refused before anything is expanded (in
// an instant, whatever its size), and the error names the collective and the keys that made it
// large (it named `iterations`, a key the file did not set, after minutes of expansion).
TEST(Collectives, ACollectiveTooLargeForTheMachineIsRefusedBeforeItIsBuilt) {
  const std::string fabric =
      "[topology]\ntype = \"leaf_spine\"\nleaves = 128\nspines = 16\n"
      "hosts_per_leaf = 64\n";
  ExpectError(fabric + "\n[[flow]]\nsrc = 0\ndst = 1\nsize = \"1KB\"\n" +
                  Collective("allreduce", "ring", "1MB") +
                  Collective("alltoall", "direct", "1GB", "channels = 64\n"),
              {"coll.toml:17: collective[1]: the scenario would have 4428.6 million flows",
               "this machine's memory", "collective[1] makes 4294.4 million",
               "over 8192 ranks (collective[1].ranks) x 64 channels "
               "(collective[1].channels) x 1 iterations (collective[1].iterations), 67100672 "
               "flows per channel and iteration"});
}

TEST(Collectives, SetAndResolvedTomlKeepTheTables) {
  const std::string text = "[topology]\ntype = \"rail\"\nservers = 2\ngpus_per_server = 2\n" +
                           Collective("allreduce", "hierarchical", "1MB",
                                      "iterations = 2\ngap = \"3us\"\ntag = \"job\"\n") +
                           Collective("alltoall", "direct", "2MB", "ranks = [3, 0, 1]\n") +
                           "\n[[flow]]\nsrc = 0\ndst = 3\nsize = \"10KB\"\n";
  const Scenario s = Load(text, {"collective.1.size=4MB"});
  ASSERT_EQ(s.collectives.size(), 2u);
  EXPECT_EQ(s.collectives[1].size, 4000000);
  EXPECT_EQ(s.collective_begin, 1u);
  const Scenario back = Load(ResolvedToml(s));
  EXPECT_EQ(ResolvedToml(back), ResolvedToml(s));
  ASSERT_EQ(back.flows.size(), s.flows.size());
  for (uint32_t id = 0; id < s.flows.size(); ++id) {
    EXPECT_EQ(back.flows[id].src, s.flows[id].src);
    EXPECT_EQ(back.flows[id].dst, s.flows[id].dst);
    EXPECT_EQ(back.flows[id].size, s.flows[id].size);
    EXPECT_EQ(back.tag(back.flows[id]), s.tag(s.flows[id]));
    const auto a = s.flow_after.of(id);
    const auto b = back.flow_after.of(id);
    EXPECT_EQ(std::vector<uint32_t>(a.begin(), a.end()), std::vector<uint32_t>(b.begin(), b.end()));
    EXPECT_EQ(back.flow_after.delay(id), s.flow_after.delay(id));
  }
  EXPECT_NE(ResolvedToml(s).find("ranks = [3, 0, 1]"), std::string::npos);
}

}  // namespace
}  // namespace dcqcn
