// Tests of the scenario loader: defaults, every validation rule (each error must name the key and
// the line), --set overrides, and robustness against files that are not TOML at all.
#include "scenario/scenario_loader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "scenario/resolved_toml.h"
#include "test_util.h"

namespace dcqcn {
namespace {

// One flow so that a snippet under test is a complete scenario.
constexpr const char* kOneFlow = "\n[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\n";

Scenario Load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return LoadScenarioText(text, "test.toml", overrides);
}

// The message of the InputError that loading `text` throws ("" when it does not throw).
std::string ErrorOf(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return testing::InputErrorOf([&] { Load(text, overrides); });
}

// Loading must fail with a message containing every one of `parts` (key, "test.toml:LINE", ...).
void ExpectError(const std::string& text, const std::vector<std::string>& parts,
                 const std::vector<std::string>& overrides = {}) {
  testing::ExpectLoadError(text, "test.toml", parts, overrides);
}

TEST(ScenarioLoader, OnlyFlowsGivesStructDefaults) {
  const Scenario s = Load(std::string("# nothing but a flow") + kOneFlow);
  const Scenario d;
  EXPECT_EQ(s.name, "test");  // the file stem
  EXPECT_EQ(s.source, "test.toml");
  EXPECT_EQ(s.duration, d.duration);
  EXPECT_EQ(s.seed, d.seed);
  EXPECT_EQ(s.topology.type, "star");
  EXPECT_EQ(s.topology.hosts, d.topology.hosts);
  EXPECT_EQ(s.topology.switches, 1);
  EXPECT_EQ(s.topology.link_rate, 40 * kGbps);
  EXPECT_EQ(s.topology.link_delay, 1 * kMicrosecond);
  EXPECT_EQ(s.sw.buffer, 12000000);
  EXPECT_TRUE(s.sw.pfc.enabled);
  EXPECT_TRUE(s.sw.pfc.dynamic_threshold);
  EXPECT_DOUBLE_EQ(s.sw.pfc.alpha, 0.125);
  EXPECT_EQ(s.sw.pfc.headroom_rule, PfcConfig::HeadroomRule::kAuto);
  EXPECT_EQ(s.sw.pfc.reserve, d.sw.pfc.reserve);
  EXPECT_EQ(s.sw.pfc.pause_quanta, 65535);
  EXPECT_EQ(s.sw.ecn.kmin, 5000);
  EXPECT_EQ(s.sw.ecn.kmax, 200000);
  EXPECT_DOUBLE_EQ(s.sw.ecn.pmax, 0.01);
  EXPECT_EQ(s.host.mtu, 1000);
  EXPECT_EQ(s.host.ack_interval, 1);
  EXPECT_EQ(s.host.rto, d.host.rto);
  EXPECT_EQ(s.cc.algorithm, d.cc.algorithm);
  EXPECT_EQ(s.cc.profile, "paper");
  EXPECT_TRUE(s.cc.params.empty());
  EXPECT_FALSE(s.output.ts_rate || s.output.ts_queue || s.output.ts_pfc || s.output.ts_throughput);
  EXPECT_EQ(s.output.interval, 10 * kMicrosecond);
  ASSERT_EQ(s.flows.size(), 1u);
  EXPECT_EQ(s.explicit_flows, 1);
  EXPECT_EQ(s.flows[0].src, 1);
  EXPECT_EQ(s.flows[0].dst, 0);
  EXPECT_EQ(s.flows[0].size, 1000000);
  EXPECT_EQ(s.flows[0].start, 0);
  EXPECT_EQ(s.flows[0].priority, 3);
  EXPECT_EQ(s.topology.links.size(), 9u);
}

TEST(ScenarioLoader, DesignExampleWithEveryKey) {
  const Scenario s = Load(R"(
name = "incast-8to1"
duration = "5ms"
seed = 42

[topology]
type = "star"
hosts = 9
link_rate = "100Gbps"
link_delay = "1.5us"

[switch]
buffer = "9MiB"
[switch.pfc]
enabled = false
threshold = "24.47KB"
alpha = 0.25
headroom = "100KB"
reserve = "2KB"
xon_offset = "3KB"
pause_quanta = 1000
pause_until_resume = true
[switch.ecn]
enabled = false
kmin = "10KB"
kmax = "10KB"
pmax = 1

[host]
mtu = 4000
ack_interval = 4
rto = "1ms"

[cc]
algorithm = "dcqcn"
profile = "mlx5"
rai = "10Mbps"
g = 0.00390625
clamp_target_rate = true
byte_counter = 10000000

[[flow]]
src = 1
dst = 0
size = "10MB"
start = "10us"
priority = 5

[output]
timeseries = ["rate", "queue", "pfc", "throughput"]
interval = "5us"
)");
  EXPECT_EQ(s.name, "incast-8to1");
  EXPECT_EQ(s.duration, 5 * kMillisecond);
  EXPECT_EQ(s.seed, 42u);
  EXPECT_EQ(s.topology.link_rate, 100 * kGbps);
  EXPECT_EQ(s.topology.link_delay, 1500 * kNanosecond);
  for (const LinkSpec& l : s.topology.links) {
    EXPECT_EQ(l.rate, 100 * kGbps);
    EXPECT_EQ(l.delay, 1500 * kNanosecond);
  }
  EXPECT_EQ(s.sw.buffer, 9 << 20);
  EXPECT_FALSE(s.sw.pfc.enabled);
  EXPECT_FALSE(s.sw.pfc.dynamic_threshold);
  EXPECT_EQ(s.sw.pfc.static_threshold, 24470);
  EXPECT_DOUBLE_EQ(s.sw.pfc.alpha, 0.25);
  EXPECT_EQ(s.sw.pfc.headroom_rule, PfcConfig::HeadroomRule::kFixed);
  EXPECT_EQ(s.sw.pfc.headroom, 100000);
  EXPECT_EQ(s.sw.pfc.reserve, 2000);
  EXPECT_EQ(s.sw.pfc.xon_offset, 3000);
  EXPECT_EQ(s.sw.pfc.pause_quanta, 1000);
  EXPECT_TRUE(s.sw.pfc.pause_until_resume);
  EXPECT_FALSE(s.sw.ecn.enabled);
  EXPECT_EQ(s.sw.ecn.kmin, 10000);
  EXPECT_EQ(s.sw.ecn.kmax, 10000);
  EXPECT_DOUBLE_EQ(s.sw.ecn.pmax, 1.0);
  EXPECT_EQ(s.host.mtu, 4000);
  EXPECT_EQ(s.host.ack_interval, 4);
  EXPECT_EQ(s.host.rto, kMillisecond);
  EXPECT_EQ(s.cc.algorithm, "dcqcn");
  EXPECT_EQ(s.cc.profile, "mlx5");
  ASSERT_EQ(s.cc.params.size(), 4u);
  EXPECT_EQ(s.cc.params.at("rai").value, "10Mbps");
  EXPECT_EQ(s.cc.params.at("rai").line, 37);
  EXPECT_EQ(s.cc.params.at("g").value, "0.00390625");
  EXPECT_EQ(s.cc.params.at("clamp_target_rate").value, "true");
  EXPECT_EQ(s.cc.params.at("byte_counter").value, "10000000");
  EXPECT_EQ(s.flows[0].size, 10000000);
  EXPECT_EQ(s.flows[0].start, 10 * kMicrosecond);
  EXPECT_EQ(s.flows[0].priority, 5);
  EXPECT_TRUE(s.output.ts_rate && s.output.ts_queue && s.output.ts_pfc && s.output.ts_throughput);
  EXPECT_EQ(s.output.interval, 5 * kMicrosecond);
}

TEST(ScenarioLoader, DefaultScenarioIsAnEightToOneIncast) {
  const Scenario s = DefaultScenario();
  EXPECT_EQ(s.source, "<built-in>");
  // Not the name of examples/incast_8to1.toml, a different incast: the two never share a folder.
  EXPECT_EQ(s.name, "default");
  EXPECT_NE(LoadScenarioFile(std::string(DCQCN_SOURCE_DIR) + "/examples/incast_8to1.toml").name,
            s.name);
  EXPECT_EQ(s.cc.algorithm, "dcqcn");
  EXPECT_EQ(s.cc.profile, "paper");
  EXPECT_TRUE(s.output.ts_rate && s.output.ts_queue && s.output.ts_pfc && s.output.ts_throughput);
  EXPECT_EQ(s.topology.type, "star");
  EXPECT_EQ(s.topology.hosts, 9);
  EXPECT_EQ(s.topology.link_rate, 40 * kGbps);
  EXPECT_EQ(s.topology.link_delay, kMicrosecond);
  ASSERT_EQ(s.flows.size(), 8u);
  EXPECT_EQ(s.explicit_flows, 0);
  Bytes total = 0;
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(s.flows[i].src, i + 1);
    EXPECT_EQ(s.flows[i].dst, 0);
    total += s.flows[i].size;
  }
  // 10 MB each: 16 ms at line rate into the receiver's 40 Gb/s port, long enough for DCQCN
  // to recover from its first cuts.
  EXPECT_EQ(total, 80000000);
  EXPECT_EQ(DefaultScenario({"workload.size=1MB"}).flows[0].size, 1000000);
}

TEST(ScenarioLoader, LoadsFromFileAndNamesItByStem) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::filesystem::path path = dir / "dcqcn_loader_test_scenario.toml";
  {
    std::ofstream out(path);
    out << kOneFlow;
  }
  const Scenario s = LoadScenarioFile(path.string(), {"topology.hosts=3"});
  EXPECT_EQ(s.name, "dcqcn_loader_test_scenario");
  EXPECT_EQ(s.source, path.string());
  EXPECT_EQ(s.topology.hosts, 3);
  std::filesystem::remove(path);
}

TEST(ScenarioLoader, MissingFileAndDirectoryAreInputErrors) {
  try {
    LoadScenarioFile("/nonexistent/dir/x.toml");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/x.toml"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos);
  }
  EXPECT_THROW(LoadScenarioFile(std::filesystem::temp_directory_path().string()), InputError);
  if (std::filesystem::exists("/dev/zero")) {  // endless input: an error, not a hang
    EXPECT_THROW(LoadScenarioFile("/dev/zero"), InputError);
  }
}

TEST(ScenarioLoader, SyntaxErrorNamesFileLineAndColumn) {
  ExpectError("name = \"x\"\n\n[topology\nhosts = 3\n", {"test.toml:3:", "TOML syntax error"});
  ExpectError("hosts = = 3\n", {"test.toml:1:"});
  ExpectError("[topology]\nhosts = 99999999999999999999999\n", {"test.toml:2:"});
  ExpectError("a = 1\na = 2\n", {"test.toml:2:"});  // duplicate key
}

TEST(ScenarioLoader, GarbageInputNeverCrashes) {
  ExpectError(std::string("name = \"\xff\xfe\"\n"), {"test.toml:1:"});
  ExpectError(std::string("\x7f"
                          "ELF\x02\x01\x01\0\0\0\0\0",
                          12),
              {"test.toml"});
  ExpectError(std::string("[[flow]]\nsrc = 1\0dst = 0\n", 22), {"test.toml"});
  ExpectError("", {"no flows"});
  ExpectError(std::string(10000, '['), {"test.toml"});
  ExpectError(std::string(100, '{'), {"test.toml"});
  // Pseudo-random bytes: any outcome but a crash or a non-InputError exception is a bug.
  uint64_t x = 12345;
  for (int trial = 0; trial < 200; ++trial) {
    std::string junk;
    for (int i = 0; i < 200; ++i) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      junk.push_back(static_cast<char>(x >> 56));
    }
    const std::string message = ErrorOf(junk);
    EXPECT_EQ(message.find("wrong exception type"), std::string::npos) << message;
    EXPECT_FALSE(message.empty());
  }
}

TEST(ScenarioLoader, UnknownKeysAnywhere) {
  ExpectError(std::string("nmae = \"x\"\n") + kOneFlow,
              {"test.toml:1:", "nmae", "unknown key", "did you mean name"});
  ExpectError(std::string("\n[topology]\nhots = 3\n") + kOneFlow,
              {"test.toml:3:", "topology.hots", "did you mean hosts"});
  ExpectError(std::string("[switch]\nbufer = \"1MB\"\n") + kOneFlow,
              {"test.toml:2:", "switch.bufer"});
  ExpectError(std::string("[switch.pfc]\nxoff = \"1KB\"\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.xoff"});
  ExpectError(std::string("[switch.ecn]\n\nk_min = \"1KB\"\n") + kOneFlow,
              {"test.toml:3:", "switch.ecn.k_min"});
  ExpectError(std::string("[switch.red]\nkmin = \"1KB\"\n") + kOneFlow,
              {"test.toml:1:", "switch.red", "unknown key"});
  ExpectError(std::string("[host]\nmss = 1000\n") + kOneFlow, {"test.toml:2:", "host.mss"});
  ExpectError(std::string("[output]\nevery = \"1us\"\n") + kOneFlow,
              {"test.toml:2:", "output.every"});
  ExpectError(std::string("[routing]\necmp = true\n") + kOneFlow, {"test.toml:1:", "routing"});
  ExpectError("[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\nprio = 3\n",
              {"test.toml:5:", "flow[0].prio", "unknown key"});
  ExpectError("[workload]\ntype = \"incast\"\nsize = \"1MB\"\nsender = 3\n",
              {"test.toml:4:", "workload.sender", "did you mean senders"});
}

TEST(ScenarioLoader, WrongValueTypes) {
  ExpectError(std::string("[topology]\nhosts = \"nine\"\n") + kOneFlow,
              {"test.toml:2:", "topology.hosts", "expected an integer", "\"nine\""});
  ExpectError(std::string("[topology]\nhosts = 9.0\n") + kOneFlow,
              {"test.toml:2:", "topology.hosts", "9.0"});
  ExpectError(std::string("name = 3\n") + kOneFlow, {"test.toml:1:", "name", "string"});
  // Issue 43, item 12: deadlock detection's cadence is bounded.
  ExpectError(std::string("[output]\ndeadlock_time = \"1ps\"\n") + kOneFlow,
              {"test.toml:2:", "output.deadlock_time", "at least \"1us\"", "1ps"});
  EXPECT_EQ(
      Load(std::string("[output]\ndeadlock_time = \"0us\"\n") + kOneFlow).output.deadlock_time, 0);
  // Issue 43, item 14: a watchdog on switches that never send PAUSE is refused, not ignored.
  ExpectError(std::string("[switch.pfc]\nenabled = false\n[switch.pfc.watchdog]\n"
                          "detection = \"200us\"\n") +
                  kOneFlow,
              {"test.toml:", "switch.pfc.watchdog", "needs PFC"});
  ExpectError(std::string("seed = -1\n") + kOneFlow,
              {"test.toml:1:", "seed", "0..18446744073709551615"});
  // A seed beyond TOML's integers is written as a string of digits; anything else is not one.
  ExpectError(std::string("seed = \"1x\"\n") + kOneFlow, {"test.toml:1:", "seed"});
  ExpectError(std::string("[switch.pfc]\nenabled = \"yes\"\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.enabled", "true or false"});
  ExpectError(std::string("[switch.ecn]\npmax = \"1%\"\n") + kOneFlow,
              {"test.toml:2:", "switch.ecn.pmax", "number"});
  ExpectError(std::string("[host]\nmtu = \"1000B\"\n") + kOneFlow, {"test.toml:2:", "host.mtu"});
  ExpectError(std::string("topology = 3\n") + kOneFlow, {"test.toml:1:", "topology", "table"});
  ExpectError(std::string("[switch]\npfc = true\n") + kOneFlow, {"test.toml:2:", "switch.pfc"});
  ExpectError("[flow]\nsrc = 1\ndst = 0\nsize = \"1MB\"\n", {"test.toml:1:", "flow", "[[flow]]"});
  ExpectError("flow = [1, 2]\n", {"test.toml:1:", "flow[0]", "table"});
  ExpectError("[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\npriority = 2.5\n",
              {"test.toml:5:", "flow[0].priority"});
  ExpectError(std::string("[output]\ntimeseries = \"rate\"\n") + kOneFlow,
              {"test.toml:2:", "output.timeseries", "array"});
  ExpectError(std::string("[[workload]]\ntype = \"incast\"\nsize = \"1MB\"\n"),
              {"test.toml:1:", "workload", "table"});
}

TEST(ScenarioLoader, BadUnitsAreRejectedWithTheExpectedForm) {
  ExpectError(std::string("[switch.ecn]\nkmin = \"5 kilobytes\"\n") + kOneFlow,
              {"test.toml:2:", "switch.ecn.kmin", "size such as \"5KB\"", "\"5 kilobytes\""});
  ExpectError(std::string("[topology]\nlink_rate = \"40Gbit\"\n") + kOneFlow,
              {"test.toml:2:", "topology.link_rate", "rate", "\"40Gbit\""});
  ExpectError(std::string("[topology]\nlink_rate = 40\n") + kOneFlow,
              {"test.toml:2:", "topology.link_rate", "needs a unit"});
  ExpectError(std::string("duration = 10\n") + kOneFlow, {"test.toml:1:", "duration", "unit"});
  ExpectError(std::string("duration = \"10\"\n") + kOneFlow, {"test.toml:1:", "duration"});
  ExpectError(std::string("duration = \"10 sec\"\n") + kOneFlow, {"test.toml:1:", "duration"});
  ExpectError(std::string("[switch]\nbuffer = 12000000\n") + kOneFlow,
              {"test.toml:2:", "switch.buffer", "unit"});
  ExpectError("[[flow]]\nsrc = 1\ndst = 0\nsize = \"1..5MB\"\n", {"test.toml:4:", "flow[0].size"});
  ExpectError("[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\nstart = \"soon\"\n",
              {"test.toml:5:", "flow[0].start", "time"});
  ExpectError(std::string("[host]\nrto = \"4kB\"\n") + kOneFlow, {"test.toml:2:", "host.rto"});
}

TEST(ScenarioLoader, ZeroAndNegativeQuantities) {
  ExpectError(std::string("[topology]\nlink_rate = \"0Gbps\"\n") + kOneFlow,
              {"test.toml:2:", "topology.link_rate", "positive"});
  ExpectError(std::string("[topology]\nlink_rate = \"-40Gbps\"\n") + kOneFlow,
              {"test.toml:2:", "topology.link_rate"});
  ExpectError(std::string("[topology]\nlink_delay = \"0us\"\n") + kOneFlow,
              {"test.toml:2:", "topology.link_delay"});
  ExpectError(std::string("duration = \"0s\"\n") + kOneFlow, {"test.toml:1:", "duration"});
  ExpectError(std::string("duration = \"-1ms\"\n") + kOneFlow, {"test.toml:1:", "duration"});
  ExpectError(std::string("[switch]\nbuffer = \"0B\"\n") + kOneFlow,
              {"test.toml:2:", "switch.buffer", "positive"});
  ExpectError(std::string("[host]\nmtu = 0\n") + kOneFlow,
              {"test.toml:2:", "host.mtu", "64..9000"});
  ExpectError(std::string("[host]\nmtu = 9001\n") + kOneFlow, {"test.toml:2:", "host.mtu"});
  ExpectError(std::string("[host]\nmtu = 63\n") + kOneFlow, {"test.toml:2:", "host.mtu"});
  EXPECT_EQ(Load(std::string("[host]\nmtu = 9000\n") + kOneFlow).host.mtu, 9000);
  EXPECT_EQ(Load(std::string("[host]\nmtu = 64\n") + kOneFlow).host.mtu, 64);
  ExpectError(std::string("[host]\nack_interval = 0\n") + kOneFlow,
              {"test.toml:2:", "host.ack_interval"});
  ExpectError(std::string("[host]\nrto = \"0ns\"\n") + kOneFlow, {"test.toml:2:", "host.rto"});
  ExpectError(std::string("[output]\ninterval = \"0us\"\n") + kOneFlow,
              {"test.toml:2:", "output.interval"});
  ExpectError("[[flow]]\nsrc = 1\ndst = 0\nsize = \"0B\"\n", {"test.toml:4:", "flow[0].size"});
  ExpectError("[[flow]]\nsrc = 1\ndst = 0\nsize = \"-1MB\"\n", {"test.toml:4:", "flow[0].size"});
  ExpectError("[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\nstart = \"-1us\"\n",
              {"test.toml:5:", "flow[0].start"});
  ExpectError(std::string("[switch.pfc]\nreserve = \"-1KB\"\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.reserve"});
  ExpectError(std::string("[switch.pfc]\nxon_offset = \"-1KB\"\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.xon_offset"});
  ExpectError(std::string("[switch.pfc]\npause_quanta = 0\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.pause_quanta", "1..65535"});
  ExpectError(std::string("[switch.pfc]\npause_quanta = 65536\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.pause_quanta"});
  // Zero is allowed where it means something: a start at time 0, no reserve, auto XON offset.
  const Scenario s = Load(std::string("[switch.pfc]\nreserve = \"0B\"\nxon_offset = \"0B\"\n"
                                      "headroom = \"0B\"\n") +
                          kOneFlow);
  EXPECT_EQ(s.sw.pfc.reserve, 0);
  EXPECT_EQ(s.sw.pfc.headroom_rule, PfcConfig::HeadroomRule::kFixed);
  EXPECT_EQ(s.sw.pfc.headroom, 0);
  EXPECT_EQ(s.sw.pfc.xon_offset, 2 * (1000 + 66));  // resolved: two MTU frames
}

TEST(ScenarioLoader, PfcThresholdAndHeadroomForms) {
  Scenario s =
      Load(std::string("[switch.pfc]\nthreshold = \"dynamic\"\nheadroom = \"auto\"\n") + kOneFlow);
  EXPECT_TRUE(s.sw.pfc.dynamic_threshold);
  EXPECT_EQ(s.sw.pfc.headroom_rule, PfcConfig::HeadroomRule::kAuto);
  s = Load(std::string("[switch.pfc]\nthreshold = \"24.47KB\"\nheadroom = \"30KB\"\n") + kOneFlow);
  EXPECT_FALSE(s.sw.pfc.dynamic_threshold);
  EXPECT_EQ(s.sw.pfc.static_threshold, 24470);
  EXPECT_EQ(s.sw.pfc.headroom_rule, PfcConfig::HeadroomRule::kFixed);
  EXPECT_EQ(s.sw.pfc.headroom, 30000);
  ExpectError(std::string("[switch.pfc]\nthreshold = \"dyn\"\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.threshold", "\"dynamic\" or a"});
  ExpectError(std::string("[switch.pfc]\nthreshold = \"0KB\"\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.threshold"});
  ExpectError(std::string("[switch.pfc]\nthreshold = 24470\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.threshold"});
  ExpectError(std::string("[switch.pfc]\nheadroom = \"automatic\"\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.headroom", "\"auto\""});
}

TEST(ScenarioLoader, PfcWatchdogTableTurnsItOnWithSonicDefaults) {
  EXPECT_FALSE(Load(kOneFlow).sw.pfc.watchdog.enabled);
  Scenario s = Load(std::string("[switch.pfc.watchdog]\n") + kOneFlow);
  EXPECT_TRUE(s.sw.pfc.watchdog.enabled);
  EXPECT_EQ(s.sw.pfc.watchdog.detection, 200 * kMillisecond);
  EXPECT_EQ(s.sw.pfc.watchdog.restoration, 200 * kMillisecond);
  EXPECT_EQ(s.sw.pfc.watchdog.action, PfcWatchdogConfig::Action::kDrop);
  s = Load(std::string("[switch.pfc.watchdog]\ndetection = \"1ms\"\nrestoration = \"2ms\"\n"
                       "action = \"forward\"\n") +
           kOneFlow);
  EXPECT_EQ(s.sw.pfc.watchdog.detection, 1 * kMillisecond);
  EXPECT_EQ(s.sw.pfc.watchdog.restoration, 2 * kMillisecond);
  EXPECT_EQ(s.sw.pfc.watchdog.action, PfcWatchdogConfig::Action::kForward);
  s = Load(kOneFlow, {"switch.pfc.watchdog.detection=300us"});
  EXPECT_TRUE(s.sw.pfc.watchdog.enabled);
  EXPECT_EQ(s.sw.pfc.watchdog.detection, 300 * kMicrosecond);
  EXPECT_FALSE(Load(std::string("[switch.pfc.watchdog]\nenabled = false\n") + kOneFlow)
                   .sw.pfc.watchdog.enabled);
  ExpectError(std::string("[switch.pfc.watchdog]\ndetection = \"0us\"\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.watchdog.detection", "positive"});
  ExpectError(std::string("[switch.pfc.watchdog]\nrestoration = \"0s\"\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.watchdog.restoration"});
  ExpectError(std::string("[switch.pfc.watchdog]\naction = \"alert\"\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.watchdog.action", "\"forward\""});
  ExpectError(std::string("[switch.pfc.watchdog]\npolling = \"1ms\"\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.watchdog.polling"});
}

TEST(ScenarioLoader, PauseStormEvents) {
  const std::string storm = "duration = \"5ms\"\n[[event]]\nat = \"1ms\"\nkind = \"pause_storm\"\n";
  const Scenario s = Load(storm + "host = \"h1\"\nuntil = \"2ms\"\n" + kOneFlow);
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].host, 1);
  EXPECT_EQ(s.events[0].at, 1 * kMillisecond);
  EXPECT_EQ(s.events[0].until, 2 * kMillisecond);
  ExpectError(storm + "host = \"h1\"\n" + kOneFlow, {"test.toml:2:", "event[0].until", "required"});
  ExpectError(storm + "host = \"s0\"\nuntil = \"2ms\"\n" + kOneFlow,
              {"test.toml:5:", "event[0].host", "a host"});
  ExpectError(storm + "host = \"h1\"\nuntil = \"1ms\"\n" + kOneFlow,
              {"test.toml:6:", "event[0].until", "after at"});
  ExpectError(
      "duration = \"5ms\"\n[[event]]\nat = \"6ms\"\nkind = \"pause_storm\"\nhost = "
      "\"h1\"\nuntil = \"7ms\"\n" +
          std::string(kOneFlow),
      {"test.toml:3:", "event[0].at", "not before the run ends"});
  ExpectError("[[event]]\nat = \"1ms\"\nkind = \"meteor\"\n" + std::string(kOneFlow),
              {"test.toml:3:", "event[0].kind", "pause_storm"});
  ExpectError(storm +
                  "host = \"h1\"\nuntil = \"3ms\"\n[[event]]\nat = \"2ms\"\nkind = "
                  "\"pause_storm\"\nhost = \"h1\"\nuntil = \"4ms\"\n" +
                  kOneFlow,
              {"test.toml:8:", "event[1].at", "already storms"});
}

TEST(ScenarioLoader, LinkEvents) {
  // Lines 1-5: the run and a dumbbell (h0, h1 on s0 = node 4; h2, h3 on s1 = node 5).
  const std::string head =
      "duration = \"5ms\"\n[topology]\ntype = \"dumbbell\"\nhosts = 4\nreconvergence = "
      "\"100us\"\n";
  // Lines 6-9 (and on): one event.
  auto event = [](const std::string& kind, const std::string& rest, const std::string& at = "1ms") {
    return "[[event]]\nat = \"" + at + "\"\nkind = \"" + kind + "\"\n" + rest;
  };
  const std::string down = event("link_down", "link = [\"s0\", \"s1\"]\n");
  const Scenario s = Load(
      head + down + event("link_up", "link = [\"s1\", \"s0\"]\ncable = 0\n", "2ms") + kOneFlow);
  ASSERT_EQ(s.events.size(), 2u);
  EXPECT_EQ(s.events[0].kind, NetworkEvent::Kind::kLinkDown);
  EXPECT_EQ(s.events[0].a, 4);
  EXPECT_EQ(s.events[0].b, 5);
  EXPECT_EQ(s.events[0].cable, -1);
  EXPECT_EQ(s.events[1].kind, NetworkEvent::Kind::kLinkUp);
  EXPECT_EQ(s.events[1].at, 2 * kMillisecond);
  EXPECT_EQ(s.events[1].cable, 0);
  EXPECT_EQ(s.topology.reconvergence, 100 * kMicrosecond);
  // resolved.toml writes them back.
  const Scenario again = LoadScenarioText(ResolvedToml(s), "resolved.toml");
  ASSERT_EQ(again.events.size(), 2u);
  EXPECT_EQ(again.events[1].a, 5);
  EXPECT_EQ(again.events[1].cable, 0);
  EXPECT_EQ(again.topology.reconvergence, 100 * kMicrosecond);

  ExpectError(head + event("link_down", "link = [\"s0\", \"h3\"]\n") + kOneFlow,
              {"test.toml:9:", "event[0].link", "s0 and h3 are not cabled"});
  ExpectError(head + event("link_down", "link = [\"s0\"]\n") + kOneFlow,
              {"test.toml:9:", "event[0].link", "two nodes"});
  ExpectError(head + event("link_down", "link = [\"s0\", \"s7\"]\n") + kOneFlow,
              {"test.toml:9:", "event[0].link", "s0..s1"});
  ExpectError(head + event("link_down", "") + kOneFlow,
              {"test.toml:6:", "event[0].link", "required"});
  ExpectError(head + event("link_down", "link = [\"s0\", \"s1\"]\ncable = 1\n") + kOneFlow,
              {"test.toml:10:", "event[0].cable", "between s0 and s1"});
  ExpectError(head + event("link_down", "link = [\"s0\", \"s1\"]\nhost = \"h1\"\n") + kOneFlow,
              {"test.toml:10:", "event[0].host", "only used when kind = \"pause_storm\""});
  ExpectError(head +
                  event("pause_storm",
                        "host = \"h1\"\nuntil = \"2ms\"\nlink = [\"s0\", "
                        "\"s1\"]\n") +
                  kOneFlow,
              {"test.toml:11:", "event[0].link", "only used when kind = \"link_down\""});
  ExpectError(head + event("link_up", "link = [\"s0\", \"s1\"]\n") + kOneFlow,
              {"test.toml:7:", "event[0].at", "is up already"});
  ExpectError(head + down + down + kOneFlow, {"test.toml:11:", "event[1].at", "is down already"});
  ExpectError("duration = \"5ms\"\n[topology]\ntype = \"dumbbell\"\nhosts = 4\n" + down + kOneFlow,
              {"test.toml:7:", "topology.reconvergence", "required", "event[0]"});
}

TEST(ScenarioLoader, AlphaAndPmaxRanges) {
  ExpectError(std::string("[switch.pfc]\nalpha = 0\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.alpha", "> 0"});
  ExpectError(std::string("[switch.pfc]\nalpha = -0.5\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.alpha"});
  ExpectError(std::string("[switch.pfc]\nalpha = inf\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.alpha"});
  ExpectError(std::string("[switch.pfc]\nalpha = nan\n") + kOneFlow,
              {"test.toml:2:", "switch.pfc.alpha"});
  EXPECT_DOUBLE_EQ(Load(std::string("[switch.pfc]\nalpha = 2\n") + kOneFlow).sw.pfc.alpha, 2.0);
  ExpectError(std::string("[switch.ecn]\npmax = 0\n") + kOneFlow,
              {"test.toml:2:", "switch.ecn.pmax", "(0, 1]"});
  ExpectError(std::string("[switch.ecn]\npmax = 1.01\n") + kOneFlow,
              {"test.toml:2:", "switch.ecn.pmax"});
  ExpectError(std::string("[switch.ecn]\npmax = -0.1\n") + kOneFlow,
              {"test.toml:2:", "switch.ecn.pmax"});
  EXPECT_DOUBLE_EQ(Load(std::string("[switch.ecn]\npmax = 1.0\n") + kOneFlow).sw.ecn.pmax, 1.0);
}

TEST(ScenarioLoader, KminAboveKmax) {
  ExpectError(std::string("[switch.ecn]\nkmin = \"300KB\"\nkmax = \"200KB\"\n") + kOneFlow,
              {"test.toml:2:", "switch.ecn.kmin", "kmin <= kmax", "300KB", "200KB"});
  // Against the default Kmax (200 KB) as well.
  ExpectError(std::string("[switch.ecn]\nkmin = \"201KB\"\n") + kOneFlow,
              {"test.toml:2:", "switch.ecn.kmin"});
  ExpectError(std::string("[switch.ecn]\n\nkmax = \"4KB\"\n") + kOneFlow,
              {"test.toml:3:", "switch.ecn.kmax"});
  EXPECT_NO_THROW(Load(std::string("[switch.ecn]\nkmin = \"0B\"\nkmax = \"1B\"\n") + kOneFlow));
}

TEST(ScenarioLoader, FlowHostsMustExistAndDiffer) {
  ExpectError("[topology]\nhosts = 4\n[[flow]]\nsrc = 4\ndst = 0\nsize = \"1MB\"\n",
              {"test.toml:4:", "flow[0].src", "0..3", "got 4"});
  ExpectError("[[flow]]\nsrc = 1\ndst = -1\nsize = \"1MB\"\n", {"test.toml:3:", "flow[0].dst"});
  ExpectError("[[flow]]\nsrc = 1\ndst = 1\nsize = \"1MB\"\n",
              {"test.toml:3:", "flow[0].dst", "other than src"});
  ExpectError(std::string(kOneFlow) + "[[flow]]\ndst = 1\nsize = \"1MB\"\n",
              {"test.toml:6:", "flow[1].src", "required"});
  ExpectError("[[flow]]\nsrc = 1\ndst = 0\n", {"test.toml:1:", "flow[0].size", "required"});
  ExpectError("[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\npriority = 0\n",
              {"test.toml:5:", "flow[0].priority", "1..7"});
  ExpectError("[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\npriority = 8\n",
              {"test.toml:5:", "flow[0].priority"});
  // Lowering the host count with --set makes an existing flow invalid: the flow line is blamed.
  ExpectError("[[flow]]\nsrc = 5\ndst = 0\nsize = \"1MB\"\n", {"test.toml:2:", "flow[0].src"},
              {"topology.hosts=4"});
}

TEST(ScenarioLoader, NoFlowsAtAll) {
  ExpectError("name = \"x\"\n", {"test.toml", "flow", "no flows"});
  ExpectError("flow = []\n", {"test.toml", "no flows"});
}

TEST(ScenarioLoader, TopologyTypeSpecificKeys) {
  ExpectError(std::string("[topology]\ntype = \"torus\"\n") + kOneFlow,
              {"test.toml:2:", "topology.type", "\"star\"", "\"fat_tree\""});
  ExpectError(std::string("[topology]\nhosts = 1\n") + kOneFlow,
              {"test.toml:2:", "topology.hosts"});
  ExpectError(std::string("[topology]\nhosts = 100000000\n") + kOneFlow,
              {"test.toml:2:", "topology.hosts"});
  ExpectError(std::string("[topology]\nswitches = 2\n") + kOneFlow,
              {"test.toml:2:", "topology.switches", "custom"});
  ExpectError(std::string("[topology]\nlinks = [[\"h0\", \"s0\"]]\n") + kOneFlow,
              {"test.toml:2:", "topology.links", "custom"});
  ExpectError(std::string("[topology]\nbottleneck_rate = \"10Gbps\"\n") + kOneFlow,
              {"test.toml:2:", "topology.bottleneck_rate", "dumbbell"});
}

TEST(ScenarioLoader, DumbbellBottleneckDefaultsToLinkRate) {
  Scenario s = Load(std::string("[topology]\ntype = \"dumbbell\"\nhosts = 4\n") + kOneFlow);
  EXPECT_EQ(s.topology.switches, 2);
  EXPECT_EQ(s.topology.bottleneck_rate, 40 * kGbps);
  EXPECT_EQ(s.topology.links.back().rate, 40 * kGbps);
  s = Load(
      std::string("[topology]\ntype = \"dumbbell\"\nhosts = 4\nbottleneck_rate = \"10Gbps\"\n") +
      kOneFlow);
  EXPECT_EQ(s.topology.links.back().rate, 10 * kGbps);
}

constexpr const char* kCustomHead = "[topology]\ntype = \"custom\"\nhosts = 4\nswitches = 2\n";

TEST(ScenarioLoader, CustomTopologyLinks) {
  const Scenario s = Load(std::string(kCustomHead) +
                          "link_rate = \"25Gbps\"\n"
                          "links = [[\"h0\", \"s0\"], [\"h1\", \"s0\"], [\"s0\", \"s1\", "
                          "\"100Gbps\", \"2us\"],\n"
                          "         [\"s1\", \"h2\", \"10Gbps\"], [\"h3\", \"s1\"]]\n" +
                          "[[flow]]\nsrc = 0\ndst = 3\nsize = \"1MB\"\n");
  const TopologyConfig& t = s.topology;
  EXPECT_EQ(t.switches, 2);
  ASSERT_EQ(t.links.size(), 5u);
  EXPECT_EQ(t.links[0].a, 0);
  EXPECT_EQ(t.links[0].b, 4);  // s0 = H + 0
  EXPECT_EQ(t.links[0].rate, 25 * kGbps);
  EXPECT_EQ(t.links[0].delay, kMicrosecond);
  EXPECT_EQ(t.links[2].a, 4);
  EXPECT_EQ(t.links[2].b, 5);
  EXPECT_EQ(t.links[2].rate, 100 * kGbps);
  EXPECT_EQ(t.links[2].delay, 2 * kMicrosecond);
  EXPECT_EQ(t.links[3].a, 5);
  EXPECT_EQ(t.links[3].b, 2);
  EXPECT_EQ(t.links[3].rate, 10 * kGbps);
  EXPECT_EQ(t.links[3].delay, kMicrosecond);
}

TEST(ScenarioLoader, CustomTopologyErrors) {
  const std::string flow = "[[flow]]\nsrc = 0\ndst = 1\nsize = \"1MB\"\n";
  const std::string head = kCustomHead;
  // Unknown nodes: a switch beyond `switches`, a host beyond `hosts`, a name that is neither.
  ExpectError(head +
                  "links = [[\"h0\", \"s0\"], [\"h1\", \"s9\"], [\"h2\", \"s1\"], [\"h3\", "
                  "\"s1\"], [\"s0\", \"s1\"]]\n" +
                  flow,
              {"test.toml:5:", "topology.links[1]", "unknown node \"s9\"", "s0..s1"});
  ExpectError(head + "links = [[\"h0\", \"s0\"],\n [\"x3\", \"s0\"]]\n" + flow,
              {"test.toml:6:", "topology.links[1]", "unknown node \"x3\""});
  ExpectError(head + "links = [[\"h4\", \"s0\"]]\n" + flow, {"test.toml:5:", "\"h4\""});
  ExpectError(head + "links = [[\"h\", \"s0\"]]\n" + flow, {"test.toml:5:", "\"h\""});
  ExpectError(head + "links = [[\"h-1\", \"s0\"]]\n" + flow, {"test.toml:5:", "\"h-1\""});
  ExpectError(head + "links = [[0, \"s0\"]]\n" + flow, {"test.toml:5:", "topology.links[0]"});
  // Shape of a link.
  ExpectError(head + "links = [[\"h0\"]]\n" + flow, {"test.toml:5:", "topology.links[0]"});
  ExpectError(head + "links = [\"h0\", \"s0\"]\n" + flow, {"test.toml:5:", "topology.links[0]"});
  ExpectError(head + "links = \"h0-s0\"\n" + flow, {"test.toml:5:", "topology.links", "array"});
  ExpectError(head + "links = [[\"h0\", \"s0\", \"100Gbps\", \"2us\", \"x\"]]\n" + flow,
              {"test.toml:5:", "topology.links[0]"});
  ExpectError(head + "links = [[\"h0\", \"s0\", \"fast\"]]\n" + flow,
              {"test.toml:5:", "topology.links[0][2]", "rate"});
  ExpectError(head + "links = [[\"h0\", \"s0\", \"0Gbps\"]]\n" + flow,
              {"test.toml:5:", "topology.links[0][2]"});
  ExpectError(head + "links = [[\"h0\", \"s0\", \"10Gbps\", \"0us\"]]\n" + flow,
              {"test.toml:5:", "topology.links[0][3]", "time"});
  // A link from a node to itself.
  ExpectError(head + "links = [[\"s0\", \"s0\"]]\n" + flow,
              {"test.toml:5:", "topology.links[0]", "itself"});
  // A host with no link (two are a NIC with two ports: NetworkMultiPortTest).
  ExpectError(head + "links = [[\"h0\", \"s0\"], [\"h1\", \"s0\"], [\"h2\", \"s0\"]]\n" + flow,
              {"test.toml:5:", "topology.links", "h3 has no link"});
  ExpectError(head + "\n" + flow, {"test.toml:1:", "topology.links", "required"});
  ExpectError(std::string("[topology]\ntype = \"custom\"\nswitches = -1\n") + flow,
              {"test.toml:3:", "topology.switches"});
}

TEST(ScenarioLoader, HostsWithoutAPathAreRejected) {
  const std::string islands = std::string(kCustomHead) +
                              "links = [[\"h0\", \"s0\"], [\"h1\", \"s0\"], [\"h2\", \"s1\"], "
                              "[\"h3\", \"s1\"]]\n";
  EXPECT_NO_THROW(Load(islands + "[[flow]]\nsrc = 0\ndst = 1\nsize = \"1MB\"\n"));
  ExpectError(islands +
                  "[[flow]]\nsrc = 0\ndst = 1\nsize = \"1MB\"\n\n[[flow]]\nsrc = 0\n"
                  "dst = 2\nsize = \"1MB\"\n",
              {"test.toml:11:", "flow[1]", "h0 has no path to host h2"});
  ExpectError(islands + "[workload]\ntype = \"permutation\"\nsize = \"1MB\"\n",
              {"test.toml:6:", "workload", "no path"});
  // Two hosts cabled back to back reach each other without a switch.
  EXPECT_NO_THROW(
      Load("[topology]\ntype = \"custom\"\nhosts = 2\nswitches = 0\n"
           "links = [[\"h0\", \"h1\"]]\n[[flow]]\nsrc = 0\ndst = 1\nsize = \"1MB\"\n"));
}

// `check` counts a collective's flows without building them (LoadOptions): the same count a run
// builds, and ranks without a path between them are refused either way.
TEST(ScenarioLoader, CheckCountsACollectivesFlowsWithoutBuildingThem) {
  const std::string ring =
      "[topology]\ntype = \"star\"\nhosts = 8\n[[collective]]\nop = \"allreduce\"\n"
      "algorithm = \"ring\"\nsize = \"8MB\"\niterations = 2\n";
  const Scenario built = Load(ring);
  const Scenario counted = LoadScenarioText(ring, "test.toml", std::vector<Override>{},
                                            LoadOptions{.build_collectives_and_jobs = false});
  ASSERT_EQ(built.collective_flow_counts.size(), 1u);
  EXPECT_EQ(built.collective_flow_counts[0], built.flows.size());
  EXPECT_EQ(built.flows.size(), 2u * 2 * 7 * 8);  // 2 iterations of 2 (n - 1) steps of n flows
  EXPECT_TRUE(built.collectives_built());
  EXPECT_EQ(counted.collective_flow_counts, built.collective_flow_counts);
  EXPECT_FALSE(counted.collectives_built());
  EXPECT_TRUE(counted.flows.empty());
  EXPECT_TRUE(counted.collective_flows.empty());

  const std::string islands = std::string(kCustomHead) +
                              "links = [[\"h0\", \"s0\"], [\"h1\", \"s0\"], [\"h2\", \"s1\"], "
                              "[\"h3\", \"s1\"]]\n[[collective]]\nop = \"allreduce\"\n"
                              "size = \"1MB\"\n";
  ExpectError(islands, {"test.toml:6:", "collective[0].ranks", "no path to host"});
  const std::string message = testing::InputErrorOf([&] {
    LoadScenarioText(islands, "test.toml", std::vector<Override>{},
                     LoadOptions{.build_collectives_and_jobs = false});
  });
  EXPECT_NE(message.find("test.toml:6: collective[0].ranks: host h0 has no path to host h2 "
                         "over topology.links, and both are its ranks"),
            std::string::npos)
      << message;
  EXPECT_NO_THROW(LoadScenarioText(islands + "ranks = [0, 1]\n", "test.toml",
                                   std::vector<Override>{},
                                   LoadOptions{.build_collectives_and_jobs = false}));
}

// A job's flows too: counted exactly as built, and its groups' and pipeline pairs' ranks must
// reach each other either way.
TEST(ScenarioLoader, CheckCountsAJobsFlowsWithoutBuildingThem) {
  const std::string job =
      "[topology]\ntype = \"rail\"\nservers = 4\ngpus_per_server = 4\nservers_per_leaf = 2\n"
      "spines = 2\n[[job]]\ntp = 4\npp = 2\nmicro_batches = 3\niterations = 2\n"
      "pp_size = \"1MB\"\n[[job.layer]]\nrepeat = 3\nforward_compute = \"1us\"\n"
      "forward_comm = \"allreduce\"\nforward_size = \"1MB\"\n"
      "weight_grad_comm = \"allreduce\"\nweight_grad_size = \"2MB\"\n";
  const Scenario built = Load(job);
  const Scenario counted = LoadScenarioText(job, "test.toml", std::vector<Override>{},
                                            LoadOptions{.build_collectives_and_jobs = false});
  ASSERT_TRUE(built.jobs_built());
  ASSERT_EQ(built.job_flow_counts.size(), 1u);
  EXPECT_EQ(built.job_flow_counts[0], built.flows.size());
  EXPECT_GT(built.flows.size(), 0u);
  EXPECT_FALSE(counted.jobs_built());
  EXPECT_EQ(counted.job_flow_counts, built.job_flow_counts);
  EXPECT_TRUE(counted.flows.empty());
  EXPECT_TRUE(counted.flow_after.tasks.empty());

  // h0-h1 and h2-h3 are islands: a TP group of 2 on each is fine, a DP group across is not.
  const std::string islands = std::string(kCustomHead) +
                              "links = [[\"h0\", \"s0\"], [\"h1\", \"s0\"], [\"h2\", \"s1\"], "
                              "[\"h3\", \"s1\"]]\n[[job]]\ntp = 2\n[[job.layer]]\n"
                              "forward_comm = \"allreduce\"\nforward_size = \"1MB\"\n";
  for (const bool build : {true, false}) {
    EXPECT_NO_THROW(LoadScenarioText(islands, "test.toml", std::vector<Override>{},
                                     LoadOptions{.build_collectives_and_jobs = build}));
    const std::string message = testing::InputErrorOf([&] {
      LoadScenarioText(islands + "weight_grad_comm = \"allreduce\"\nweight_grad_size = \"1MB\"\n",
                       "test.toml", std::vector<Override>{},
                       LoadOptions{.build_collectives_and_jobs = build});
    });
    EXPECT_NE(message.find("test.toml:6: job[0].ranks: "), std::string::npos) << message;
    EXPECT_NE(message.find("has no path to host"), std::string::npos) << message;
  }
}

TEST(ScenarioLoader, CcAlgorithmAndProfile) {
  ExpectError(std::string("[cc]\nalgorithm = \"swift\"\n") + kOneFlow,
              {"test.toml:2:", "cc.algorithm", "\"dcqcn\"", "\"timely\"", "\"swift\""});
  ExpectError(std::string("[cc]\nprofile = \"ns3\"\n") + kOneFlow,
              {"test.toml:2:", "cc.profile", "\"mlx5\""});
  // Each algorithm has its own profiles; without one, its first.
  ExpectError(std::string("[cc]\nalgorithm = \"hpcc\"\nprofile = \"mlx5\"\n") + kOneFlow,
              {"test.toml:3:", "cc.profile", "one of \"hpcc\"", "\"mlx5\""});
  EXPECT_EQ(Load(std::string("[cc]\nalgorithm = \"dctcp\"\n") + kOneFlow).cc.profile, "hpcc");
  EXPECT_EQ(Load(std::string("[cc]\nalgorithm = \"dcqcn\"\n") + kOneFlow).cc.profile, "paper");
  ExpectError(std::string("[cc]\nalgorithm = 1\n") + kOneFlow, {"test.toml:2:", "cc.algorithm"});
  const Scenario s = Load(std::string("[cc]\nalgorithm = \"none\"\nprofile = \"hpcc\"\n"
                                      "anything = \"goes\"\nlist = [1, 2.5, \"x\"]\n") +
                          kOneFlow);
  EXPECT_EQ(s.cc.algorithm, "none");
  EXPECT_EQ(s.cc.profile, "hpcc");
  EXPECT_EQ(s.cc.params.at("anything").value, "goes");
  EXPECT_EQ(s.cc.params.at("anything").line, 4);
  EXPECT_EQ(s.cc.params.at("list").value, "[1, 2.5, \"x\"]");
}

TEST(ScenarioLoader, OutputTimeseries) {
  const Scenario s = Load(std::string("[output]\ntimeseries = [\"queue\", \"pfc\"]\n") + kOneFlow);
  EXPECT_FALSE(s.output.ts_rate);
  EXPECT_TRUE(s.output.ts_queue);
  EXPECT_TRUE(s.output.ts_pfc);
  EXPECT_FALSE(s.output.ts_throughput);
  ExpectError(std::string("[output]\ntimeseries = [\"queue\", \"latency\"]\n") + kOneFlow,
              {"test.toml:2:", "output.timeseries[1]", "\"latency\""});
}

TEST(ScenarioLoader, NameMustBeUsableAsAFolder) {
  ExpectError(std::string("name = \"a/b\"\n") + kOneFlow, {"test.toml:1:", "name"});
  ExpectError(std::string("name = \"\"\n") + kOneFlow, {"test.toml:1:", "name"});
  ExpectError(std::string("name = \"..\"\n") + kOneFlow, {"test.toml:1:", "name"});
  EXPECT_EQ(Load(std::string("name = \"incast 8:1\"\n") + kOneFlow).name, "incast 8:1");
}

TEST(ScenarioLoader, WorkloadErrors) {
  ExpectError("[workload]\nsize = \"1MB\"\n", {"test.toml:1:", "workload.type", "required"});
  ExpectError("[workload]\ntype = \"alltoall\"\nsize = \"1MB\"\n",
              {"test.toml:2:", "workload.type", "\"permutation\""});
  ExpectError("[workload]\ntype = \"incast\"\n", {"test.toml:1:", "workload.size", "required"});
  ExpectError("[workload]\ntype = \"incast\"\nsize = \"0B\"\n", {"test.toml:3:", "workload.size"});
  ExpectError("[workload]\ntype = \"incast\"\nsize = \"1MB\"\nreceiver = 9\n",
              {"test.toml:4:", "workload.receiver", "0..8"});
  ExpectError("[workload]\ntype = \"incast\"\nsize = \"1MB\"\nsenders = 9\n",
              {"test.toml:4:", "workload.senders", "1..8"});
  ExpectError("[workload]\ntype = \"incast\"\nsize = \"1MB\"\nsenders = 0\n",
              {"test.toml:4:", "workload.senders"});
  ExpectError("[workload]\ntype = \"incast\"\nsize = \"1MB\"\nsenders = [1, 0]\n",
              {"test.toml:4:", "workload.senders[1]", "receiver"});
  ExpectError("[workload]\ntype = \"incast\"\nsize = \"1MB\"\nsenders = [1, 2, 1]\n",
              {"test.toml:4:", "workload.senders[2]", "twice"});
  ExpectError("[workload]\ntype = \"incast\"\nsize = \"1MB\"\nsenders = [1, 9]\n",
              {"test.toml:4:", "workload.senders[1]"});
  ExpectError("[workload]\ntype = \"incast\"\nsize = \"1MB\"\nsenders = []\n",
              {"test.toml:4:", "workload.senders"});
  ExpectError("[workload]\ntype = \"incast\"\nsize = \"1MB\"\nsenders = \"all\"\n",
              {"test.toml:4:", "workload.senders"});
  ExpectError("[workload]\ntype = \"permutation\"\nsize = \"1MB\"\nreceiver = 0\n",
              {"test.toml:4:", "workload.receiver", "incast"});
  ExpectError("[workload]\ntype = \"incast\"\nsize = \"1MB\"\npriority = 0\n",
              {"test.toml:4:", "workload.priority"});
}

TEST(ScenarioLoader, OverridesApplyBeforeValidation) {
  const Scenario s =
      Load(kOneFlow, {"cc.rai=10Mbps", "switch.ecn.pmax=0.05", "topology.hosts=17",
                      "switch.pfc.threshold=24.47KB", "seed=7", "name=swept", "flow.0.size=2MB",
                      "switch.pfc.enabled=false", " host.mtu = 4000 "});
  EXPECT_EQ(s.cc.params.at("rai").value, "10Mbps");
  EXPECT_EQ(s.cc.params.at("rai").line, 0);  // from --set, not from the file
  EXPECT_DOUBLE_EQ(s.sw.ecn.pmax, 0.05);
  EXPECT_EQ(s.topology.hosts, 17);
  EXPECT_EQ(s.topology.links.size(), 17u);
  EXPECT_FALSE(s.sw.pfc.dynamic_threshold);
  EXPECT_EQ(s.sw.pfc.static_threshold, 24470);
  EXPECT_EQ(s.seed, 7u);
  EXPECT_EQ(s.name, "swept");
  EXPECT_EQ(s.flows[0].size, 2000000);
  EXPECT_FALSE(s.sw.pfc.enabled);
  EXPECT_EQ(s.host.mtu, 4000);
  // The last override of a key wins; a quoted TOML string works too.
  EXPECT_EQ(Load(kOneFlow, {"name=a", "name=\"b\""}).name, "b");
  // Overrides can replace whole values of any type, e.g. a table or an array.
  const Scenario t = Load(kOneFlow, {"output.timeseries=[\"rate\"]",
                                     "workload={type=\"incast\", senders=2, size=\"5KB\"}"});
  EXPECT_TRUE(t.output.ts_rate);
  ASSERT_EQ(t.flows.size(), 3u);
  EXPECT_EQ(t.explicit_flows, 1);
  EXPECT_EQ(t.flows[2].src, 2);
}

TEST(ScenarioLoader, OverrideErrorsNameTheOverride) {
  ExpectError(kOneFlow, {"--set foo.bar=1", "unknown key foo.bar"}, {"foo.bar=1"});
  ExpectError(kOneFlow, {"--set topology.hots=3", "unknown key topology.hots", "hosts"},
              {"topology.hots=3"});
  ExpectError(kOneFlow, {"--set switch.pfc.alpha.x=1", "unknown key"}, {"switch.pfc.alpha.x=1"});
  ExpectError(kOneFlow, {"--set cc.rai.x=1", "unknown key"}, {"cc.rai.x=1"});
  ExpectError(kOneFlow, {"--set cc.rai", "KEY=VALUE"}, {"cc.rai"});
  ExpectError(kOneFlow, {"--set =3", "KEY=VALUE"}, {"=3"});
  ExpectError(kOneFlow, {"--set cc..rai=1"}, {"cc..rai=1"});
  ExpectError(kOneFlow, {"--set topology hosts=1"}, {"topology hosts=1"});
  ExpectError(kOneFlow, {"--set flow.3.size=1MB", "no flow[3]"}, {"flow.3.size=1MB"});
  ExpectError(kOneFlow, {"--set flow.size=1MB", "flow.N.KEY"}, {"flow.size=1MB"});
  ExpectError(kOneFlow, {"--set flow.0.prio=1", "unknown key flow.0.prio"}, {"flow.0.prio=1"});
  // A valid key with a bad value: the override is the location, and the key is named.
  ExpectError(kOneFlow, {"--set topology.hosts=nine", "topology.hosts", "\"nine\""},
              {"topology.hosts=nine"});
  ExpectError(kOneFlow, {"--set switch.ecn.kmin=5 kilobytes", "switch.ecn.kmin"},
              {"switch.ecn.kmin=5 kilobytes"});
  ExpectError(kOneFlow, {"--set flow.0.size=0B", "flow[0].size"}, {"flow.0.size=0B"});
  ExpectError(std::string("topology = 1\n") + kOneFlow, {"--set topology.hosts=3", "not a table"},
              {"topology.hosts=3"});
  ExpectError(kOneFlow, {"--set topology={hosts=\"x\"}", "topology.hosts"},
              {"topology={hosts=\"x\"}"});
}

TEST(ScenarioLoader, OverridesCreateMissingTables) {
  const Scenario s = Load(kOneFlow, {"cc.rai=10Mbps", "switch.pfc.alpha=0.5"});
  EXPECT_EQ(s.cc.params.size(), 1u);
  EXPECT_DOUBLE_EQ(s.sw.pfc.alpha, 0.5);
  const Scenario w = Load("name = \"x\"\n", {"workload.type=permutation", "workload.size=1MB"});
  EXPECT_EQ(w.flows.size(), 9u);
}

#ifdef DCQCN_SOURCE_DIR
TEST(ScenarioLoader, ExamplesLoad) {
  for (const char* name : {"incast_8to1", "dumbbell", "custom_two_tier", "poisson_websearch"}) {
    const std::string path = std::string(DCQCN_SOURCE_DIR) + "/examples/" + name + ".toml";
    Scenario s;
    ASSERT_NO_THROW(s = LoadScenarioFile(path)) << path;
    EXPECT_FALSE(s.flows.empty()) << path;
  }
  EXPECT_EQ(
      LoadScenarioFile(std::string(DCQCN_SOURCE_DIR) + "/examples/incast_8to1.toml").flows.size(),
      8u);
}
#endif

TEST(ScenarioLoader, FlowTags) {
  const Scenario s =
      Load(std::string("[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\ntag = \"victim\"\n"
                       "[[flow]]\nsrc = 2\ndst = 0\nsize = \"1MB\"\n"));
  EXPECT_EQ(s.tag(s.flows[0]), "victim");
  EXPECT_EQ(s.tag(s.flows[1]), "");
  ExpectError("[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\ntag = \"a.b\"\n",
              {"test.toml:5:", "flow[0].tag", "letters, digits"});
  ExpectError("[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\ntag = \"\"\n",
              {"test.toml:5:", "flow[0].tag"});
  ExpectError("[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\ntag = 3\n", {"flow[0].tag"});
}

TEST(ScenarioLoader, GeneratedFlowsAreTaggedByTheirWorkload) {
  const Scenario incast =
      Load("[workload]\ntype = \"incast\"\nsenders = 2\nreceiver = 0\nsize = \"1MB\"\n");
  for (const FlowSpec& f : incast.flows) EXPECT_EQ(incast.tag(f), "incast");
  const Scenario named =
      Load("[workload]\ntype = \"permutation\"\nsize = \"1MB\"\ntag = \"shuffle\"\n");
  for (const FlowSpec& f : named.flows) EXPECT_EQ(named.tag(f), "shuffle");
  const Scenario perm = Load("[workload]\ntype = \"permutation\"\nsize = \"1MB\"\n");
  for (const FlowSpec& f : perm.flows) EXPECT_EQ(perm.tag(f), "permutation");
  const Scenario poisson = Load(
      "[topology]\nhosts = 8\n[workload]\ntype = \"poisson\"\ncdf = \"websearch\"\nload = 0.3\n"
      "window = \"1ms\"\n[workload.incast]\nfanin = 3\nsize = \"10KB\"\nrate = 5000\n");
  int background = 0, incasts = 0;
  for (const FlowSpec& f : poisson.flows) {
    background += poisson.tag(f) == "background";
    incasts += poisson.tag(f) == "incast";
  }
  EXPECT_GT(background, 0);
  EXPECT_GT(incasts, 0);
  EXPECT_EQ(background + incasts, static_cast<int>(poisson.flows.size()));
}

TEST(ScenarioLoader, ConvergenceKeys) {
  const Scenario s = Load(std::string("[output]\nconvergence_window = \"2ms\"\n"
                                      "convergence_tolerance = 0.1\n") +
                          kOneFlow);
  EXPECT_EQ(s.output.convergence_window, 2 * kMillisecond);
  EXPECT_EQ(s.output.convergence_tolerance, 0.1);
  ExpectError(std::string("[output]\nconvergence_tolerance = 1.5\n") + kOneFlow,
              {"test.toml:2:", "output.convergence_tolerance", "(0, 1)"});
  ExpectError(std::string("[output]\nconvergence_window = \"0ms\"\n") + kOneFlow,
              {"test.toml:2:", "output.convergence_window"});
}

TEST(ScenarioLoader, EcnByPortRate) {
  const Scenario s =
      Load(std::string("[switch.ecn]\nby_rate = [{rate = \"400Gbps\", kmin = \"1600KB\", "
                       "kmax = \"6400KB\", pmax = 0.2}]\n") +
           kOneFlow);
  ASSERT_EQ(s.sw.ecn.by_rate.size(), 1u);
  EXPECT_EQ(s.sw.ecn.ForPortRate(400 * kGbps).kmin, 1600000);
  EXPECT_EQ(s.sw.ecn.ForPortRate(40 * kGbps).kmin, 5000);
  const Scenario again = LoadScenarioText(ResolvedToml(s), "resolved.toml");
  ASSERT_EQ(again.sw.ecn.by_rate.size(), 1u);
  EXPECT_EQ(again.sw.ecn.by_rate[0].kmax, 6400000);
  ExpectError(
      std::string("[switch.ecn]\nby_rate = [{rate = \"400Gbps\", kmin = \"1KB\"}]\n") + kOneFlow,
      {"test.toml:2:", "switch.ecn.by_rate[0].kmax", "required"});
  ExpectError(std::string("[switch.ecn]\nby_rate = [{rate = \"400Gbps\", kmin = \"1KB\", "
                          "kmax = \"2KB\", pmax = 0.1, kmid = 3}]\n") +
                  kOneFlow,
              {"switch.ecn.by_rate[0].kmid", "unknown key"});
  // --set reaches into the list by index (what `dcqcn tune --param` searches), and what the
  // reader then rejects is blamed on the --set.
  const std::string file = std::string(
                               "[switch.ecn]\nby_rate = [{rate = \"400Gbps\", kmin = "
                               "\"1600KB\", kmax = \"6400KB\", pmax = 0.2}]\n") +
                           kOneFlow;
  const Scenario set =
      Load(file, {"switch.ecn.by_rate.0.kmin=800KB", "switch.ecn.by_rate.0.pmax=0.5"});
  EXPECT_EQ(set.sw.ecn.ForPortRate(400 * kGbps).kmin, 800000);
  EXPECT_DOUBLE_EQ(set.sw.ecn.ForPortRate(400 * kGbps).pmax, 0.5);
  EXPECT_EQ(set.sw.ecn.ForPortRate(400 * kGbps).kmax, 6400000);
  ExpectError(file,
              {"--set switch.ecn.by_rate.1.kmin=1KB", "1 tables in switch.ecn.by_rate",
               "no switch.ecn.by_rate[1]"},
              {"switch.ecn.by_rate.1.kmin=1KB"});
  ExpectError(file, {"--set switch.ecn.by_rate.kmin=1KB", "switch.ecn.by_rate.N.KEY"},
              {"switch.ecn.by_rate.kmin=1KB"});
  ExpectError(file,
              {"--set switch.ecn.by_rate.0.kmin=7MB", "switch.ecn.by_rate[0].kmin", "kmin <= kmax"},
              {"switch.ecn.by_rate.0.kmin=7MB"});
  ExpectError(file,
              {"--set switch.ecn.by_rate.0.kmid=1KB", "switch.ecn.by_rate[0].kmid", "unknown key"},
              {"switch.ecn.by_rate.0.kmid=1KB"});
}

TEST(ScenarioLoader, PfcByPortRateHeadroomRuleEcmpHashAndDport) {
  const Scenario s = Load(std::string("[switch]\necmp_hash = \"hpcc\"\n[switch.pfc]\n"
                                      "headroom = \"hpcc\"\n"
                                      "by_rate = [{rate = \"400Gbps\", alpha = 0.5}]\n") +
                          kOneFlow + "dport = 100\n");
  EXPECT_EQ(s.sw.ecmp_hash, SwitchConfig::EcmpHash::kHpcc);
  EXPECT_EQ(s.sw.pfc.headroom_rule, PfcConfig::HeadroomRule::kHpcc);
  EXPECT_DOUBLE_EQ(s.sw.pfc.AlphaForRate(400 * kGbps), 0.5);
  EXPECT_DOUBLE_EQ(s.sw.pfc.AlphaForRate(40 * kGbps), s.sw.pfc.alpha);
  EXPECT_EQ(s.flows[0].dport, 100);
  // resolved.toml keeps all four.
  const Scenario again = LoadScenarioText(ResolvedToml(s), "resolved.toml");
  EXPECT_EQ(again.sw.ecmp_hash, SwitchConfig::EcmpHash::kHpcc);
  EXPECT_EQ(again.sw.pfc.headroom_rule, PfcConfig::HeadroomRule::kHpcc);
  ASSERT_EQ(again.sw.pfc.by_rate.size(), 1u);
  EXPECT_DOUBLE_EQ(again.sw.pfc.by_rate[0].alpha, 0.5);
  EXPECT_EQ(again.flows[0].dport, 100);
  ExpectError(std::string("[switch]\necmp_hash = \"random\"\n") + kOneFlow,
              {"test.toml:2:", "switch.ecmp_hash", "hpcc"});
  ExpectError(std::string("[switch.pfc]\nby_rate = [{rate = \"400Gbps\", alpha = 0}]\n") + kOneFlow,
              {"switch.pfc.by_rate[0].alpha", "> 0"});
  ExpectError(std::string("[switch.pfc]\nby_rate = [{rate = \"400Gbps\"}]\n") + kOneFlow,
              {"switch.pfc.by_rate[0].alpha", "required"});
  ExpectError(std::string("[switch.pfc]\nheadroom = \"hpc\"\n") + kOneFlow,
              {"switch.pfc.headroom", "\"auto\", \"hpcc\""});
}

}  // namespace
}  // namespace dcqcn
