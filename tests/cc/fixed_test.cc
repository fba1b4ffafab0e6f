// `algorithm = "fixed"`: every flow at its pinned rate, whatever the switch marks; its own
// `[[flow]] rate` before `[cc] rate`, before the line rate; other algorithms refuse a flow rate.
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "engine/one_thread_engine.h"
#include "net/network.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

// Three senders into h0 over a 40 Gb/s star, 1 MB each: h1 at its own 5 Gb/s, h2 at [cc]'s
// 10 Gb/s, h3 at its own 100 Gb/s (above the line rate: the line rate). The first two share the
// receiver's link without a queue; the third fills it (5 + 10 + 40 > 40), so ECN marks.
constexpr const char* kPinned = R"(
duration = "10ms"
[topology]
type = "star"
hosts = 4
[cc]
algorithm = "fixed"
rate = "10Gbps"
[switch.ecn]
kmin = "5KB"
kmax = "6KB"
pmax = 1.0
[[flow]]
src = 1
dst = 0
size = "1MB"
rate = "5Gbps"
[[flow]]
src = 2
dst = 0
size = "1MB"
[[flow]]
src = 3
dst = 0
size = "1MB"
rate = "100Gbps"
)";

TEST(FixedCc, EachFlowSendsAtItsPinnedRateWhateverTheMarks) {
  const Scenario s = LoadScenarioText(kPinned, "pinned.toml");
  Network net(ToNetworkConfig(s));
  OneThreadEngine engine(net);
  engine.RunUntil(s.duration);
  ASSERT_TRUE(engine.all_done());
  EXPECT_GT(net.stats().ecn_marked_packets, 0u) << "the link was oversubscribed";
  // The pacer's rate stays pinned: a flow of 1000 packets at rate R takes about
  // 1000 frames / R; the flow at 5 Gb/s takes 2x as long as the one at 10 Gb/s, and both far
  // longer than the line-rate flow.
  const Time fct5 = net.flow_finish(0) - s.flows[0].start;
  const Time fct10 = net.flow_finish(1) - s.flows[1].start;
  const Time fct40 = net.flow_finish(2) - s.flows[2].start;
  const double frame_bits = 8.0 * static_cast<double>(s.wire.Wire(s.wire.DataFrame(1000)));
  const auto at = [&](double gbps) { return 1000 * frame_bits / gbps * 1e3; };  // ps
  EXPECT_NEAR(static_cast<double>(fct5), at(5), at(5) * 0.02);
  EXPECT_NEAR(static_cast<double>(fct10), at(10), at(10) * 0.05);
  // The line-rate flow shares the receiver's link with the others: slower than 40 Gb/s alone,
  // never faster.
  EXPECT_GE(static_cast<double>(fct40), at(40));
}

TEST(FixedCc, RateAboveTheLineRateAndZeroMeanTheLineRate) {
  for (const std::string rate : {"0bps", "400Gbps"}) {
    const Scenario s = LoadScenarioText(
        "[topology]\ntype = \"star\"\nhosts = 2\n[cc]\nalgorithm = \"fixed\"\nrate = \"" + rate +
            "\"\n[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\n",
        "line.toml");
    Network net(ToNetworkConfig(s));
    OneThreadEngine engine(net);
    engine.RunUntil(s.duration);
    ASSERT_TRUE(engine.all_done()) << rate;
    const double frame_bits = 8.0 * static_cast<double>(s.wire.Wire(s.wire.DataFrame(1000)));
    const double at_line = 1000 * frame_bits / 40 * 1e3;
    EXPECT_NEAR(static_cast<double>(net.flow_finish(0)), at_line, at_line * 0.02) << rate;
  }
}

TEST(FixedCc, OtherAlgorithmsRefuseAFlowRateNamingTheKey) {
  const std::string text =
      "[topology]\ntype = \"star\"\nhosts = 2\n[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\n"
      "rate = \"5Gbps\"\n";
  const std::string message = testing::InputErrorOf([&] { LoadScenarioText(text, "dcqcn.toml"); });
  EXPECT_NE(message.find("dcqcn.toml:8"), std::string::npos) << message;
  EXPECT_NE(message.find("flow[0].rate"), std::string::npos) << message;
  EXPECT_NE(message.find("fixed"), std::string::npos) << message;
  // The same file with the fixed algorithm set on the command line loads.
  EXPECT_EQ(
      testing::InputErrorOf([&] { LoadScenarioText(text, "dcqcn.toml", {"cc.algorithm=fixed"}); }),
      "");
}

TEST(FixedCc, ResolvedTomlKeepsTheFlowRateAndCcRate) {
  const Scenario s = LoadScenarioText(kPinned, "pinned.toml");
  const std::string resolved = ResolvedToml(s);
  EXPECT_NE(resolved.find("rate = \"5Gbps\""), std::string::npos);
  EXPECT_NE(resolved.find("rate = \"100Gbps\""), std::string::npos);
  EXPECT_NE(resolved.find("rate = \"10Gbps\""), std::string::npos);
  const Scenario back = LoadScenarioText(resolved, "resolved.toml");
  EXPECT_EQ(back.flow_rates, s.flow_rates);
}

}  // namespace
}  // namespace dcqcn
