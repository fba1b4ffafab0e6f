// Tests of the workload generators: incast in its count and list forms, and permutation (a
// derangement, deterministic for a seed, uniform over derangements).
#include "workload/generators.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

Scenario WithWorkload(int hosts, const std::string& type) {
  Scenario s;
  s.source = "gen.toml";
  s.topology.hosts = hosts;
  s.workload.type = type;
  s.workload.size = 1000;
  s.workload.start = 5 * kMicrosecond;
  s.workload.priority = 4;
  return s;
}

std::vector<FlowSpec> Generate(const Scenario& s) {
  std::vector<FlowSpec> flows;
  FlowTags tags;
  GenerateWorkload(s, flows, tags);
  return flows;
}

TEST(Generators, NoWorkloadAddsNothing) {
  Scenario s;
  std::vector<FlowSpec> flows(2);
  FlowTags tags;
  GenerateWorkload(s, flows, tags);
  EXPECT_EQ(flows.size(), 2u);
}

TEST(Generators, IncastCountTakesTheFirstHostsOtherThanTheReceiver) {
  Scenario s = WithWorkload(6, "incast");
  s.workload.receiver = 2;
  s.workload.sender_count = 3;
  const std::vector<FlowSpec> flows = Generate(s);
  ASSERT_EQ(flows.size(), 3u);
  const int expected_src[] = {0, 1, 3};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(flows[i].src, expected_src[i]);
    EXPECT_EQ(flows[i].dst, 2);
    EXPECT_EQ(flows[i].size, 1000);
    EXPECT_EQ(flows[i].start, 5 * kMicrosecond);
    EXPECT_EQ(flows[i].priority, 4);
  }
  s.workload.sender_count = 5;  // every other host
  EXPECT_EQ(Generate(s).size(), 5u);
}

TEST(Generators, IncastListKeepsTheGivenOrder) {
  Scenario s = WithWorkload(6, "incast");
  s.workload.senders = {5, 1, 3};
  const std::vector<FlowSpec> flows = Generate(s);
  ASSERT_EQ(flows.size(), 3u);
  EXPECT_EQ(flows[0].src, 5);
  EXPECT_EQ(flows[1].src, 1);
  EXPECT_EQ(flows[2].src, 3);
  for (const FlowSpec& f : flows) EXPECT_EQ(f.dst, 0);
}

TEST(Generators, IncastRejectsWhatCannotBe) {
  Scenario s = WithWorkload(4, "incast");
  s.workload.sender_count = 4;  // only 3 hosts besides the receiver
  EXPECT_THROW(Generate(s), InputError);
  s.workload.sender_count = 0;
  EXPECT_THROW(Generate(s), InputError);
  s.workload.senders = {0};  // the receiver
  EXPECT_THROW(Generate(s), InputError);
  s.workload.senders = {7};
  EXPECT_THROW(Generate(s), InputError);
  s.workload.senders = {1};
  s.workload.receiver = 4;
  EXPECT_THROW(Generate(s), InputError);
  s.workload.receiver = 0;
  s.workload.size = 0;
  EXPECT_THROW(Generate(s), InputError);
  s.workload.size = 1;
  s.workload.type = "alltoall";
  EXPECT_THROW(Generate(s), InputError);
}

TEST(Generators, IncastFromScenarioFile) {
  const Scenario count = LoadScenarioText(
      "[topology]\nhosts = 9\n[workload]\ntype = \"incast\"\nsenders = 4\nreceiver = 3\n"
      "size = \"64KB\"\nstart = \"1us\"\npriority = 5\n",
      "incast.toml");
  ASSERT_EQ(count.flows.size(), 4u);
  EXPECT_EQ(count.workload.sender_count, 4);
  const int expected_src[] = {0, 1, 2, 4};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(count.flows[i].src, expected_src[i]);
    EXPECT_EQ(count.flows[i].dst, 3);
    EXPECT_EQ(count.flows[i].size, 64000);
    EXPECT_EQ(count.flows[i].start, kMicrosecond);
    EXPECT_EQ(count.flows[i].priority, 5);
  }

  const Scenario list = LoadScenarioText(
      "[[flow]]\nsrc = 0\ndst = 1\nsize = \"1MB\"\n"
      "[workload]\ntype = \"incast\"\nsenders = [8, 2]\nsize = \"1MB\"\n",
      "incast.toml");
  ASSERT_EQ(list.flows.size(), 3u);
  EXPECT_EQ(list.explicit_flows, 1);  // explicit flows first, generated after
  EXPECT_EQ(list.flows[0].src, 0);
  EXPECT_EQ(list.flows[1].src, 8);
  EXPECT_EQ(list.flows[2].src, 2);
  EXPECT_EQ(list.flows[2].dst, 0);

  const Scenario all = LoadScenarioText(
      "[topology]\nhosts = 5\n[workload]\ntype = \"incast\"\nreceiver = 4\nsize = \"1MB\"\n",
      "incast.toml");
  ASSERT_EQ(all.flows.size(), 4u);  // no `senders`: every other host
  for (int i = 0; i < 4; ++i) EXPECT_EQ(all.flows[i].src, i);
}

bool IsDerangement(const std::vector<FlowSpec>& flows, int hosts) {
  if (static_cast<int>(flows.size()) != hosts) return false;
  std::set<int> destinations;
  for (int h = 0; h < hosts; ++h) {
    if (flows[h].src != h || flows[h].dst == h || flows[h].dst < 0 || flows[h].dst >= hosts) {
      return false;
    }
    destinations.insert(flows[h].dst);
  }
  return static_cast<int>(destinations.size()) == hosts;
}

TEST(Generators, PermutationIsADerangement) {
  for (int hosts : {2, 3, 4, 7, 16, 100, 1000}) {
    for (uint64_t seed : {1, 2, 3}) {
      Scenario s = WithWorkload(hosts, "permutation");
      s.seed = seed;
      const std::vector<FlowSpec> flows = Generate(s);
      EXPECT_TRUE(IsDerangement(flows, hosts)) << hosts << " hosts, seed " << seed;
      for (const FlowSpec& f : flows) {
        EXPECT_EQ(f.size, 1000);
        EXPECT_EQ(f.priority, 4);
      }
    }
  }
}

TEST(Generators, PermutationIsDeterministicForASeed) {
  Scenario s = WithWorkload(50, "permutation");
  s.seed = 11;
  const std::vector<FlowSpec> a = Generate(s);
  const std::vector<FlowSpec> b = Generate(s);
  s.seed = 12;
  const std::vector<FlowSpec> c = Generate(s);
  bool differs = false;
  for (int h = 0; h < 50; ++h) {
    EXPECT_EQ(a[h].dst, b[h].dst);
    differs = differs || a[h].dst != c[h].dst;
  }
  EXPECT_TRUE(differs);
}

TEST(Generators, PermutationIsUniformOverDerangements) {
  // 4 hosts have 9 derangements; each should come up about 1/9 of the time.
  std::map<std::vector<int>, int> seen;
  const int trials = 9000;
  for (int seed = 0; seed < trials; ++seed) {
    Scenario s = WithWorkload(4, "permutation");
    s.seed = seed;
    std::vector<int> perm;
    for (const FlowSpec& f : Generate(s)) perm.push_back(f.dst);
    ++seen[perm];
  }
  EXPECT_EQ(seen.size(), 9u);
  for (const auto& [perm, count] : seen) {
    EXPECT_GT(count, 1000 * 0.85);
    EXPECT_LT(count, 1000 * 1.15);
  }
}

TEST(Generators, PermutationFromScenarioFileUsesTheSeed) {
  const std::string text =
      "seed = 5\n[topology]\nhosts = 8\n[workload]\ntype = \"permutation\"\nsize = \"1MB\"\n";
  const Scenario a = LoadScenarioText(text, "perm.toml");
  const Scenario b = LoadScenarioText(text, "perm.toml");
  ASSERT_EQ(a.flows.size(), 8u);
  EXPECT_TRUE(IsDerangement(a.flows, 8));
  for (int h = 0; h < 8; ++h) EXPECT_EQ(a.flows[h].dst, b.flows[h].dst);
  Scenario direct = WithWorkload(8, "permutation");
  direct.seed = 5;
  const std::vector<FlowSpec> flows = Generate(direct);
  for (int h = 0; h < 8; ++h) EXPECT_EQ(a.flows[h].dst, flows[h].dst);
}

}  // namespace
}  // namespace dcqcn
