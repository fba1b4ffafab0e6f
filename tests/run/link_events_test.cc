// Link events' accounting: a reconvergence counts the flows in flight then (started, not
// finished), a host whose own cable is down is cut off, events after the last flow finished do
// not happen, and flows.csv says why each unfinished flow did not finish.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_util.h"
#include "run/run_scenario.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

// Two pairs over one switch: h0 -> h2 long, h1 -> h3 short (done in about 3 us).
constexpr const char* kStar = R"(
duration = "2ms"
[topology]
type = "star"
hosts = 4
reconvergence = "10us"
[[flow]]
src = 0
dst = 2
size = "10MB"
[[flow]]
src = 1
dst = 3
size = "10KB"
)";

nlohmann::json RunStar(const std::string& text, const std::string& out_dir = "") {
  RunOptions options;
  options.out_dir = out_dir;
  return RunScenario(LoadScenarioText(text, "star.toml"), options);
}

// kStar with the cables between `a` and `b` down from `at` on.
std::string WithLinkDown(const std::string& at, const std::string& a, const std::string& b) {
  return fmt::format("{}\n[[event]]\nat = \"{}\"\nkind = \"link_down\"\nlink = [\"{}\", \"{}\"]\n",
                     kStar, at, a, b);
}

TEST(LinkEvents, ACutSourceCableCountsOnlyTheFlowInFlight) {
  const nlohmann::json j = RunStar(WithLinkDown("100us", "h0", "s0"));
  const nlohmann::json& r = j["routing"]["reconvergences"];
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["at_ns"], 110000);
  // The short flow finished long before: only h0 -> h2 was in flight, and its own cable is
  // down, so it cannot reach h2 (before, the finished flow counted as rerouted, and a cut
  // source did not count as cut off).
  EXPECT_EQ(r[0]["flows_rerouted"], 0);
  EXPECT_EQ(r[0]["flows_cut_off"], 1);
  EXPECT_EQ(j["flows_finished"], 1);
  EXPECT_EQ(j["flows_unfinished"], nlohmann::json({{"cut_off", 1}}));
}

TEST(LinkEvents, ADestinationCutOffHasNoRoute) {
  const nlohmann::json j = RunStar(WithLinkDown("100us", "h2", "s0"));
  EXPECT_EQ(j["routing"]["reconvergences"][0]["flows_cut_off"], 1);
  EXPECT_EQ(j["flows_unfinished"], nlohmann::json({{"cut_off", 1}}));
}

TEST(LinkEvents, EventsAfterTheLastFlowFinishedDoNotHappen) {
  // Both flows are done by about 2.1 ms of a 10 ms run; the failure at 5 ms comes after.
  std::string text = WithLinkDown("5ms", "h0", "s0");
  text.replace(text.find("\"2ms\""), 5, "\"10ms\"");
  const nlohmann::json j = RunStar(text);
  EXPECT_EQ(j["flows_finished"], 2);
  EXPECT_LT(j["sim_time_ns"].get<double>(), 5e6);
  EXPECT_TRUE(j["routing"]["reconvergences"].empty());
  EXPECT_EQ(j["drops"], 0);
  EXPECT_TRUE(j["drained"]);
  EXPECT_FALSE(j.contains("flows_unfinished"));
}

using LinkEventsCsv = testing::TempDirTest;

TEST_F(LinkEventsCsv, SaysWhyEachUnfinishedFlowDidNotFinish) {
  // The long flow runs out of time; a third waits for it; a fourth starts after the end.
  std::string text = std::string(kStar) + R"(
[[flow]]
src = 2
dst = 0
size = "1KB"
after = ["long"]
[[flow]]
src = 3
dst = 1
size = "1KB"
start = "5ms"
)";
  text.replace(text.find("\"2ms\""), 5, "\"1ms\"");
  text.replace(text.find("src = 0"), 7, "id = \"long\"\nsrc = 0");
  const nlohmann::json j = RunStar(text, (dir_ / "cut").string());
  EXPECT_EQ(j["flows_unfinished"],
            nlohmann::json({{"out_of_time", 1}, {"waiting", 1}, {"not_started", 1}}));
  EXPECT_EQ(testing::CsvColumn((dir_ / "cut" / "flows.csv").string(), "unfinished"),
            (std::vector<std::string>{"out_of_time", "", "waiting", "not_started"}));
  // Every flow finished: no column.
  std::string done = kStar;
  done.replace(done.find("\"2ms\""), 5, "\"10ms\"");
  RunStar(done, (dir_ / "done").string());
  EXPECT_EQ(testing::ReadFile(dir_ / "done" / "flows.csv").find("unfinished"), std::string::npos);
}

}  // namespace
}  // namespace dcqcn
