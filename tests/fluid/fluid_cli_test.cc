// `dcqcn fluid` as a user runs it: its files, its summary and its errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_util.h"

namespace dcqcn::testing {
namespace {

std::string Slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(FluidCli, WritesTimeSeriesAndSummary) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("dcqcn_fluid_cli_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  const Result r = RunCli("fluid --flows 20 --packet 1000B --delay 4us --duration 20ms --out '" +
                          dir.string() + "' --set cc.rai=10Mbps --set switch.ecn.kmax=1000KB");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("fixed point exact"), std::string::npos) << r.out;
  const std::string csv = Slurp(dir / "timeseries/fluid.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "time_ns,queue_bytes,mark_prob,rc_gbps_mean,rt_gbps_mean,alpha_mean,rc_gbps_0,"
            "rc_gbps_1,rc_gbps_2,rc_gbps_3,rc_gbps_4,rc_gbps_5,rc_gbps_6,rc_gbps_7,rc_gbps_8,"
            "rc_gbps_9,rc_gbps_10,rc_gbps_11,rc_gbps_12,rc_gbps_13,rc_gbps_14,rc_gbps_15");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 2001);  // 0..20 ms every 10 us
  const nlohmann::json j = nlohmann::json::parse(Slurp(dir / "summary.json"));
  EXPECT_EQ(j["flows"], 20);
  EXPECT_DOUBLE_EQ(j["parameters"]["rai_gbps"].get<double>(), 0.01);
  EXPECT_EQ(j["parameters"]["kmax_bytes"], 1000000);
  EXPECT_TRUE(j["fixed_point"]["exact"]["queue_bytes"].is_number());
  EXPECT_TRUE(j["fixed_point"]["approx"]["p"].is_number());
  EXPECT_TRUE(j["half_step_check"]["max_queue_difference_bytes"].is_number());
  EXPECT_EQ(j["step_ns"], 1000);
  EXPECT_TRUE(j["oscillation"]["verdict"].is_string());
  std::filesystem::remove_all(dir);
}

TEST(FluidCli, NoFixedPointIsNull) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("dcqcn_fluid_cli64_" + std::to_string(getpid()));
  const Result r = RunCli(
      "fluid --quiet --no-check --flows 64 --packet 1000B --duration 2ms "
      "--out '" +
      dir.string() + "'");
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(Slurp(dir / "summary.json"));
  EXPECT_TRUE(j["fixed_point"]["exact"]["queue_bytes"].is_null());
  EXPECT_TRUE(j["fixed_point"]["approx"]["queue_bytes"].is_null());
  EXPECT_TRUE(j["half_step_check"].is_null());
  std::filesystem::remove_all(dir);
}

TEST(FluidCli, MapWritesOneRowPerCell) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("dcqcn_fluid_map_" + std::to_string(getpid()));
  const Result r = RunCli(
      "fluid --map --map-flows 2,10 --map-delays 4us,85us --duration 20ms "
      "--packet 1000B --jobs 2 --out '" +
      dir.string() + "'");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("    10"), std::string::npos) << r.out;
  const std::string csv = Slurp(dir / "map.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 4) << csv;
  EXPECT_NE(csv.find("\n2,4000,steady,"), std::string::npos) << csv;
  const nlohmann::json j = nlohmann::json::parse(Slurp(dir / "summary.json"));
  EXPECT_EQ(j["cells"].size(), 4u);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(RunCli("fluid --map --map-delays 4us,soon --out '" + dir.string() + "'").code, 1);
}

TEST(FluidCli, BadOptionsAreInputErrors) {
  EXPECT_EQ(RunCli("fluid --rate fast --out /tmp/never").code, 1);
  EXPECT_EQ(RunCli("fluid --set cc.nonsense=1 --out /tmp/never").code, 1);
  const Result r = RunCli("fluid --delay 0us --out /tmp/never");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("--delay"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace dcqcn::testing
