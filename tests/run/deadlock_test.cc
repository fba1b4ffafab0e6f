// PFC deadlock detection (DeadlockDetector) on the classic case: four switches in a ring whose
// static routes send every flow two hops clockwise, so that each ring link's queue waits on the
// next one's PAUSE (HotNets'16). Under PFC alone the cycle forms and is found, with its queues
// and flows; with shortest-path routes there is no cycle.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/one_thread_engine.h"
#include "net/deadlock_detector.h"
#include "net/network.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

std::string Ring(bool clockwise_routes, const std::string& cc) {
  std::string text = R"(
duration = "2ms"
[topology]
type = "custom"
hosts = 4
switches = 4
link_rate = "40Gbps"
links = [["h0", "s0"], ["h1", "s1"], ["h2", "s2"], ["h3", "s3"],
         ["s0", "s1"], ["s1", "s2"], ["s2", "s3"], ["s3", "s0"]]
[switch]
buffer = "1MB"
[cc]
algorithm = ")" + cc +
                     "\"\n";
  for (int i = 0; i < 4; ++i) {
    text += "[[flow]]\nsrc = " + std::to_string(i) + "\ndst = " + std::to_string((i + 2) % 4) +
            "\nsize = \"100MB\"\n";
    if (clockwise_routes) {
      text += "[[route]]\nswitch = \"s" + std::to_string(i) + "\"\ndst = \"h" +
              std::to_string((i + 2) % 4) + "\"\nnext = \"s" + std::to_string((i + 1) % 4) + "\"\n";
    }
  }
  return text;
}

std::vector<Deadlock> RunAndCheck(const std::string& text, Time deadlock_time) {
  const Scenario s = LoadScenarioText(text, "ring.toml");
  Network net(ToNetworkConfig(s));
  OneThreadEngine engine(net);
  DeadlockDetector detector(deadlock_time);
  std::vector<Deadlock> found;
  while (engine.pending() > 0 && engine.next_time() <= s.duration && !engine.all_done()) {
    engine.RunUntil(s.duration, 1 << 12);
    for (Deadlock& d : detector.Check(net, engine.PausedQueues(), engine.Now()))
      found.push_back(std::move(d));
  }
  return found;
}

TEST(Deadlock, ClockwiseRoutesUnderPfcAloneDeadlockTheRing) {
  const std::vector<Deadlock> found = RunAndCheck(Ring(true, "none"), 100 * kMicrosecond);
  ASSERT_EQ(found.size(), 1u);
  const Deadlock& d = found[0];
  // The four ring links' queues, each from s_i towards s_{i+1}.
  ASSERT_EQ(d.cycle.size(), 4u);
  for (const DeadlockQueue& q : d.cycle) EXPECT_GE(q.node, 4);
  EXPECT_EQ(d.at, d.since + 100 * kMicrosecond);
  EXPECT_FALSE(d.flows.empty());
  // s0 -> s1, s1 -> s2, s2 -> s3 and s3 -> s0 (the ring links are each switch's ports 1 and 2),
  // in the lossless data class 3; each holds packets of the four flows' paths.
  EXPECT_EQ(d.cycle, (std::vector<DeadlockQueue>{{4, 1, 3}, {5, 2, 3}, {6, 2, 3}, {7, 2, 3}}));
  EXPECT_EQ(d.flows.size(), 4u);
}

TEST(Deadlock, ShortestPathsMakeNoCycle) {
  EXPECT_TRUE(RunAndCheck(Ring(false, "none"), 100 * kMicrosecond).empty());
}

}  // namespace
}  // namespace dcqcn
