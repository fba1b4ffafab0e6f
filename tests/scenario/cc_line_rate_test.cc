// A congestion-control rate floor or increase step above the line rate is refused once the
// network's line rates are known (issue 28, item 8): DCQCN's min_rate = 200 Gb/s on 40 G links
// used to run with Rc = Rt = 200 Gb/s.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cc/registry.h"
#include "scenario/scenario.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

std::string Star(const std::string& cc) {
  return "[topology]\ntype = \"star\"\nhosts = 3\nlink_rate = \"40Gbps\"\n[cc]\n" + cc +
         "[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\n";
}

TEST(CcLineRate, DcqcnMinRateAboveTheLineRateIsRefusedNamingFileLineAndKey) {
  const Scenario s =
      LoadScenarioText(Star("algorithm = \"dcqcn\"\nmin_rate = \"200Gbps\"\n"), "m.toml");
  EXPECT_EQ(testing::InputErrorOf([&] { ToNetworkConfig(s); }),
            "m.toml:7: cc.min_rate: expected a rate at most the line rate of the slowest NIC (h0, "
            "40Gbps), got 200Gbps");
  // The same through --set, which the message names.
  const Scenario t = LoadScenarioText(Star("algorithm = \"dcqcn\"\n"), "m.toml",
                                      std::vector<std::string>{"cc.min_rate=200Gbps"});
  EXPECT_EQ(testing::InputErrorOf([&] { ResolveCc(t); }),
            "--set cc.min_rate=200Gbps: cc.min_rate: expected a rate at most the line rate of the "
            "slowest NIC (h0, 40Gbps), got 200Gbps");
  // At the line rate is allowed.
  const Scenario ok =
      LoadScenarioText(Star("algorithm = \"dcqcn\"\nmin_rate = \"40Gbps\"\n"), "m.toml");
  EXPECT_NO_THROW(ToNetworkConfig(ok));
}

TEST(CcLineRate, EveryAlgorithmsFloorsAndStepsAreBounded) {
  struct Case {
    const char* algorithm;
    const char* key;
  };
  for (const Case& c :
       {Case{"dcqcn", "min_rate"}, Case{"dcqcn", "rai"}, Case{"dcqcn", "rhai"},
        Case{"dctcp", "min_rate"}, Case{"dctcp", "rate_ai"}, Case{"timely", "min_rate"},
        Case{"timely", "rate_ai"}, Case{"timely", "rate_hai"}, Case{"hpcc", "min_rate"},
        Case{"hpcc", "rate_ai"}}) {
    const Scenario s = LoadScenarioText(
        Star(fmt::format("algorithm = \"{}\"\n{} = \"41Gbps\"\n", c.algorithm, c.key)), "a.toml");
    const std::string m = testing::InputErrorOf([&] { ToNetworkConfig(s); });
    EXPECT_EQ(m, fmt::format("a.toml:7: cc.{}: expected a rate at most the line rate of the "
                             "slowest NIC (h0, 40Gbps), got 41Gbps",
                             c.key))
        << c.algorithm;
  }
}

TEST(CcLineRate, AProfilesValueAboveASlowLinkNamesTheProfile) {
  // HPCC's profile floors TIMELY at 1 Gb/s: on 500 Mb/s links that is above the line rate.
  const Scenario s = LoadScenarioText(Star("algorithm = \"timely\"\n"), "p.toml",
                                      std::vector<std::string>{"topology.link_rate=500Mbps"});
  EXPECT_EQ(testing::InputErrorOf([&] { ToNetworkConfig(s); }),
            "p.toml: cc.min_rate: the hpcc profile's 1Gbps is above the line rate of the "
            "slowest NIC (h0, 500Mbps); set cc.min_rate to at most 500Mbps");
}

TEST(CcLineRate, TheSlowestHostCounts) {
  // Host 2 has a 10 Gb/s cable: a 20 Gb/s floor is above its line rate.
  Scenario s = testing::StarScenario(3, 40 * kGbps);
  s.topology.links[2].rate = 10 * kGbps;
  s.cc.algorithm = "dcqcn";
  s.cc.params["min_rate"] = {"20Gbps", 4};
  EXPECT_EQ(testing::InputErrorOf([&] { ResolveCc(s); }),
            "<test>:4: cc.min_rate: expected a rate at most the line rate of the slowest NIC (h2, "
            "10Gbps), got 20Gbps");
}

}  // namespace
}  // namespace dcqcn
