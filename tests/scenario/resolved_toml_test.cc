// Tests that resolved.toml is complete: loading ResolvedToml(s) gives back s, for defaults,
// every topology type, generated flows and [cc] parameters of every TOML type.
#include "scenario/resolved_toml.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cc/dcqcn/dcqcn_params.h"
#include "cc/registry.h"
#include "core/error.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

// Equal in everything a run depends on. `source` names the file, and resolved.toml lists the
// generated flows explicitly, so the workload and explicit_flows legitimately differ.
void ExpectSameRun(const Scenario& a, const Scenario& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.duration, b.duration);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.topology.type, b.topology.type);
  EXPECT_EQ(a.topology.hosts, b.topology.hosts);
  EXPECT_EQ(a.topology.switches, b.topology.switches);
  EXPECT_EQ(a.topology.link_rate, b.topology.link_rate);
  EXPECT_EQ(a.topology.link_delay, b.topology.link_delay);
  EXPECT_EQ(a.topology.bottleneck_rate, b.topology.bottleneck_rate);
  ASSERT_EQ(a.topology.links.size(), b.topology.links.size());
  for (size_t i = 0; i < a.topology.links.size(); ++i) {
    EXPECT_EQ(a.topology.links[i].a, b.topology.links[i].a) << "link " << i;
    EXPECT_EQ(a.topology.links[i].b, b.topology.links[i].b) << "link " << i;
    EXPECT_EQ(a.topology.links[i].rate, b.topology.links[i].rate) << "link " << i;
    EXPECT_EQ(a.topology.links[i].delay, b.topology.links[i].delay) << "link " << i;
  }
  EXPECT_EQ(a.sw.buffer, b.sw.buffer);
  EXPECT_EQ(a.sw.pfc.enabled, b.sw.pfc.enabled);
  EXPECT_EQ(a.sw.pfc.dynamic_threshold, b.sw.pfc.dynamic_threshold);
  EXPECT_EQ(a.sw.pfc.alpha, b.sw.pfc.alpha);  // exact, not approximately
  EXPECT_EQ(a.sw.pfc.static_threshold, b.sw.pfc.static_threshold);
  EXPECT_EQ(a.sw.pfc.headroom_rule, b.sw.pfc.headroom_rule);
  EXPECT_EQ(a.sw.pfc.by_rate.size(), b.sw.pfc.by_rate.size());
  EXPECT_EQ(a.sw.ecmp_hash, b.sw.ecmp_hash);
  EXPECT_EQ(a.sw.pfc.headroom, b.sw.pfc.headroom);
  EXPECT_EQ(a.sw.pfc.reserve, b.sw.pfc.reserve);
  EXPECT_EQ(a.sw.pfc.xon_offset, b.sw.pfc.xon_offset);
  EXPECT_EQ(a.sw.pfc.pause_quanta, b.sw.pfc.pause_quanta);
  EXPECT_EQ(a.sw.pfc.pause_until_resume, b.sw.pfc.pause_until_resume);
  EXPECT_EQ(a.sw.ecn.enabled, b.sw.ecn.enabled);
  EXPECT_EQ(a.sw.ecn.kmin, b.sw.ecn.kmin);
  EXPECT_EQ(a.sw.ecn.kmax, b.sw.ecn.kmax);
  EXPECT_EQ(a.sw.ecn.pmax, b.sw.ecn.pmax);
  EXPECT_EQ(a.host.mtu, b.host.mtu);
  EXPECT_EQ(a.host.ack_interval, b.host.ack_interval);
  EXPECT_EQ(a.host.rto, b.host.rto);
  EXPECT_EQ(a.cc.algorithm, b.cc.algorithm);
  EXPECT_EQ(a.cc.profile, b.cc.profile);
  EXPECT_EQ(a.host.pause_acks, b.host.pause_acks);
  EXPECT_EQ(a.host.window, b.host.window);
  EXPECT_EQ(a.host.window_scales_with_rate, b.host.window_scales_with_rate);
  EXPECT_EQ(a.host.base_rtt, b.host.base_rtt);
  EXPECT_EQ(a.wire.ack_headers, b.wire.ack_headers);
  const CcAlgorithm* algorithm = FindCcAlgorithm(a.cc.algorithm);
  if (algorithm != nullptr && !algorithm->profiles.empty()) {
    // resolved.toml writes every parameter; what matters is that they resolve the same.
    EXPECT_EQ(algorithm->resolve(a.cc, a.source)->ParamsText(),
              algorithm->resolve(b.cc, b.source)->ParamsText());
  } else {
    ASSERT_EQ(a.cc.params.size(), b.cc.params.size());
    for (const auto& [key, param] : a.cc.params) {
      ASSERT_TRUE(b.cc.params.count(key)) << key;
      EXPECT_EQ(param.value, b.cc.params.at(key).value) << key;
    }
  }
  EXPECT_EQ(a.output.ts_rate, b.output.ts_rate);
  EXPECT_EQ(a.output.ts_queue, b.output.ts_queue);
  EXPECT_EQ(a.output.ts_pfc, b.output.ts_pfc);
  EXPECT_EQ(a.output.ts_throughput, b.output.ts_throughput);
  EXPECT_EQ(a.output.interval, b.output.interval);
  ASSERT_EQ(a.flows.size(), b.flows.size());
  for (size_t i = 0; i < a.flows.size(); ++i) {
    EXPECT_EQ(a.flows[i].src, b.flows[i].src) << "flow " << i;
    EXPECT_EQ(a.flows[i].dst, b.flows[i].dst) << "flow " << i;
    EXPECT_EQ(a.flows[i].size, b.flows[i].size) << "flow " << i;
    EXPECT_EQ(a.flows[i].start, b.flows[i].start) << "flow " << i;
    EXPECT_EQ(a.flows[i].priority, b.flows[i].priority) << "flow " << i;
  }
  // Ids (a flow without one may gain one if another waits for it) and dependencies.
  for (size_t i = 0; i < a.flow_ids.size(); ++i) {
    if (!a.flow_ids[i].empty()) {
      EXPECT_EQ(a.flow_ids[i], b.flow_ids.at(i)) << "flow " << i;
    }
  }
  for (uint32_t i = 0; i < a.flows.size(); ++i) {
    const auto pa = a.flow_after.of(i);
    const auto pb = b.flow_after.of(i);
    EXPECT_EQ(std::vector<uint32_t>(pa.begin(), pa.end()),
              std::vector<uint32_t>(pb.begin(), pb.end()))
        << "flow " << i;
  }
  for (uint32_t i = 0; i < a.flows.size(); ++i) {
    EXPECT_EQ(a.flow_after.delay(i), b.flow_after.delay(i)) << "flow " << i;
  }
}

// The text without its comment lines (the flow-count comment says which flows were generated,
// which legitimately changes after a round trip).
std::string WithoutComments(const std::string& text) {
  std::string out;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    if (text[begin] != '#') out += text.substr(begin, end - begin + 1);
    begin = end + 1;
  }
  return out;
}

// Loads text, resolves it, loads the resolution, and checks both the scenario and the text
// (resolving twice must give the same file).
void ExpectRoundTrip(const std::string& text, const std::vector<std::string>& overrides = {}) {
  const Scenario s = LoadScenarioText(text, "orig.toml", overrides);
  const std::string resolved = ResolvedToml(s);
  SCOPED_TRACE(resolved);
  Scenario back;
  ASSERT_NO_THROW(back = LoadScenarioText(resolved, "resolved.toml"));
  ExpectSameRun(s, back);
  EXPECT_EQ(back.explicit_flows, static_cast<int>(back.flows.size()));
  EXPECT_TRUE(back.workload.type.empty());
  EXPECT_EQ(WithoutComments(ResolvedToml(back)), WithoutComments(resolved));
}

TEST(ResolvedToml, DefaultScenarioRoundTrips) {
  const Scenario s = DefaultScenario();
  const std::string resolved = ResolvedToml(s);
  ExpectSameRun(s, LoadScenarioText(resolved, "resolved.toml"));
  EXPECT_EQ(resolved.find("[workload]"), std::string::npos);
  size_t flows = 0;
  for (size_t at = 0; (at = resolved.find("\n[[flow]]\n", at)) != std::string::npos; ++at) ++flows;
  EXPECT_EQ(flows, 8u);
}

TEST(ResolvedToml, EveryDefaultIsWritten) {
  const std::string resolved =
      ResolvedToml(LoadScenarioText("[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\n", "x.toml"));
  for (const char* key : {"name = \"x\"",
                          "duration = \"10ms\"",
                          "seed = 1",
                          "type = \"star\"",
                          "hosts = 9",
                          "link_rate = \"40Gbps\"",
                          "link_delay = \"1us\"",
                          "buffer = \"12MB\"",
                          "[switch.pfc]",
                          "threshold = \"dynamic\"",
                          "alpha = 0.125",
                          "headroom = \"auto\"",
                          "reserve = ",
                          "xon_offset = ",
                          "pause_quanta = 65535",
                          "pause_until_resume = false",
                          "[switch.ecn]",
                          "kmin = \"5KB\"",
                          "kmax = \"200KB\"",
                          "pmax = 0.01",
                          "mtu = 1000",
                          "ack_interval = 1",
                          "rto = ",
                          "algorithm = ",
                          "profile = \"paper\"",
                          "timeseries = []",
                          "interval = \"10us\"",
                          "start = \"0ps\"",
                          "priority = 3"}) {
    EXPECT_NE(resolved.find(key), std::string::npos) << key << " missing from:\n" << resolved;
  }
}

TEST(ResolvedToml, EverythingNonDefaultRoundTrips) {
  ExpectRoundTrip(R"(
name = "every-knob"
duration = "2.5ms"
seed = 123456789
[topology]
type = "star"
hosts = 5
link_rate = "25Gbps"
link_delay = "1.5us"
[switch]
buffer = "9MiB"
[switch.pfc]
enabled = false
threshold = "24.47KB"
alpha = 0.30000000000000004
headroom = "1023B"
reserve = "0B"
xon_offset = "3KB"
pause_quanta = 7
pause_until_resume = true
[switch.ecn]
enabled = false
kmin = "1B"
kmax = "1B"
pmax = 0.1
[host]
mtu = 64
ack_interval = 16
rto = "4.096us"
pause_acks = true
window = true
window_scales_with_rate = true
base_rtt = "pair"
[cc]
algorithm = "none"
profile = "hpcc"
rai = "10Mbps"
g = 0.00390625
big = 1e300
clamp_target_rate = false
byte_counter = 10000000
list = [1, "two", 3.5]
table = { a = 1, "b c" = "d" }
quoted = 'say "hi"'
number_in_a_string = "5"
bool_in_a_string = "true"
array_in_a_string = "[1, 2]"
"odd key" = 1
[output]
timeseries = ["throughput", "rate"]
interval = "333ns"
[[flow]]
src = 4
dst = 2
size = "1.5MB"
start = "123ps"
priority = 7
)");
}

TEST(ResolvedToml, TopologiesAndWorkloadsRoundTrip) {
  ExpectRoundTrip(
      "[topology]\ntype = \"dumbbell\"\nhosts = 7\nbottleneck_rate = \"10Gbps\"\n"
      "[workload]\ntype = \"permutation\"\nsize = \"100KB\"\nstart = \"1us\"\n");
  ExpectRoundTrip(
      "[topology]\ntype = \"dumbbell\"\nhosts = 4\n"
      "[workload]\ntype = \"incast\"\nsenders = [3, 1]\nreceiver = 2\nsize = \"1MB\"\n");
  ExpectRoundTrip(
      "[topology]\ntype = \"custom\"\nhosts = 3\nswitches = 3\nlink_rate = \"100Gbps\"\n"
      "links = [[\"h0\", \"s0\"], [\"s0\", \"s1\", \"400Gbps\", \"0.5us\"], [\"s1\", \"s2\"], "
      "[\"s2\", \"h1\", \"10Gbps\"], [\"h2\", \"s1\"], [\"s0\", \"s2\", \"1Tbps\", \"10ns\"]]\n"
      "[[flow]]\nsrc = 0\ndst = 1\nsize = \"1GB\"\n"
      "[workload]\ntype = \"incast\"\nsenders = 2\nreceiver = 1\nsize = \"1KiB\"\n");
  // Overrides end up in the resolved file like any other value.
  ExpectRoundTrip("[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\n",
                  {"cc.rai=10Mbps", "switch.ecn.pmax=0.05", "topology.hosts=17"});
}

TEST(ResolvedToml, FlowDependenciesRoundTrip) {
  // Ids, `after` naming later and earlier flows, delays, `start` with `after`, a generated
  // workload after them, and overrides.
  const std::string text = R"(
[topology]
type = "star"
hosts = 5
[[flow]]
id = "a"
src = 0
dst = 1
size = "1MB"
after = ["c"]
after_delay = "1500ns"
[[flow]]
id = "b:1.x-y_z"
src = 1
dst = 2
size = "2MB"
[[flow]]
id = "c"
src = 0
dst = 2
size = "3MB"
start = "4us"
[[flow]]
src = 2
dst = 3
size = "4MB"
after = ["b:1.x-y_z", "c"]
[workload]
type = "incast"
senders = 2
receiver = 4
size = "10KB"
)";
  ExpectRoundTrip(text);
  ExpectRoundTrip(text, {"flow.1.after=[\"a\"]", "flow.3.after_delay=7ps"});
  const std::string resolved = ResolvedToml(LoadScenarioText(text, "orig.toml"));
  EXPECT_NE(resolved.find("after = [\"b:1.x-y_z\", \"c\"]\n"), std::string::npos);
  EXPECT_NE(resolved.find("after_delay = \"1.5us\"\n"), std::string::npos);
}

TEST(ResolvedToml, PrerequisitesWithoutIdsAreNamed) {
  // A waiting flow's prerequisite that has no id (as generated flows may) gets "flowN", made
  // unique against the ids in use.
  Scenario s = LoadScenarioText(R"(
[topology]
type = "star"
hosts = 3
[[flow]]
src = 0
dst = 1
size = "1MB"
[[flow]]
id = "flow0"
src = 1
dst = 2
size = "1MB"
)",
                                "orig.toml");
  s.flow_after = FlowAfter();
  s.flow_after.Add({}, 0);
  const uint32_t zero = 0;
  s.flow_after.Add({&zero, 1}, 0);
  const std::string resolved = ResolvedToml(s);
  EXPECT_NE(resolved.find("id = \"flow0_\"\nsrc = 0"), std::string::npos) << resolved;
  EXPECT_NE(resolved.find("after = [\"flow0_\"]"), std::string::npos) << resolved;
  const Scenario back = LoadScenarioText(resolved, "resolved.toml");
  EXPECT_EQ(back.flow_after.prerequisites, s.flow_after.prerequisites);
  EXPECT_EQ(ResolvedToml(back), resolved);
}

TEST(ResolvedToml, DcqcnParametersAreAllWrittenAndRoundTrip) {
  const std::string text =
      "[cc]\nalgorithm = \"dcqcn\"\nprofile = \"hpcc\"\nrai = \"10Mbps\"\ng = 0.00390625\n"
      "clamp_target_rate = true\nbyte_counter = \"10MB\"\n"
      "[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\n";
  ExpectRoundTrip(text, {"cc.timer=55us"});
  const std::string resolved = ResolvedToml(LoadScenarioText(text, "x.toml"));
  for (const CcParamDoc& doc : FindCcAlgorithm("dcqcn")->docs) {
    EXPECT_NE(resolved.find("\n" + std::string(doc.name) + " = "), std::string::npos) << doc.name;
  }
  EXPECT_NE(resolved.find("rai = \"10Mbps\""), std::string::npos);
  EXPECT_NE(resolved.find("mode = \"sampled\""), std::string::npos);
}

TEST(ResolvedToml, EveryAlgorithmsParametersAreWrittenAndRoundTrip) {
  for (const CcAlgorithm& algorithm : CcAlgorithms()) {
    const std::string text = fmt::format(
        "[cc]\nalgorithm = \"{}\"\n[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\n", algorithm.name);
    ExpectRoundTrip(text, {});
    const Scenario s = LoadScenarioText(text, "x.toml");
    // Without a profile, the algorithm's first one.
    if (!algorithm.profiles.empty()) {
      EXPECT_EQ(s.cc.profile, algorithm.profiles[0].name);
    }
    const std::string resolved = ResolvedToml(s);
    for (const CcParamDoc& doc : algorithm.docs) {
      EXPECT_NE(resolved.find("\n" + std::string(doc.name) + " = "), std::string::npos)
          << algorithm.name << " " << doc.name;
    }
  }
  // An override is kept, and a parameter of another algorithm is an error naming the line.
  ExpectRoundTrip(
      "[cc]\nalgorithm = \"hpcc\"\nmi_thresh = 5\n[[flow]]\nsrc = 1\ndst = 0\n"
      "size = \"1MB\"\n",
      {"cc.target_util=0.9"});
  try {
    ResolvedToml(
        LoadScenarioText("[cc]\nalgorithm = \"dctcp\"\nrai = \"5Mbps\"\n[[flow]]\nsrc = 1\ndst = "
                         "0\nsize = \"1KB\"\n",
                         "x.toml"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), testing::HasSubstr("x.toml:3: cc.rai: unknown DCTCP parameter"));
  }
  EXPECT_THROW(LoadScenarioText("[cc]\nalgorithm = \"timely\"\nprofile = \"paper\"\n", "x.toml"),
               InputError);
}

TEST(ResolvedToml, CcParamsKeepTheirText) {
  const Scenario s = LoadScenarioText(
      "[cc]\nalgorithm = \"none\"\nrai = \"10Mbps\"\nf = 5.0\nquoted = 'a\"b'\nfive = \"5\"\n"
      "[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\n",
      "x.toml");
  EXPECT_EQ(s.cc.params.at("f").value, "5.0");
  EXPECT_EQ(s.cc.params.at("quoted").value, "a\"b");
  const Scenario back = LoadScenarioText(ResolvedToml(s), "r.toml");
  for (const char* key : {"rai", "f", "quoted", "five"}) {
    EXPECT_EQ(back.cc.params.at(key).value, s.cc.params.at(key).value) << key;
  }
  EXPECT_EQ(CcParamToToml("10Mbps"), "\"10Mbps\"");
  EXPECT_EQ(CcParamToToml("0.5"), "0.5");
  EXPECT_EQ(CcParamToToml("true"), "true");
  EXPECT_EQ(CcParamToToml("a\"b"), "\"a\\\"b\"");
}

TEST(ResolvedToml, QuoteAndFloatHelpers) {
  EXPECT_EQ(TomlQuote("plain"), "\"plain\"");
  EXPECT_EQ(TomlQuote("a\"b\\c\nd\te"), "\"a\\\"b\\\\c\\nd\\te\"");
  EXPECT_EQ(TomlQuote(std::string("\x01", 1)), "\"\\u0001\"");
  EXPECT_EQ(TomlFloat(0.125), "0.125");
  EXPECT_EQ(TomlFloat(1.0), "1.0");
  EXPECT_EQ(TomlFloat(-2.0), "-2.0");
  EXPECT_EQ(TomlFloat(INFINITY), "inf");
  EXPECT_EQ(TomlFloat(-INFINITY), "-inf");
  EXPECT_EQ(TomlFloat(NAN), "nan");
  for (double v : {0.1, 0.01, 1.0 / 3, 1e-300, 1e300, 0.30000000000000004, 123456789.125}) {
    const Scenario s =
        LoadScenarioText("[switch.ecn]\npmax = 1\n[switch.pfc]\nalpha = " + TomlFloat(v) +
                             "\n[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\n",
                         "x.toml");
    EXPECT_EQ(s.sw.pfc.alpha, v);
  }
}

}  // namespace
}  // namespace dcqcn
