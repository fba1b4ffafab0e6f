// Tests of the poisson workload: the offered load it achieves, reproducibility for a seed,
// uniform destinations, incast events, and its [workload] keys in the scenario format.
#include "workload/poisson.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"
#include "workload/cdf.h"
#include "workload/generators.h"

namespace dcqcn {
namespace {

Scenario PoissonScenario(int hosts, double load, Time window, const std::string& cdf) {
  Scenario s = testing::StarScenario(hosts, 100 * kGbps);
  s.workload.type = "poisson";
  s.workload.cdf = cdf;
  s.workload.load = load;
  s.workload.window = window;
  return s;
}

std::vector<FlowSpec> Generate(const Scenario& s) {
  std::vector<FlowSpec> flows;
  FlowTags tags;
  GenerateWorkload(s, flows, tags);
  return flows;
}

TEST(Poisson, AchievesTheTargetLoad) {
  // Offered bytes over a long window against load * rate * window / 8, per distribution. A
  // heavy-tailed CDF needs many flows for a few-percent match: ~40k flows here.
  for (const auto& [cdf, window] :
       {std::pair{"hadoop", 20 * kMillisecond}, std::pair{"websearch", 1000 * kMillisecond}}) {
    const Scenario s = PoissonScenario(32, 0.3, window, cdf);
    const std::vector<FlowSpec> flows = Generate(s);
    double bytes = 0;
    for (const FlowSpec& f : flows) bytes += static_cast<double>(f.size);
    const double target = 0.3 * 100e9 * (static_cast<double>(window) / kSecond) / 8 * 32;
    EXPECT_NEAR(bytes / target, 1.0, 0.03) << cdf << ": " << flows.size() << " flows";
    // The number of flows follows the arrival rate load * rate / (8 * mean size).
    const double per_host =
        PoissonArrivalsPerSecond(0.3, 100 * kGbps, LoadFlowSizeCdf(cdf).Mean()) *
        static_cast<double>(window) / kSecond;
    EXPECT_NEAR(static_cast<double>(flows.size()) / (per_host * 32), 1.0, 0.03) << cdf;
  }
}

TEST(Poisson, StaysInTheWindowAndNeverSendsToItself) {
  // ~8300 flows: ~150 per (src, dst) pair, so 30% is over 3 standard deviations.
  Scenario s = PoissonScenario(8, 0.5, 20 * kMillisecond, "hadoop");
  s.workload.start = 1 * kMillisecond;
  s.workload.priority = 5;
  const std::vector<FlowSpec> flows = Generate(s);
  ASSERT_GT(flows.size(), 7000u);
  std::map<std::pair<int, int>, int> pairs;
  for (size_t i = 0; i < flows.size(); ++i) {
    const FlowSpec& f = flows[i];
    EXPECT_GE(f.start, 1 * kMillisecond);
    EXPECT_LT(f.start, 21 * kMillisecond);
    EXPECT_NE(f.src, f.dst);
    EXPECT_EQ(f.priority, 5);
    EXPECT_GE(f.size, 1);
    if (i > 0) {
      EXPECT_LE(flows[i - 1].start, f.start) << "sorted by start time";
    }
    ++pairs[{f.src, f.dst}];
  }
  // Destinations are uniform over the other hosts: each of the 56 pairs near 1/56 of the flows.
  EXPECT_EQ(pairs.size(), 56u);
  for (const auto& [pair, n] : pairs) {
    EXPECT_NEAR(n, static_cast<double>(flows.size()) / 56, 0.3 * flows.size() / 56);
  }
}

TEST(Poisson, ReproducibleForASeedAndDifferentAcrossSeeds) {
  Scenario s = PoissonScenario(16, 0.3, 1 * kMillisecond, "websearch");
  s.workload.incast_fanin = 4;
  s.workload.incast_size = 64000;
  s.workload.incast_rate = 20000;
  const std::vector<FlowSpec> a = Generate(s);
  const std::vector<FlowSpec> b = Generate(s);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].src, b[i].src);
    EXPECT_EQ(a[i].dst, b[i].dst);
    EXPECT_EQ(a[i].size, b[i].size);
    EXPECT_EQ(a[i].start, b[i].start);
  }
  s.seed = 2;
  const std::vector<FlowSpec> c = Generate(s);
  bool differs = c.size() != a.size();
  for (size_t i = 0; !differs && i < a.size(); ++i) differs = a[i].start != c[i].start;
  EXPECT_TRUE(differs);
}

TEST(Poisson, IncastEventsPickDistinctSendersAndLeaveTheBackgroundAlone) {
  Scenario s = PoissonScenario(16, 0.2, 2 * kMillisecond, "websearch");
  const std::vector<FlowSpec> background = Generate(s);
  s.workload.incast_fanin = 5;
  s.workload.incast_size = 100000;
  s.workload.incast_rate = 10000;  // ~20 events in 2 ms
  const std::vector<FlowSpec> all = Generate(s);
  std::map<Time, std::vector<FlowSpec>> events;  // incast flows by start time
  std::multiset<std::tuple<int, int, Bytes, Time>> rest;
  for (const FlowSpec& f : background) rest.insert({f.src, f.dst, f.size, f.start});
  for (const FlowSpec& f : all) {
    auto it = rest.find({f.src, f.dst, f.size, f.start});
    if (it != rest.end()) {
      rest.erase(it);  // a background flow, unchanged by adding incast events
    } else {
      events[f.start].push_back(f);
    }
  }
  EXPECT_TRUE(rest.empty());
  ASSERT_GE(events.size(), 8u);
  ASSERT_LE(events.size(), 40u);
  for (const auto& [start, flows] : events) {
    ASSERT_EQ(flows.size(), 5u);
    std::set<int> senders;
    for (const FlowSpec& f : flows) {
      EXPECT_EQ(f.dst, flows[0].dst);
      EXPECT_EQ(f.size, 100000);
      EXPECT_NE(f.src, f.dst);
      senders.insert(f.src);
    }
    EXPECT_EQ(senders.size(), 5u);
  }
}

TEST(Poisson, RejectsParametersThatDoNotFit) {
  Scenario s = PoissonScenario(4, 0.3, kMillisecond, "websearch");
  s.workload.incast_fanin = 4;  // only 3 hosts besides the receiver
  s.workload.incast_size = 1000;
  s.workload.incast_rate = 1000;
  EXPECT_THROW(Generate(s), InputError);
  s = PoissonScenario(4, 0, kMillisecond, "websearch");
  EXPECT_THROW(Generate(s), InputError);
  s = PoissonScenario(4, 0.3, kMillisecond, "/no/such/cdf.txt");
  EXPECT_THROW(Generate(s), InputError);
}

// --- The scenario format ---------------------------------------------------------------------

const char* kPoissonToml = R"(name = "ws"
[topology]
type = "star"
hosts = 16
link_rate = "100Gbps"
[workload]
type = "poisson"
cdf = "websearch"
load = 0.3
window = "1ms"
start = "10us"
priority = 4
[workload.incast]
fanin = 8
size = "64KB"
rate = 5000
)";

std::string ErrorOf(const std::string& text, const std::string& source = "p.toml") {
  try {
    LoadScenarioText(text, source);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PoissonScenario, LoadsEveryKey) {
  const Scenario s = LoadScenarioText(kPoissonToml, "p.toml");
  EXPECT_EQ(s.workload.type, "poisson");
  EXPECT_EQ(s.workload.cdf, "websearch");
  EXPECT_DOUBLE_EQ(s.workload.load, 0.3);
  EXPECT_EQ(s.workload.window, kMillisecond);
  EXPECT_EQ(s.workload.start, 10 * kMicrosecond);
  EXPECT_EQ(s.workload.incast_fanin, 8);
  EXPECT_EQ(s.workload.incast_size, 64000);
  EXPECT_DOUBLE_EQ(s.workload.incast_rate, 5000);
  EXPECT_GT(s.flows.size(), 10u);
  for (const FlowSpec& f : s.flows) EXPECT_EQ(f.priority, 4);
  // Overrides reach the incast table too.
  const Scenario t = LoadScenarioText(kPoissonToml, "p.toml", {"workload.incast.fanin=2"});
  EXPECT_EQ(t.workload.incast_fanin, 2);
}

TEST(PoissonScenario, ErrorsNameKeyAndLine) {
  std::string base = kPoissonToml;
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string t = base;
    t.replace(t.find(from), from.size(), to);
    return t;
  };
  std::string m = ErrorOf(replace("load = 0.3", "load = 1.5"));
  EXPECT_NE(m.find("p.toml:9: workload.load: expected a fraction 0..1"), std::string::npos) << m;
  m = ErrorOf(replace("cdf = \"websearch\"", "cdf = \"nosuch.txt\""));
  EXPECT_NE(m.find("p.toml:8: workload.cdf: nosuch.txt: cannot read"), std::string::npos) << m;
  m = ErrorOf(replace("window = \"1ms\"\n", ""));
  EXPECT_NE(m.find("workload.window: required"), std::string::npos) << m;
  m = ErrorOf(replace("cdf = \"websearch\"\n", ""));
  EXPECT_NE(m.find("workload.cdf: required when load > 0"), std::string::npos) << m;
  m = ErrorOf(replace("fanin = 8", "fanin = 16"));
  EXPECT_NE(m.find("p.toml:14: workload.incast.fanin: expected"), std::string::npos) << m;
  m = ErrorOf(replace("rate = 5000\n", ""));
  EXPECT_NE(m.find("workload.incast.rate: required"), std::string::npos) << m;
  m = ErrorOf(replace("rate = 5000", "rate = \"5000/s\""));
  EXPECT_NE(m.find("workload.incast.rate: expected a number"), std::string::npos) << m;
  m = ErrorOf(replace("rate = 5000", "rate = 5000\nfan_in = 3"));
  EXPECT_NE(m.find("workload.incast.fan_in: unknown key; did you mean fanin?"), std::string::npos)
      << m;
  m = ErrorOf(replace("load = 0.3", "load = 0.3\nsize = \"1MB\""));
  EXPECT_NE(m.find("workload.size: only used when workload.type = \"incast\" or "
                   "\"permutation\""),
            std::string::npos)
      << m;
  m = ErrorOf(replace("type = \"poisson\"", "type = \"permutation\"\nsize = \"1MB\""));
  EXPECT_NE(m.find("workload.cdf: only used when workload.type = \"poisson\""), std::string::npos)
      << m;
}

TEST(PoissonScenario, CdfFileIsRelativeToTheScenario) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "dcqcn_poisson_cdf";
  fs::remove_all(dir);
  fs::create_directories(dir / "cdfs");
  std::ofstream(dir / "cdfs/mine.txt") << "0 0\n1000 50\n3000 100\n";
  std::string text = kPoissonToml;
  text.replace(text.find("\"websearch\""), 11, "\"cdfs/mine.txt\"");
  std::ofstream(dir / "s.toml") << text;
  const Scenario s = LoadScenarioFile((dir / "s.toml").string());
  EXPECT_EQ(fs::path(s.workload.cdf), (dir / "cdfs/mine.txt").lexically_normal());
  for (const FlowSpec& f : s.flows) {
    if (f.size != 64000) {
      EXPECT_LT(f.size, 3000);  // background flows come from mine.txt
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dcqcn
