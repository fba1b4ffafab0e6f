// Every example scenario, run as shipped, does what its comment says (examples/*.toml), and so
// does the built-in default scenario.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "net/network.h"
#include "run/run_scenario.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

Scenario Example(const std::string& name, std::vector<std::string> sets = {}) {
  return LoadScenarioFile(std::string(DCQCN_SOURCE_DIR) + "/examples/" + name, sets);
}

fs::path Tmp(const std::string& name) {
  return fs::temp_directory_path() / ("dcqcn_example_" + name);
}

nlohmann::json RunInto(const Scenario& s, const fs::path& dir,
                       std::function<void(const Network&)> after_run = {}) {
  fs::remove_all(dir);
  RunOptions options;
  options.out_dir = dir.string();
  options.after_run = std::move(after_run);
  return RunScenario(s, options);
}

// Mean throughput (timeseries/throughput.csv) of each flow over samples in [from, to).
std::map<int, double> MeanGbps(const fs::path& dir, Time from, Time to) {
  const std::string file = (dir / "timeseries/throughput.csv").string();
  const auto times = testing::CsvColumn(file, "time_ns");
  const auto ids = testing::CsvColumn(file, "flow_id");
  const auto gbps = testing::CsvColumn(file, "gbps");
  std::map<int, std::pair<double, int>> sums;
  for (size_t i = 0; i < times.size(); ++i) {
    const Time t = std::stoll(times[i]) * kNanosecond;
    if (t < from || t >= to) continue;
    auto& [sum, n] = sums[std::stoi(ids[i])];
    sum += std::stod(gbps[i]);
    ++n;
  }
  std::map<int, double> means;
  for (const auto& [id, s] : sums) means[id] = s.first / s.second;
  return means;
}

// Minimum pacer rate each flow reached (timeseries/rate.csv), and when it first got there.
std::map<int, std::pair<double, Time>> FloorOfRates(const fs::path& dir) {
  const std::string file = (dir / "timeseries/rate.csv").string();
  const auto times = testing::CsvColumn(file, "time_ns");
  const auto ids = testing::CsvColumn(file, "flow_id");
  const auto rc = testing::CsvColumn(file, "rc_gbps");
  std::map<int, std::pair<double, Time>> floor;
  for (size_t i = 0; i < times.size(); ++i) {
    const int id = std::stoi(ids[i]);
    const double r = std::stod(rc[i]);
    auto it = floor.find(id);
    if (it == floor.end() || r < it->second.first) {
      floor[id] = {r, std::stoll(times[i]) * kNanosecond};
    }
  }
  return floor;
}

// Bytes sent by the ports of the switches [first, last] (node ids), per switch.
std::map<int, Bytes> SwitchTxBytes(const Network& net, int first, int last) {
  std::map<int, Bytes> bytes;
  for (int node = first; node <= last; ++node) {
    for (int p = 0; p < net.num_ports(node); ++p) bytes[node] += net.link(node, p).busy_bytes();
  }
  return bytes;
}

void ExpectLossless(const nlohmann::json& j) {
  EXPECT_EQ(j["drops"], 0);
  EXPECT_EQ(j["flows_finished"], j["flows_total"]);
}

TEST(Examples, Incast8to1CollapsesToTheFloorAndRecovers) {
  const fs::path dir = Tmp("incast");
  const nlohmann::json j = RunInto(Example("incast_8to1.toml"), dir);
  ExpectLossless(j);
  // A 1.36 MB queue in the first 0.15 ms, every flow at the 0.1 Gb/s floor within 0.5 ms.
  EXPECT_NEAR(j["max_queue_bytes"].get<double>(), 1.36e6, 0.02e6);
  const auto floor = FloorOfRates(dir);
  ASSERT_EQ(floor.size(), 8u);
  for (const auto& [id, f] : floor) {
    EXPECT_NEAR(f.first, 0.1, 1e-6) << id;
    EXPECT_LE(f.second, 500 * kMicrosecond) << id;
  }
  // Finished after about 4.8 ms, bottleneck about 36% busy, no PAUSE.
  EXPECT_NEAR(j["sim_time_ns"].get<double>(), 4.8e6, 0.2e6);
  EXPECT_NEAR(j["max_link_utilisation"].get<double>(), 0.36, 0.03);
  EXPECT_EQ(j["pfc_pause_frames"], 0);
  // The other profiles recover faster, PFC alone runs at line rate with a deep queue and PAUSE.
  const nlohmann::json mlx5 = RunScenario(Example("incast_8to1.toml", {"cc.profile=mlx5"}), {});
  const nlohmann::json hpcc = RunScenario(Example("incast_8to1.toml", {"cc.profile=hpcc"}), {});
  const nlohmann::json none = RunScenario(Example("incast_8to1.toml", {"cc.algorithm=none"}), {});
  EXPECT_NEAR(mlx5["sim_time_ns"].get<double>(), 3.1e6, 0.2e6);
  EXPECT_NEAR(mlx5["max_link_utilisation"].get<double>(), 0.57, 0.03);
  EXPECT_NEAR(hpcc["sim_time_ns"].get<double>(), 2.5e6, 0.2e6);
  EXPECT_NEAR(hpcc["max_link_utilisation"].get<double>(), 0.70, 0.03);
  EXPECT_NEAR(none["sim_time_ns"].get<double>(), 1.7e6, 0.1e6);
  EXPECT_GT(none["max_link_utilisation"].get<double>(), 0.99);
  EXPECT_GT(none["max_queue_bytes"].get<double>(), 5.5e6);
  EXPECT_GT(none["pfc_pause_frames"].get<int>(), 0);
  for (const nlohmann::json* r : {&mlx5, &hpcc, &none}) ExpectLossless(*r);
}

TEST(Examples, DefaultScenarioCollapsesThenFinishesWithoutPause) {
  const fs::path dir = Tmp("default");
  const nlohmann::json j = RunInto(DefaultScenario(), dir);
  ExpectLossless(j);
  for (const auto& [id, f] : FloorOfRates(dir)) {
    EXPECT_NEAR(f.first, 0.1, 1e-6) << id;
    EXPECT_LE(f.second, 500 * kMicrosecond) << id;
  }
  // Back to a fair share of the link after about 10 ms.
  const auto later = MeanGbps(dir, 10 * kMillisecond, 20 * kMillisecond);
  double sum = 0;
  for (const auto& [id, g] : later) sum += g;
  EXPECT_GT(sum, 0.9 * 40 * 1000.0 / 1086);
  EXPECT_NEAR(j["sim_time_ns"].get<double>(), 22e6, 1e6);
  EXPECT_EQ(j["pfc_pause_frames"], 0);
}

TEST(Examples, DumbbellLateFlowIsCutThenCatchesUp) {
  const fs::path dir = Tmp("dumbbell");
  const nlohmann::json j = RunInto(Example("dumbbell.toml"), dir);
  EXPECT_EQ(j["drops"], 0);
  EXPECT_EQ(j["pfc_pause_frames"], 0);
  EXPECT_EQ(j["flows_active"], 4);
  ASSERT_TRUE(j["by_tag"].contains("late"));
  // The first three have recovered from the start-up cuts by 15 ms.
  double early = 0;
  for (const auto& [id, g] : MeanGbps(dir, 15 * kMillisecond, 30 * kMillisecond)) early += g;
  EXPECT_GT(early, 30.0);
  auto others_mean = [](const std::map<int, double>& m) {
    return (m.at(0) + m.at(1) + m.at(2)) / 3;
  };
  // The late flow: less than half the others' rate over its first 5 ms ...
  const auto first = MeanGbps(dir, 30 * kMillisecond, 35 * kMillisecond);
  EXPECT_LT(first.at(3), 0.5 * others_mean(first));
  // ... and about their share 40 ms later.
  const auto last = MeanGbps(dir, 70 * kMillisecond, 80 * kMillisecond);
  EXPECT_GT(last.at(3), 0.8 * others_mean(last));
  const auto before = MeanGbps(dir, 60 * kMillisecond, 65 * kMillisecond);
  EXPECT_LT(before.at(3), 0.9 * others_mean(before));
}

TEST(Examples, CustomTwoTierFinishesLosslessOverTwoSpines) {
  const Scenario s = Example("custom_two_tier.toml");
  std::vector<size_t> path_lengths;
  const nlohmann::json j = RunInto(s, Tmp("custom"), [&](const Network& net) {
    for (uint32_t id = 0; id < net.num_flows(); ++id) {
      const FlowSpec& f = net.flow_spec(id);
      const bool cross_leaf = (f.src < 2) != (f.dst < 2);
      EXPECT_EQ(net.PathOf(id).size(), cross_leaf ? 4u : 2u) << id;
    }
  });
  ExpectLossless(j);
  EXPECT_EQ(j["pfc_pause_frames"], 0);
}

TEST(Examples, FatTreeSpreadsThePermutationOverTheCores) {
  const Scenario s = Example("fat_tree.toml");
  const int hosts = s.topology.hosts;
  ASSERT_EQ(hosts, 16);
  std::map<int, Bytes> core_bytes;
  const nlohmann::json j = RunInto(s, Tmp("fat_tree"), [&](const Network& net) {
    core_bytes = SwitchTxBytes(net, hosts + 16, hosts + 19);  // cores s16..s19
  });
  ExpectLossless(j);
  int used = 0;
  for (const auto& [core, bytes] : core_bytes) used += bytes > 0;
  EXPECT_GE(used, 3) << "ECMP should spread the cross-pod flows over the cores";
}

TEST(Examples, LeafSpineIncastUsesBothSpinesAndTheReceiversPortIsTheBottleneck) {
  const Scenario s = Example("leaf_spine.toml");
  std::map<int, Bytes> spine_bytes;
  const nlohmann::json j = RunInto(s, Tmp("leaf_spine"), [&](const Network& net) {
    spine_bytes = SwitchTxBytes(net, s.topology.hosts + 4, s.topology.hosts + 5);
  });
  ExpectLossless(j);
  for (const auto& [spine, bytes] : spine_bytes) EXPECT_GT(bytes, 0) << spine;
  EXPECT_EQ(j["bottleneck"]["switch"], "s0");
  EXPECT_EQ(j["bottleneck"]["peer"], "h0");
}

TEST(Examples, PoissonWebsearchReportsFctPerSizeBucketAndTagsTheIncasts) {
  const fs::path dir = Tmp("poisson");
  const nlohmann::json j = RunInto(Example("poisson_websearch.toml"), dir);
  ExpectLossless(j);
  int bucketed = 0;
  for (const auto& [label, bucket] : j["fct_slowdown_by_size"].items()) {
    bucketed += bucket["count"].get<int>();
  }
  EXPECT_EQ(bucketed, j["flows_finished"].get<int>());
  ASSERT_TRUE(j["by_tag"].contains("background"));
  ASSERT_TRUE(j["by_tag"].contains("incast"));
  EXPECT_EQ(j["by_tag"]["incast"]["flows"].get<int>() % 16, 0);  // 16 senders per event
  const auto tags = testing::CsvColumn((dir / "flows.csv").string(), "tag");
  const auto sizes = testing::CsvColumn((dir / "flows.csv").string(), "size_bytes");
  for (size_t i = 0; i < tags.size(); ++i) {
    if (tags[i] == "incast") {
      EXPECT_EQ(sizes[i], "64000") << i;
    }
  }
}

}  // namespace
}  // namespace dcqcn
