// [[flow]] id / after / after_delay through the loader and whole runs: input errors name the
// file, line, key and the flows; a run starts each waiting flow exactly its delay after the last
// of its prerequisites completes as its source host sees it (to the picosecond), and flows.csv
// and the metrics use that actual start.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "net/network.h"
#include "run/run_scenario.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

Scenario Load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return LoadScenarioText(text, "deps.toml", overrides);
}

void ExpectError(const std::string& text, const std::vector<std::string>& parts,
                 const std::vector<std::string>& overrides = {}) {
  testing::ExpectLoadError(text, "deps.toml", parts, overrides);
}

// Four hosts on a star; flows are appended.
const std::string kStar =
    "[topology]\ntype = \"star\"\nhosts = 4\nlink_rate = \"40Gbps\"\nlink_delay = \"1us\"\n";

std::string Flow(const std::string& id, int src, int dst, const std::string& extra = "",
                 const std::string& size = "100KB") {
  return fmt::format("\n[[flow]]\nid = \"{}\"\nsrc = {}\ndst = {}\nsize = \"{}\"\n{}", id, src, dst,
                     size, extra);
}

TEST(FlowDependencies, LoadsIdsRowsAndDelays) {
  const Scenario s = Load(kStar + Flow("a", 0, 1) + Flow("b", 0, 2) +
                          Flow("c", 1, 3, "after = [\"a\"]\nafter_delay = \"5us\"\n") +
                          Flow("d", 0, 3, "after = [\"b\", \"a\"]\nstart = \"1ms\"\n"));
  EXPECT_EQ(s.flow_ids, (std::vector<std::string>{"a", "b", "c", "d"}));
  ASSERT_FALSE(s.flow_after.empty());
  EXPECT_FALSE(s.flow_after.waits(0));
  EXPECT_EQ(std::vector<uint32_t>(s.flow_after.of(2).begin(), s.flow_after.of(2).end()),
            (std::vector<uint32_t>{0}));
  EXPECT_EQ(s.flow_after.delay(2), 5 * kMicrosecond);
  EXPECT_EQ(std::vector<uint32_t>(s.flow_after.of(3).begin(), s.flow_after.of(3).end()),
            (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(s.flows[3].start, 1 * kMillisecond);
  // A later flow may be named before it appears.
  EXPECT_NO_THROW(Load(kStar + Flow("x", 1, 2, "after = [\"y\"]\n") + Flow("y", 0, 1)));
  // No `after` anywhere: no rows, so nothing changes for the run.
  EXPECT_TRUE(Load(kStar + Flow("a", 0, 1)).flow_after.empty());
}

TEST(FlowDependencies, InputErrorsNameFileLineKeyAndFlows) {
  // Unknown id, with a near miss.
  ExpectError(kStar + Flow("load", 0, 1) + Flow("b", 1, 2, "after = [\"laod\"]\n"),
              {"deps.toml:18:", "flow[1].after[0]", "no [[flow]] has id \"laod\"",
               "did you mean \"load\"?"});
  // Duplicate id: both flows named.
  ExpectError(kStar + Flow("a", 0, 1) + Flow("a", 1, 2),
              {"deps.toml:14:", "flow[1].id", "duplicate id \"a\"", "flow[0].id (deps.toml:8)"});
  // A flow its source host neither sends nor receives.
  ExpectError(kStar + Flow("a", 0, 1) + Flow("b", 2, 3, "after = [\"a\"]\n"),
              {"deps.toml:18:", "flow[1].after[0]", "flow \"a\" (h0 -> h1)",
               "neither sent nor received by this flow's source h2"});
  // A cycle names its members in order.
  ExpectError(kStar + Flow("a", 0, 1, "after = [\"c\"]\n") + Flow("b", 1, 2, "after = [\"a\"]\n") +
                  Flow("c", 2, 0, "after = [\"b\"]\n"),
              {"deps.toml:12:", "flow[0].after", "a cycle", "\"a\" -> \"c\" -> \"b\" -> \"a\""});
  ExpectError(kStar + Flow("a", 0, 1, "after = [\"a\"]\n"),
              {"flow[0].after[0]", "\"a\" is this flow itself"});
  // Named twice, wrong types, a delay without `after`, a bad id.
  ExpectError(kStar + Flow("a", 0, 1) + Flow("b", 1, 2, "after = [\"a\", \"a\"]\n"),
              {"flow[1].after[1]", "\"a\" is named twice"});
  ExpectError(kStar + Flow("a", 0, 1) + Flow("b", 1, 2, "after = \"a\"\n"),
              {"deps.toml:18:", "flow[1].after", "expected an array of flow ids"});
  ExpectError(kStar + Flow("a", 0, 1) + Flow("b", 1, 2, "after = [3]\n"),
              {"flow[1].after[0]", "expected an array of flow ids"});
  ExpectError(kStar + Flow("a", 0, 1, "after_delay = \"1us\"\n"),
              {"deps.toml:12:", "flow[0].after_delay", "only used with a non-empty after"});
  ExpectError(kStar + Flow("a", 0, 1, "after = []\nafter_delay = \"1us\"\n"),
              {"deps.toml:13:", "flow[0].after_delay", "only used with a non-empty after"});
  EXPECT_TRUE(Load(kStar + Flow("a", 0, 1, "after = []\n")).flow_after.empty());
  ExpectError(kStar + Flow("a", 0, 1) + Flow("b", 1, 2, "after = [\"a\"]\nafter_delay = 5\n"),
              {"flow[1].after_delay", "a bare number needs a unit"});
  ExpectError(kStar + Flow("a b", 0, 1), {"deps.toml:8:", "flow[0].id", "expected 1 to 64"});
}

TEST(FlowDependencies, SetWorksForAfterAsForOtherFlowKeys) {
  const std::string text = kStar + Flow("a", 0, 1) + Flow("b", 1, 2);
  const Scenario s =
      Load(text, {"flow.1.after=[\"a\"]", "flow.1.after_delay=7us", "flow.1.id=second"});
  EXPECT_TRUE(s.flow_after.waits(1));
  EXPECT_EQ(s.flow_after.delay(1), 7 * kMicrosecond);
  EXPECT_EQ(s.flow_ids[1], "second");
  ExpectError(text, {"--set flow.1.after=[\"x\"]", "flow[1].after[0]", "no [[flow]] has id"},
              {"flow.1.after=[\"x\"]"});
}

struct Observed {
  std::vector<Time> start, finish, delivered;
};

Observed RunAndObserve(const Scenario& s) {
  Observed o;
  RunOptions options;
  options.after_run = [&](const Network& net) {
    for (uint32_t id = 0; id < net.num_flows(); ++id) {
      o.start.push_back(net.flow_start(id));
      o.finish.push_back(net.flow_finish(id));
      o.delivered.push_back(net.flow_delivered_at(id));
    }
  };
  const nlohmann::json summary = RunScenario(s, options);
  EXPECT_EQ(summary["flows_finished"], s.flows.size());
  return o;
}

TEST(FlowDependenciesRun, ChainAcrossHostsStartsExactlyAfterReceiverSideCompletion) {
  // a: h0 -> h1; b (h1 -> h2) after a is delivered to h1; c (h2 -> h3) after b is delivered to
  // h2. Delays with odd picoseconds show the arithmetic is exact.
  const Time d1 = 3 * kMicrosecond + 7;
  const Time d2 = 1 * kMicrosecond + 1;
  const Scenario s = Load(kStar + Flow("a", 0, 1) +
                          Flow("b", 1, 2, "after = [\"a\"]\nafter_delay = \"3000007ps\"\n") +
                          Flow("c", 2, 3, "after = [\"b\"]\nafter_delay = \"1000001ps\"\n"));
  const Observed o = RunAndObserve(s);
  EXPECT_EQ(o.start[0], 0);
  EXPECT_EQ(o.start[1], o.delivered[0] + d1);
  EXPECT_EQ(o.start[2], o.delivered[1] + d2);
  // Delivered (receiver) comes before acknowledged (sender): the chain does not wait for ACKs.
  EXPECT_LT(o.delivered[0], o.finish[0]);
  EXPECT_LT(o.start[1], o.finish[0] + d1);
}

TEST(FlowDependenciesRun, SenderSideAndTwoPrerequisitesAndNotBeforeStart) {
  // b (h0 -> h2) waits for a (h0 -> h1) to be acknowledged to h0. d (h3 -> h0) waits for b'
  // (h1 -> h3, delivered to h3) and c (h3 -> h2, acknowledged to h3): the later of the two.
  // e (h1 -> h0) waits for a's delivery but not before 2 ms.
  const Scenario s = Load(kStar + Flow("a", 0, 1) + Flow("b", 0, 2, "after = [\"a\"]\n") +
                          Flow("bb", 1, 3) + Flow("c", 3, 2, "", "300KB") +
                          Flow("d", 3, 0, "after = [\"bb\", \"c\"]\nafter_delay = \"2us\"\n") +
                          Flow("e", 1, 0, "after = [\"a\"]\nstart = \"2ms\"\n"));
  const Observed o = RunAndObserve(s);
  EXPECT_EQ(o.start[1], o.finish[0]);
  EXPECT_EQ(o.start[4], std::max(o.delivered[2], o.finish[3]) + 2 * kMicrosecond);
  EXPECT_EQ(o.start[5], 2 * kMillisecond);
  EXPECT_GT(2 * kMillisecond, o.delivered[0]);
}

TEST(FlowDependenciesRun, UnstartedFlowHasNoStartAndMetricsUseActualStarts) {
  // b waits for a, which cannot finish within the run: b never starts. fct = finish - actual start.
  const Scenario s = Load("duration = \"50us\"\n" + kStar + Flow("a", 0, 1, "", "10MB") +
                          Flow("b", 1, 2, "after = [\"a\"]\n"));
  const std::string dir = ::testing::TempDir() + "/dcqcn_deps_unstarted";
  RunOptions options;
  options.out_dir = dir;
  std::filesystem::remove_all(dir);
  const nlohmann::json summary = RunScenario(s, options);
  EXPECT_EQ(summary["flows_finished"], 0);
  const std::string csv = dir + "/flows.csv";
  EXPECT_EQ(testing::CsvColumn(csv, "start_ns"), (std::vector<std::string>{"0", ""}));
  EXPECT_EQ(testing::CsvColumn(csv, "id"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(testing::CsvColumn(csv, "delivered_ns"), (std::vector<std::string>{"", ""}));
}

}  // namespace
}  // namespace dcqcn
