// A short PFC pause must still be refreshed before it runs out (issue 28, item 8):
// pause_quanta = 1 dropped 51,875 packets of a "lossless" run without a warning.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/buffer_rules.h"
#include "net/headers.h"
#include "run/run_scenario.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

// A 4:1 incast at line rate without congestion control (PFC alone) while the ports towards
// the senders are busy with data of other flows: a PAUSE refresh towards a sender waits behind
// a 1066-byte data frame.
constexpr const char* kBusyBothWays = R"(name = "busy-both-ways"
duration = "2ms"
[topology]
type = "star"
hosts = 9
link_rate = "40Gbps"
link_delay = "1us"
[cc]
algorithm = "none"
[workload]
type = "incast"
senders = [1, 2, 3, 4]
receiver = 0
size = "20MB"
[[flow]]
src = 5
dst = 1
size = "20MB"
[[flow]]
src = 6
dst = 2
size = "20MB"
[[flow]]
src = 7
dst = 3
size = "20MB"
[[flow]]
src = 8
dst = 4
size = "20MB"
)";

Scenario WithQuanta(int quanta) {
  return LoadScenarioText(
      kBusyBothWays, "b.toml",
      std::vector<std::string>{fmt::format("switch.pfc.pause_quanta={}", quanta)});
}

bool WarnsOfQuanta(const Scenario& s) {
  for (const std::string& w : BufferWarnings(s)) {
    if (w.find("switch.pfc.pause_quanta") != std::string::npos) return true;
  }
  return false;
}

TEST(PfcRefresh, TheSmallestRefreshablePauseIsTwentyQuantaForKilobytePayloads) {
  // 1066 + 20 bytes of data frame and 84 of PAUSE before a refresh is out, one more PAUSE
  // between refreshes: 1254 bytes = 10,032 bits = 19.6 quanta.
  EXPECT_EQ(MinRefreshablePauseQuanta(DataFrameBytes(1000)), 20);
}

TEST(PfcRefresh, ARefreshWaitingBehindADataFrameStillArrivesBeforeThePauseEnds) {
  // Half of 16 quanta (the old refresh) plus a data frame's wait is longer than the pause:
  // the senders resumed between refreshes and 17,991 packets were dropped.
  const nlohmann::json j = RunScenario(WithQuanta(16), {});
  EXPECT_EQ(j["drops"], 0);
  EXPECT_GT(j["pfc_pause_frames"].get<int64_t>(), 0);
  // From 20 quanta the refresh is in time by construction.
  EXPECT_EQ(RunScenario(WithQuanta(20), {})["drops"], 0);
}

TEST(PfcRefresh, CheckWarnsOfAPauseTooShortToKeepInForce) {
  EXPECT_TRUE(WarnsOfQuanta(WithQuanta(1)));
  EXPECT_TRUE(WarnsOfQuanta(WithQuanta(19)));
  EXPECT_FALSE(WarnsOfQuanta(WithQuanta(20)));
  EXPECT_FALSE(WarnsOfQuanta(WithQuanta(65535)));
  // A PAUSE that lasts until RESUME needs no refresh.
  Scenario s = WithQuanta(1);
  s.sw.pfc.pause_until_resume = true;
  EXPECT_FALSE(WarnsOfQuanta(s));
  // Nor does a network without PFC.
  s = WithQuanta(1);
  s.sw.pfc.enabled = false;
  EXPECT_FALSE(WarnsOfQuanta(s));
}

}  // namespace
}  // namespace dcqcn
