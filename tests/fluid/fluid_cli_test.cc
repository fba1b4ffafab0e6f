// `dcqcn fluid` as a user runs it: its files, its summary and its errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

#include "cli_util.h"

namespace dcqcn::testing {
namespace {

TEST(FluidCli, WritesTimeSeriesAndSummary) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("dcqcn_fluid_cli_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  const Result r = RunCli("fluid --flows 20 --packet 1000B --delay 4us --duration 20ms --out '" +
                          dir.string() + "' --set cc.rai=10Mbps --set switch.ecn.kmax=1000KB");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("fixed point exact"), std::string::npos) << r.out;
  const std::string csv = ReadFile(dir / "timeseries/fluid.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "time_ns,queue_bytes,mark_prob,rc_gbps_mean,rt_gbps_mean,alpha_mean,rc_gbps_0,"
            "rc_gbps_1,rc_gbps_2,rc_gbps_3,rc_gbps_4,rc_gbps_5,rc_gbps_6,rc_gbps_7,rc_gbps_8,"
            "rc_gbps_9,rc_gbps_10,rc_gbps_11,rc_gbps_12,rc_gbps_13,rc_gbps_14,rc_gbps_15");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 2001);  // 0..20 ms every 10 us
  const nlohmann::json j = nlohmann::json::parse(ReadFile(dir / "summary.json"));
  EXPECT_EQ(j["flows"], 20);
  EXPECT_DOUBLE_EQ(j["parameters"]["rai_gbps"].get<double>(), 0.01);
  EXPECT_EQ(j["parameters"]["kmax_bytes"], 1000000);
  EXPECT_TRUE(j["fixed_point"]["exact"]["queue_bytes"].is_number());
  EXPECT_TRUE(j["fixed_point"]["approx"]["p"].is_number());
  EXPECT_TRUE(j["half_step_check"]["max_queue_difference_bytes"].is_number());
  EXPECT_EQ(j["step_ns"], 1000);
  EXPECT_TRUE(j["oscillation"]["verdict"].is_string());
  // The verdict line gives the figure it was judged on: the last quarter's peak-to-peak (its
  // summary key), not the last half's of the line before it.
  char verdict_line[128];
  std::snprintf(verdict_line, sizeof verdict_line,
                ": queue peak-to-peak %.1f KB over its last quarter (17.5 to 20 ms)",
                j["oscillation"]["queue_peak_to_peak_last_quarter_bytes"].get<double>() / 1e3);
  EXPECT_NE(r.out.find(verdict_line), std::string::npos) << verdict_line << "\n" << r.out;
  EXPECT_NE(r.out.find("last half (10 to 20 ms): queue mean"), std::string::npos) << r.out;
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
  const nlohmann::json j = nlohmann::json::parse(ReadFile(dir / "summary.json"));
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
  const std::string csv = ReadFile(dir / "map.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 4) << csv;
  EXPECT_NE(csv.find("\n2,4000,steady,"), std::string::npos) << csv;
  const nlohmann::json j = nlohmann::json::parse(ReadFile(dir / "summary.json"));
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

// Work or memory beyond what one integration may take is refused at once, naming the flag, not
// an exhausted memory ("std::bad_alloc") or a run of days.
TEST(FluidCli, HugeWorkIsRefusedNamingTheFlag) {
  for (const auto& [args, expected] : std::vector<std::pair<std::string, std::string>>{
           {"--flows 1000000000", "--flows: 1000000000 flows; the fluid model takes at most"},
           {"--duration 1000000s", "--step 1us over --duration 1000000s is 1e+12 steps"},
           {"--step 1ps --duration 10us", "--step 1ps: 10 flows over a delay of 85us"},
           // The delay cuts the step (1e9 steps, hours): refused naming --delay, not --step.
           {"--delay 1ps --duration 1ms",
            "--delay 1ps (a step is at most the delay) over --duration 1ms is 1e+09 steps; at "
            "most 1e+08"},
           {"--delay 10s", "--delay 10s at --step 1us: 10 flows keep 1e+08 history points"},
           {"--sample 1ps --duration 1s", "--sample 1ps over --duration 1s"}}) {
    const Result r = RunCli("fluid " + args + " --out /tmp/never");
    EXPECT_EQ(r.code, 1) << args;
    EXPECT_NE(r.out.find(expected), std::string::npos) << args << ": " << r.out;
  }
}

// Ctrl-C or SIGTERM stops an integration (one or a --map) as it stops a run: the shell's status
// for the signal, nothing written, no staging folder left.
using FluidCliStop = TempDirTest;
TEST_F(FluidCliStop, SignalsStopTheIntegrationAndWriteNothing) {
  const std::string out = (dir_ / "f").string();
  for (const auto& [args, signal, status] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"--duration 20s --no-check", "INT", "130"},
           {"--duration 20s --no-check", "TERM", "143"},
           {"--map --map-flows 2,10 --map-delays 4us,85us --duration 20s --jobs 1", "INT",
            "130"}}) {
    const Result r =
        RunCommand(std::string(DCQCN_BINARY) + " fluid " + args + " --quiet --out " + out +
                   " 2>&1 & pid=$!; sleep 1; kill -" + signal + " $pid; wait $pid; echo exit=$?");
    EXPECT_NE(r.out.find("exit=" + status), std::string::npos) << args << ": " << r.out;
    EXPECT_NE(r.out.find("interrupted: no results written (SIG" + signal + ")"), std::string::npos)
        << r.out;
    EXPECT_TRUE(std::filesystem::is_empty(dir_)) << args;
  }
}

// A 4:1 incast on one switch: 40 Gb/s links of 1 us.
constexpr const char* kStarIncast = R"(name = "star4"
[topology]
type = "star"
hosts = 5
link_rate = "40Gbps"
link_delay = "1us"
[workload]
type = "incast"
senders = 4
size = "1GB"
)";

using FluidScenarioCli = TempDirTest;

TEST_F(FluidScenarioCli, StarIncastGivesNCAndLoopDelay) {
  const std::filesystem::path file = Write("star4.toml", kStarIncast);
  const Result r = RunCli("fluid '" + file.string() + "' --duration 2ms --no-check --out '" +
                          (dir_ / "out").string() + "'");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("4 flows into h0"), std::string::npos) << r.out;
  const nlohmann::json j = nlohmann::json::parse(ReadFile(dir_ / "out/summary.json"));
  EXPECT_EQ(j["scenario"], file.string());
  EXPECT_EQ(j["flows"], 4);
  EXPECT_DOUBLE_EQ(j["rate_gbps"].get<double>(), 40);
  // Two links: 2 x 2 x 1 us of propagation, and per link a data frame (1000 + 66 bytes + 20 of
  // preamble and gap = 1086 bytes, 217.2 ns at 40 Gb/s) out and a CNP (82 + 20 = 102 bytes,
  // 20.4 ns) back: 4000 + 2 x 237.6 = 4475.2 ns.
  EXPECT_DOUBLE_EQ(j["delay_ns"].get<double>(), 4475.2);
  EXPECT_DOUBLE_EQ(j["control_loop"]["propagation_ns"].get<double>(), 4000);
  EXPECT_DOUBLE_EQ(j["control_loop"]["serialisation_ns"].get<double>(), 475.2);
  EXPECT_EQ(j["control_loop"]["bottleneck"], "s0 -> h0");
  EXPECT_EQ(j["control_loop"]["hops"], 2);
  for (const char* key : {"flows", "rate", "delay", "starts"}) {
    EXPECT_EQ(j["origin"][key]["from"], "scenario") << key;
    EXPECT_EQ(j["origin"][key]["scenario"], file.string()) << key;
  }
  EXPECT_EQ(j["flow_starts_ns"], nlohmann::json::array({0.0, 0.0, 0.0, 0.0}));
  EXPECT_EQ(j["packet_bytes"], 1066);
  EXPECT_EQ(j["parameters"]["kmax_bytes"], 200000);
}

TEST_F(FluidScenarioCli, SlowestSharedLinkAndPerFlowStarts) {
  // Senders h3..h5 on s1, receiver h0 on s0, a 10 Gb/s s1-s0 link: three links per path.
  const std::filesystem::path file = Write("dumbbell.toml", R"(name = "db"
[topology]
type = "dumbbell"
hosts = 6
link_rate = "40Gbps"
bottleneck_rate = "10Gbps"
link_delay = "1us"
[switch.ecn]
kmax = "400KB"
[cc]
rai = "10Mbps"
[[flow]]
src = 3
dst = 0
size = "1GB"
start = "1ms"
[[flow]]
src = 4
dst = 0
size = "1GB"
start = "1.1ms"
[[flow]]
src = 5
dst = 0
size = "1GB"
start = "1.25ms"
)");
  const Result r =
      RunCli("fluid '" + file.string() + "' --set switch.ecn.pmax=0.02 --duration 2ms --no-check" +
             " --out '" + (dir_ / "out").string() + "'");
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(ReadFile(dir_ / "out/summary.json"));
  EXPECT_EQ(j["flows"], 3);
  EXPECT_DOUBLE_EQ(j["rate_gbps"].get<double>(), 10);
  EXPECT_EQ(j["control_loop"]["bottleneck"], "s1 -> s0");
  // 6 us of propagation; at 40 Gb/s twice 237.6 ns, at 10 Gb/s (1086 + 102) x 8 / 10 = 950.4 ns.
  EXPECT_DOUBLE_EQ(j["delay_ns"].get<double>(), 6000 + 2 * 237.6 + 950.4);
  EXPECT_EQ(j["flow_starts_ns"], nlohmann::json::array({0.0, 100000.0, 250000.0}));
  EXPECT_DOUBLE_EQ(j["control_loop"]["first_start_ns"].get<double>(), 1e6);
  EXPECT_DOUBLE_EQ(j["parameters"]["rai_gbps"].get<double>(), 0.01);
  EXPECT_EQ(j["parameters"]["kmax_bytes"], 400000);
  EXPECT_DOUBLE_EQ(j["parameters"]["pmax"].get<double>(), 0.02);
}

TEST_F(FluidScenarioCli, FlagsOverrideTheScenario) {
  const std::filesystem::path file = Write("star4.toml", kStarIncast);
  const Result r = RunCli("fluid '" + file.string() +
                          "' --flows 8 --delay 85us --quiet --duration 2ms --no-check --out '" +
                          (dir_ / "out").string() + "'");
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(ReadFile(dir_ / "out/summary.json"));
  EXPECT_EQ(j["flows"], 8);
  EXPECT_DOUBLE_EQ(j["delay_ns"].get<double>(), 85000);
  EXPECT_DOUBLE_EQ(j["rate_gbps"].get<double>(), 40);
  EXPECT_EQ(j["origin"]["flows"]["from"], "flag");
  EXPECT_EQ(j["origin"]["delay"]["from"], "flag");
  EXPECT_EQ(j["origin"]["rate"]["from"], "scenario");
  EXPECT_EQ(j["origin"]["starts"]["from"], "default");  // N is not the scenario's
  // Without a scenario nothing comes from one.
  const Result flags =
      RunCli("fluid --quiet --duration 1ms --no-check --out '" + (dir_ / "flags").string() + "'");
  ASSERT_EQ(flags.code, 0) << flags.out;
  const nlohmann::json f = nlohmann::json::parse(ReadFile(dir_ / "flags/summary.json"));
  EXPECT_TRUE(f["scenario"].is_null());
  EXPECT_EQ(f["origin"]["flows"]["from"], "default");
  EXPECT_TRUE(f["control_loop"].is_null());
}

TEST_F(FluidScenarioCli, FlowDependenciesAreAnInputError) {
  // The model's flows all start at their start times: it cannot wait for a flow to complete.
  const std::filesystem::path deps = Write("deps.toml", R"(name = "deps"
[topology]
type = "star"
hosts = 3
[[flow]]
id = "a"
src = 1
dst = 0
size = "1MB"
[[flow]]
src = 2
dst = 0
size = "1MB"
after = ["a"]
)");
  const std::string message = "the fluid model has no flow dependencies";
  // Flow 1 (from h2) cannot wait for a flow of h1: fails in the loader first.
  Result r = RunCli("fluid '" + deps.string() + "' --out '" + (dir_ / "out").string() + "'");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("neither sent nor received"), std::string::npos) << r.out;
  r = RunCli("fluid '" + deps.string() + "' --set flow.0.src=2 --out '" + (dir_ / "out").string() +
             "'");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find(deps.string() + ": " + message), std::string::npos) << r.out;
}

TEST_F(FluidScenarioCli, NotAnIncastIsAnInputErrorNamingTheFile) {
  const std::filesystem::path perm = Write("perm.toml", R"(name = "perm"
[topology]
type = "star"
hosts = 4
[workload]
type = "permutation"
size = "1MB"
)");
  Result r = RunCli("fluid '" + perm.string() + "' --out '" + (dir_ / "out").string() + "'");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find(perm.string() + ": not an incast"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4 receivers"), std::string::npos) << r.out;
  const std::filesystem::path none = Write("none.toml", "name = \"none\"\n");
  r = RunCli("fluid '" + none.string() + "' --out '" + (dir_ / "out").string() + "'");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("no flows"), std::string::npos) << r.out;
  const std::filesystem::path star = Write("star4.toml", kStarIncast);
  r = RunCli("fluid '" + star.string() + "' --set cc.algorithm=none --out '" +
             (dir_ / "out").string() + "'");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("cc.algorithm"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "out"));
}

TEST_F(FluidScenarioCli, MapParamIsAThirdAxis) {
  const Result r = RunCli(
      "fluid --map --map-flows 2,10 --map-delays 4us --map-param cc.rai=10Mbps,40Mbps "
      "--duration 5ms --packet 1000B --jobs 2 --out '" +
      (dir_ / "map").string() + "'");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("cc.rai=10Mbps\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cc.rai=40Mbps\n"), std::string::npos) << r.out;
  const std::string csv = ReadFile(dir_ / "map/map.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "cc.rai,flows,delay_ns,verdict,period_ns,queue_mean_bytes,queue_peak_to_peak_bytes,"
            "rc_gbps_mean,utilisation,fixed_point_queue_bytes");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 4) << csv;
  EXPECT_NE(csv.find("\n10Mbps,2,4000,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n40Mbps,10,4000,"), std::string::npos) << csv;
  const nlohmann::json j = nlohmann::json::parse(ReadFile(dir_ / "map/summary.json"));
  EXPECT_EQ(j["map_param"]["key"], "cc.rai");
  EXPECT_EQ(j["map_param"]["values"], nlohmann::json::array({"10Mbps", "40Mbps"}));
  EXPECT_DOUBLE_EQ(j["map_param"]["by_value"][0]["parameters"]["rai_gbps"].get<double>(), 0.01);
  ASSERT_EQ(j["cells"].size(), 4u);
  EXPECT_EQ(j["cells"][3]["param"], "40Mbps");
  // The fixed point depends on R_AI: the two values give different q*.
  EXPECT_NE(j["cells"][0]["fixed_point_queue_bytes"], j["cells"][2]["fixed_point_queue_bytes"]);
}

TEST_F(FluidScenarioCli, BadMapParamNamesTheOption) {
  const std::string out = " --duration 1ms --out '" + (dir_ / "map").string() + "'";
  for (const char* bad : {"cc.rai", "cc.nonsense=1,2", "cc.rai=1Mbps,fast", "cc.rai=1Mbps,1Mbps"}) {
    const Result r =
        RunCli(std::string("fluid --map --map-flows 2 --map-delays 4us --map-param ") + bad + out);
    EXPECT_EQ(r.code, 1) << bad;
    EXPECT_NE(r.out.find("--map-param"), std::string::npos) << bad << ": " << r.out;
  }
  const Result r = RunCli("fluid --map-param cc.rai=1Mbps" + out);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("--map"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "map"));
}

}  // namespace
}  // namespace dcqcn::testing
