// Whole-run test of a realistic workload: Poisson WebSearch flows at 30% load on a 16-host
// star. It must finish every flow and report slowdowns per size bucket in summary.json.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run/run_scenario.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

TEST(PoissonRun, WebSearchOnAStarFinishesAndReportsBuckets) {
  const Scenario s = LoadScenarioText(R"(name = "ws-star"
duration = "50ms"
[topology]
type = "star"
hosts = 16
link_rate = "100Gbps"
[cc]
profile = "hpcc"
[workload]
type = "poisson"
cdf = "websearch"
load = 0.3
window = "1ms"
)",
                                      "ws.toml");
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "dcqcn_poisson_run";
  fs::remove_all(dir);
  RunOptions options;
  options.out_dir = dir.string();
  const nlohmann::json j = RunScenario(s, options);
  EXPECT_EQ(j["flows_finished"], j["flows_total"]);
  EXPECT_GT(j["flows_total"].get<int>(), 20);
  EXPECT_EQ(j["drops"], 0);
  EXPECT_EQ(j["fct_slowdown"]["count"], j["flows_total"]);
  const nlohmann::json& buckets = j["fct_slowdown_by_size"];
  int counted = 0;
  for (const char* b : {"<10KB", "10KB-100KB", "100KB-1MB", ">=1MB"}) {
    ASSERT_TRUE(buckets.contains(b)) << b;
    const int n = buckets[b]["count"].get<int>();
    counted += n;
    if (n > 0) {
      EXPECT_GE(buckets[b]["p50"].get<double>(), 1.0) << b;
      EXPECT_LE(buckets[b]["p50"].get<double>(), buckets[b]["p95"].get<double>()) << b;
      EXPECT_LE(buckets[b]["p95"].get<double>(), buckets[b]["p99"].get<double>()) << b;
    } else {
      EXPECT_TRUE(buckets[b]["p50"].is_null()) << b;
    }
  }
  EXPECT_EQ(counted, j["flows_total"].get<int>());
  EXPECT_EQ(buckets[">=1MB"]["count"], j["long_flow_throughput_gbps"]["count"]);
  if (j["long_flow_throughput_gbps"]["count"].get<int>() > 0) {
    EXPECT_GT(j["long_flow_throughput_gbps"]["mean"].get<double>(), 1.0);
    EXPECT_LE(j["long_flow_throughput_gbps"]["mean"].get<double>(), 100.0);
  }
  EXPECT_GT(j["peak_rss_mb"].get<double>(), 1.0);
  // The file on disk has the same keys.
  std::ifstream in(dir / "summary.json");
  const nlohmann::json file = nlohmann::json::parse(in);
  EXPECT_TRUE(file.contains("fct_slowdown_by_size"));
  EXPECT_TRUE(file.contains("peak_rss_mb"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dcqcn
