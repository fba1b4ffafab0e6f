// Whole-scenario behaviour of DCQCN at 40 Gb/s: fair and lossless incast at high utilisation,
// far fewer PAUSE frames and a far lower queue than PFC alone, and a late flow converging to
// its fair share. Sizes are chosen so each run takes well under a second.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "run/run_scenario.h"
#include "test_util.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;
using testing::IncastScenario;

// Rows of a CSV file as column-name -> value maps.
std::vector<std::map<std::string, std::string>> ReadCsv(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  auto split = [](const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string cell;
    while (std::getline(ss, cell, ',')) out.push_back(cell);
    return out;
  };
  if (std::getline(in, line)) header = split(line);
  while (std::getline(in, line)) {
    std::vector<std::string> cells = split(line);
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

fs::path TempDir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("dcqcn_" + name);
  fs::remove_all(dir);
  return dir;
}

Scenario DcqcnIncast(int n, Bytes size, const std::string& profile = "paper") {
  Scenario s = IncastScenario(n, size);
  s.cc.algorithm = "dcqcn";
  s.cc.profile = profile;
  s.duration = 500 * kMillisecond;
  return s;
}

class DcqcnIncastTest : public ::testing::TestWithParam<int> {};

TEST_P(DcqcnIncastTest, SharesTheBottleneckFairlyAtHighUtilisationWithoutLoss) {
  const int n = GetParam();
  // 300 MB in all: long enough for the rates to recover from the line-rate start.
  Scenario s = DcqcnIncast(n, 300000000 / n);
  s.output.ts_queue = true;
  s.output.interval = 100 * kMicrosecond;
  fs::path dir = TempDir("incast" + std::to_string(n));
  nlohmann::json j = RunScenario(s, {.out_dir = dir.string(), .after_run = nullptr});
  EXPECT_EQ(j["flows_finished"], n);
  EXPECT_EQ(j["drops"], 0);
  EXPECT_GT(j["cnps"].get<int>(), 0);
  EXPECT_GT(j["cc"]["rate_cuts"].get<int>(), 0);
  // Equal-size flows finish close together. Two flows converge slowly: they swap a 21/16 Gb/s
  // split over tens of milliseconds (alpha differences shrink only by (1-g) per K, and the AIMD
  // cycle is long at a small N), so N = 2 gets a looser bound. At N = 4 the slowest flow's
  // share of the fastest's ranged 0.855-0.989 over seeds 1-6, under either order of
  // equal-time events (the global FIFO before and the per-handler key now): chaos, not bias.
  const double ratio = n == 2 ? 0.7 : 0.85;
  EXPECT_GT(j["flow_throughput_gbps"]["min"].get<double>(),
            ratio * j["flow_throughput_gbps"]["max"].get<double>());
  EXPECT_GT(j["jain_fairness"].get<double>(), n == 2 ? 0.97 : 0.99);
  // Over the whole run (including the recovery from the initial cuts) the bottleneck is busy
  // most of the time; once converged (after 20 ms, while every flow is active) it runs within
  // 3% of line rate.
  EXPECT_GT(j["max_link_utilisation"].get<double>(), 0.85);
  Time end = kTimeNever;
  for (const auto& row : ReadCsv(dir / "flows.csv")) {
    end = std::min<Time>(end, std::stoll(row.at("finish_ns")) - 1000000);
  }
  double tx = 0;
  int samples = 0;
  for (const auto& row : ReadCsv(dir / "timeseries/queue.csv")) {
    Time t = std::stoll(row.at("time_ns"));
    if (row.at("port") != "0" || t < 20000000 || t > end) continue;
    tx += std::stod(row.at("tx_gbps"));
    ++samples;
  }
  ASSERT_GT(samples, 100);
  EXPECT_GT(tx / samples, 0.97 * 40);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Degrees, DcqcnIncastTest, ::testing::Values(2, 4, 8));

TEST(DcqcnVersusPfcTest, FarFewerPausesAndAFarLowerQueue) {
  Scenario with_dcqcn = DcqcnIncast(8, 10000000);
  Scenario pfc_only = with_dcqcn;
  pfc_only.cc.algorithm = "none";
  with_dcqcn.output.ts_queue = pfc_only.output.ts_queue = true;
  fs::path da = TempDir("vs_dcqcn"), db = TempDir("vs_pfc");
  nlohmann::json a = RunScenario(with_dcqcn, {.out_dir = da.string(), .after_run = nullptr});
  nlohmann::json b = RunScenario(pfc_only, {.out_dir = db.string(), .after_run = nullptr});
  EXPECT_EQ(a["drops"], 0);
  EXPECT_EQ(b["drops"], 0);
  EXPECT_GT(b["pfc_pause_frames"].get<int>(), 100);
  EXPECT_LT(a["pfc_pause_frames"].get<int>(), b["pfc_pause_frames"].get<int>() / 10);
  EXPECT_LT(a["max_queue_bytes"].get<double>(), 0.5 * b["max_queue_bytes"].get<double>());
  auto mean_queue = [](const fs::path& dir) {
    double sum = 0;
    int n = 0;
    for (const auto& row : ReadCsv(dir / "timeseries/queue.csv")) {
      if (row.at("port") != "0") continue;
      sum += std::stod(row.at("queue_bytes"));
      ++n;
    }
    return n > 0 ? sum / n : 0.0;
  };
  EXPECT_LT(mean_queue(da), 0.1 * mean_queue(db));
  fs::remove_all(da);
  fs::remove_all(db);
}

TEST(DcqcnConvergenceTest, ALateFlowConvergesToItsFairShare) {
  Scenario s = testing::StarScenario(4);
  s.cc.algorithm = "dcqcn";
  s.duration = 110 * kMillisecond;
  s.flows = {
      {1, 0, 1000000000, 0, 3}, {2, 0, 1000000000, 0, 3}, {3, 0, 1000000000, 10 * kMillisecond, 3}};
  s.output.ts_throughput = true;
  s.output.interval = kMillisecond;
  fs::path dir = TempDir("late");
  RunScenario(s, {.out_dir = dir.string(), .after_run = nullptr});
  // Average delivered rate of each flow over 70-110 ms: within 25% of a third of the payload
  // capacity (DCQCN converges slowly: CoNEXT'16 reports "well within 100 ms").
  std::map<std::string, std::pair<double, int>> avg;
  for (const auto& row : ReadCsv(dir / "timeseries/throughput.csv")) {
    Time t = std::stoll(row.at("time_ns"));
    if (t <= 70000000) continue;
    auto& [sum, n] = avg[row.at("flow_id")];
    sum += std::stod(row.at("gbps"));
    ++n;
  }
  const double fair = 40.0 * 1000 / 1086 / 3;
  ASSERT_EQ(avg.size(), 3u);
  for (const auto& [flow, sum_n] : avg) {
    double mean = sum_n.first / sum_n.second;
    EXPECT_NEAR(mean, fair, 0.25 * fair) << "flow " << flow;
  }
  fs::remove_all(dir);
}

TEST(DcqcnProfilesTest, EveryProfileKeepsAnIncastLossless) {
  for (const char* profile : {"paper", "mlx5", "hpcc", "cx3pro", "cx4"}) {
    Scenario s = DcqcnIncast(4, 5000000, profile);
    nlohmann::json j = RunScenario(s, {});
    EXPECT_EQ(j["flows_finished"], 4) << profile;
    EXPECT_EQ(j["drops"], 0) << profile;
    EXPECT_GT(j["cnps"].get<int>(), 0) << profile;
    EXPECT_TRUE(j["drained"].get<bool>()) << profile;
  }
}

}  // namespace
}  // namespace dcqcn
