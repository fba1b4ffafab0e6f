// Accepted-looking values at the edges of the ranges (issue #12): each is a clear InputError
// naming what to change, never a wrap, an endless loop or an exhausted memory.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"
#include "net/network.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

std::string ErrorOf(const std::string& text, bool build_network = false) {
  return testing::InputErrorOf([&] {
    const Scenario s = LoadScenarioText(text, "edge.toml");
    if (build_network) Network net(ToNetworkConfig(s));
  });
}

void ExpectError(const std::string& text, const std::vector<std::string>& parts,
                 bool build_network = false) {
  const std::string message = ErrorOf(text, build_network);
  ASSERT_FALSE(message.empty()) << "accepted:\n" << text;
  for (const std::string& part : parts) {
    EXPECT_NE(message.find(part), std::string::npos) << "lacks \"" << part << "\": " << message;
  }
}

TEST(EdgeValues, MoreThan65535PortsOnASwitch) {
  // A star of 65,536 hosts: s0 would need port 65,536, beyond 16 bits.
  ExpectError(
      "[topology]\ntype = \"star\"\nhosts = 65536\n[[flow]]\nsrc = 65535\ndst = 0\n"
      "size = \"1KB\"\n",
      {"edge.toml", "topology", "s0", "65535 ports"}, true);
}

TEST(EdgeValues, FlowOfMoreThan2To32Packets) {
  // 2^32 packets of 1000 bytes would wrap the 32-bit packet count to 0.
  ExpectError("[[flow]]\nsrc = 1\ndst = 0\nsize = \"4294967296000B\"\n",
              {"edge.toml", "flow 0", "4294967296 packets"}, true);
}

TEST(EdgeValues, TinyPoissonLoadOrIncastRateEndsTheArrivalLoop) {
  // The first gap is beyond any time: no flows (an error), not an endless loop.
  ExpectError(
      "[workload]\ntype = \"poisson\"\ncdf = \"websearch\"\nload = 1e-300\n"
      "window = \"1ms\"\n",
      {"no flows"});
  ExpectError(
      "[workload]\ntype = \"poisson\"\nload = 0\nwindow = \"1ms\"\n"
      "[workload.incast]\nfanin = 3\nsize = \"10KB\"\nrate = 1e-300\n",
      {"no flows"});
}

TEST(EdgeValues, HugeGeneratedWorkloadIsRefusedBeforeGenerating) {
  ExpectError(
      "[workload]\ntype = \"poisson\"\ncdf = \"websearch\"\nload = 0.5\n"
      "window = \"10000s\"\n",
      {"edge.toml", "workload", "load", "million"});
  ExpectError(
      "[workload]\ntype = \"poisson\"\nload = 0\nwindow = \"1ms\"\n"
      "[workload.incast]\nfanin = 3\nsize = \"10KB\"\nrate = 1e300\n",
      {"edge.toml", "incast.rate"});
}

TEST(EdgeValues, CdfSizesBeyondAPetabyte) {
  const auto path = std::filesystem::temp_directory_path() / "dcqcn_edge_cdf.txt";
  std::ofstream(path) << "1 0\n1e300 100\n";
  ExpectError("[workload]\ntype = \"poisson\"\ncdf = \"" + path.string() +
                  "\"\nload = 0.3\nwindow = \"1ms\"\n",
              {path.string() + ":2", "1 PB"});
  std::filesystem::remove(path);
}

TEST(EdgeValues, HeadroomOfAHugeLinkDelayNamesTheSwitch) {
  ExpectError("[topology]\nlink_delay = \"1000000s\"\n[[flow]]\nsrc = 1\ndst = 0\nsize = \"1KB\"\n",
              {"edge.toml", "switch s0", "switch.buffer"}, true);
}

TEST(EdgeValues, HostOutOfRangeSaysTheRangeOnce) {
  const std::string m =
      ErrorOf("[topology]\nhosts = 3\n[[flow]]\nsrc = 5\ndst = 0\nsize = \"1KB\"\n");
  EXPECT_NE(m.find("edge.toml:4: flow[0].src: expected a host index 0..2, got 5"),
            std::string::npos)
      << m;
}

TEST(EdgeValues, SampleIntervalSoShortItWouldExhaustMemory) {
  ExpectError(
      "duration = \"10ms\"\n[output]\ninterval = \"1ps\"\n[[flow]]\nsrc = 1\ndst = 0\n"
      "size = \"1KB\"\n",
      {"edge.toml:3", "output.interval", "samples"});
}

// One bound for each kind of quantity (core/units.h), whatever key it enters by: the message
// names the key and the bound instead of accepting a value whose sums would overflow.
TEST(EdgeValues, QuantitiesBeyondTheirBoundNameKeyAndBound) {
  ExpectError("[topology]\nlink_delay = \"2000000s\"\n",
              {"edge.toml:2", "topology.link_delay", "at most 1000000s", "2000000s"});
  ExpectError("duration = \"9223372036854775807ps\"\n", {"edge.toml:1", "duration", "at most"});
  ExpectError("[[flow]]\nsrc = 1\ndst = 0\nsize = \"9223372036854775807B\"\n",
              {"edge.toml:4", "size", "at most 1000000GB"});
  ExpectError("[topology]\nlink_rate = \"2000Tbps\"\n",
              {"edge.toml:2", "topology.link_rate", "at most 1000Tbps"});
  ExpectError("[switch]\nbuffer = \"1000001GB\"\n", {"switch.buffer", "at most 1000000GB"});
  ExpectError("[cc]\nrai = \"1001Tbps\"\n[[flow]]\nsrc = 1\ndst = 0\nsize = \"1KB\"\n",
              {"edge.toml", "cc.rai"}, true);
}

// Text that reaches resolved.toml without a TOML parser must be valid UTF-8, or resolved.toml
// would not load again (found by the scenario fuzzer: a --set value with a 0xFF byte).
TEST(EdgeValues, OverridesAndNamesMustBeValidUtf8) {
  const std::string flow = "[[flow]]\nsrc = 1\ndst = 0\nsize = \"1KB\"\n";
  EXPECT_EQ(testing::InputErrorOf([&] { LoadScenarioText(flow, "e.toml", {"cc.rai=tr\xFF"}); }),
            "--set cc.rai=...: not valid UTF-8");
  const std::string m = testing::InputErrorOf([&] { LoadScenarioText(flow, "/tmp/caf\xE9.toml"); });
  EXPECT_NE(m.find("name: expected a name usable as a folder name (valid UTF-8"), std::string::npos)
      << m;
  // A valid UTF-8 value that is not TOML stays a string, as before.
  EXPECT_EQ(LoadScenarioText(flow, "e.toml", {"cc.rai=caf\xC3\xA9"}).cc.params.at("rai").value,
            "caf\xC3\xA9");
}

}  // namespace
}  // namespace dcqcn
