// `dcqcn sweep`: one row per run, the metric columns from each run's summary.json, and per-tag
// columns so that a victim's throughput needs no flows.csv.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "app/exit_codes.h"
#include "cli_util.h"
#include "core/error.h"
#include "output/mean_ci.h"
#include "run/sweep.h"
#include "test_util.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

// Each test gets a fresh folder of its own (removed afterwards).
using SweepCommand = testing::TempDirTest;

const char* kVictim = R"(name = "victim-mini"
duration = "3ms"
[topology]
type = "star"
hosts = 8
[cc]
algorithm = "none"
[[flow]]
src = 7
dst = 6
size = "1GB"
tag = "victim"
[workload]
type = "incast"
senders = 2
receiver = 0
size = "1GB"
)";

TEST_F(SweepCommand, PerTagColumns) {
  SweepOptions options;
  options.scenario = Write("s.toml", kVictim).string();
  options.vary = {"workload.senders=2,4"};
  options.out_dir = (dir_ / "out").string();
  options.quiet = true;
  ASSERT_EQ(SweepExitCode(RunSweepCommand(options), nullptr), 0);
  const std::string csv = (dir_ / "out/sweep.csv").string();
  const auto victim = testing::CsvColumn(csv, "tag.victim.flow_throughput_gbps.mean");
  const auto incast = testing::CsvColumn(csv, "tag.incast.flow_throughput_gbps.mean");
  const auto incast_flows = testing::CsvColumn(csv, "tag.incast.flows");
  ASSERT_EQ(victim.size(), 2u);
  // The victim has a port of its own; the incast flows share one.
  for (const std::string& v : victim) EXPECT_GT(std::stod(v), 30) << v;
  EXPECT_NEAR(std::stod(incast[0]), 36.8 / 2, 1.5);
  EXPECT_NEAR(std::stod(incast[1]), 36.8 / 4, 1.5);
  EXPECT_EQ(incast_flows[0], "2");
  EXPECT_EQ(incast_flows[1], "4");
  // The overall columns count the unfinished flows too (none finishes in 3 ms).
  const auto mean = testing::CsvColumn(csv, "flow_throughput_gbps.mean");
  EXPECT_GT(std::stod(mean[0]), 10);
  const auto jain = testing::CsvColumn(csv, "jain_fairness");
  EXPECT_LT(std::stod(jain[1]), 0.9);
  // An empty statistic is an empty cell, never 0.
  EXPECT_EQ(testing::CsvColumn(csv, "fct_slowdown.p50")[0], "");
}

TEST_F(SweepCommand, CollectiveColumns) {
  SweepOptions options;
  options.scenario = Write("c.toml",
                           "[topology]\ntype = \"star\"\nhosts = 4\n[[collective]]\n"
                           "op = \"allreduce\"\nsize = \"1MB\"\ntag = \"dp\"\n")
                         .string();
  options.vary = {"collective.0.size=1MB,4MB"};
  options.out_dir = (dir_ / "out").string();
  options.quiet = true;
  ASSERT_EQ(SweepExitCode(RunSweepCommand(options), nullptr), 0);
  const std::string csv = (dir_ / "out/sweep.csv").string();
  const auto busbw = testing::CsvColumn(csv, "collective.dp.mean.busbw_gbps");
  const auto finished = testing::CsvColumn(csv, "collective.dp.finished_iterations");
  const auto slowdown = testing::CsvColumn(csv, "collective.dp.mean.slowdown");
  ASSERT_EQ(busbw.size(), 2u);
  EXPECT_EQ(finished[0], "1");
  // A larger size amortises the steps' latency: more bus bandwidth, nearer the ideal (a lower
  // bound, never above the time).
  EXPECT_GT(std::stod(busbw[1]), std::stod(busbw[0]));
  for (const std::string& v : slowdown) {
    EXPECT_GE(std::stod(v), 1.0) << v;
    EXPECT_LE(std::stod(v), 1.05) << v;
  }
  EXPECT_LT(std::stod(slowdown[1]), std::stod(slowdown[0]));
}

TEST_F(SweepCommand, TooManyRunsIsAnInputErrorBeforeAnythingIsBuilt) {
  // 100^4 = 100 million combinations: refused at once, naming --vary and the list sizes.
  std::string values;
  for (int i = 1; i <= 100; ++i) {
    if (i > 1) values += ',';
    values += std::to_string(i);
  }
  SweepOptions options;
  options.vary = {"seed=" + values, "topology.hosts=" + values, "switch.ecn.pmax=" + values,
                  "cc.g=" + values};
  options.out_dir = (dir_ / "out").string();
  options.quiet = true;
  const std::string m = testing::InputErrorOf([&] { RunSweepCommand(options); });
  EXPECT_NE(m.find("--vary: 100 x 100 x 100 x 100 values make more than 1000000 runs"),
            std::string::npos)
      << m;
  EXPECT_FALSE(fs::exists(options.out_dir));
}

// A run that fails (here: a buffer too small for its reserves) is a row with its error; the
// other runs finish and sweep.csv is written; the command then exits 1.
TEST_F(SweepCommand, AFailedRunIsARowWithItsError) {
  SweepOptions options;
  options.scenario = Write("s.toml", kVictim).string();
  options.vary = {"switch.buffer=12MB,1KB,6MB"};
  options.sets = {"duration=1ms"};
  options.out_dir = (dir_ / "out").string();
  options.jobs = 2;
  options.quiet = true;
  EXPECT_EQ(SweepExitCode(RunSweepCommand(options), nullptr), 1);
  const std::string csv = (dir_ / "out/sweep.csv").string();
  const auto error = testing::CsvColumn(csv, "error");
  const auto run_dir = testing::CsvColumn(csv, "dir");
  const auto flows = testing::CsvColumn(csv, "flows_total");
  ASSERT_EQ(error.size(), 3u);
  EXPECT_EQ(error[0], "");
  EXPECT_NE(error[1].find("switch.buffer"), std::string::npos) << error[1];
  EXPECT_EQ(error[2], "");
  EXPECT_EQ(run_dir[1], "");
  EXPECT_EQ(flows[0], "3");
  EXPECT_EQ(flows[2], "3");
  EXPECT_TRUE(fs::exists(dir_ / "out/runs/002/summary.json"));
  EXPECT_FALSE(fs::exists(dir_ / "out/runs/001"));
  // Each run's folder is staged like a `dcqcn run` folder: nothing half-made is left in runs/.
  std::vector<std::string> entries;
  for (const auto& e : fs::directory_iterator(dir_ / "out/runs")) {
    entries.push_back(e.path().filename().string());
  }
  std::sort(entries.begin(), entries.end());
  EXPECT_EQ(entries, (std::vector<std::string>{"000", "002"}));
}

TEST_F(SweepCommand, EveryRunsValuesAreCheckedBeforeTheFirstRun) {
  // 64 senders do not fit the 8-host star: the sweep stops before running the first two runs,
  // naming the run and its values, and writes nothing.
  SweepOptions options;
  options.scenario = Write("s.toml", kVictim).string();
  options.vary = {"workload.senders=2,4,64"};
  options.out_dir = (dir_ / "out").string();
  options.quiet = true;
  std::vector<std::string> notes;
  options.note = [&](const std::string& line) { notes.push_back(line); };
  const std::string message = testing::InputErrorOf([&] { RunSweepCommand(options); });
  EXPECT_NE(message.find("sweep run 2 (workload.senders=64)"), std::string::npos) << message;
  EXPECT_EQ(notes, std::vector<std::string>{}) << "no run started";
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  // A [cc] value that only one run has is caught the same way.
  options.vary = {"cc.algorithm=none,dcqcn", "cc.g=0.5,2"};
  options.sets = {};
  const std::string cc = testing::InputErrorOf([&] { RunSweepCommand(options); });
  EXPECT_NE(cc.find("cc.g"), std::string::npos) << cc;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(SweepCommand, AKeyVariedTwiceIsAnError) {
  SweepOptions options;
  options.scenario = Write("s.toml", kVictim).string();
  options.vary = {"workload.senders=2,3", "duration=1ms,2ms", "workload.senders=4"};
  options.out_dir = (dir_ / "out").string();
  options.quiet = true;
  const std::string message = testing::InputErrorOf([&] { RunSweepCommand(options); });
  EXPECT_NE(message.find("workload.senders is already varied"), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(SweepCommand, EveryRunUsesTheBytesThatWereDigested) {
  // The scenario file is edited after the first run (from the sweep's own progress note, which
  // comes between runs): the second run still uses the bytes the sweep read, whose digest
  // sweep.json records and --resume checks.
  const fs::path file = Write("s.toml", kVictim);
  SweepOptions options;
  options.scenario = file.string();
  options.vary = {"workload.senders=2,3"};
  options.sets = {"duration=1ms"};
  options.out_dir = (dir_ / "out").string();
  int edits = 0;
  options.note = [&](const std::string&) {
    std::string edited = kVictim;
    edited.replace(edited.find("\"none\""), 6, "\"dcqcn\"");
    std::ofstream(file) << edited;
    ++edits;
  };
  ASSERT_EQ(SweepExitCode(RunSweepCommand(options), nullptr), 0);
  EXPECT_EQ(edits, 2);
  for (const char* run : {"000", "001"}) {
    const nlohmann::json summary = nlohmann::json::parse(
        testing::ReadFile((dir_ / "out/runs" / run / "summary.json").string()));
    EXPECT_EQ(summary["cc"]["algorithm"], "none") << run;
  }
}

// Every file under `dir`, by its path relative to it, with its content.
std::map<std::string, std::string> FilesUnder(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) {
      files[fs::relative(e.path(), dir).string()] = testing::ReadFile(e.path().string());
    }
  }
  return files;
}

// A summary without the fields that measure the machine rather than the run.
std::string WithoutWallFields(const std::string& summary_json) {
  nlohmann::json j = nlohmann::json::parse(summary_json);
  for (const char* key : {"wall_time_s", "events_per_s", "packet_hops_per_s", "peak_rss_mb"}) {
    EXPECT_TRUE(j.contains(key)) << key;
    j.erase(key);
  }
  return j.dump();
}

// Whether a sweep.csv or sweep_mean.csv column measures the machine: wall_time_s, and its
// mean and interval over seeds.
bool IsWallColumn(const std::string& column) {
  return column == "wall_time_s" || column == "wall_time_s.mean" || column == "wall_time_s.ci95";
}

// sweep.csv or sweep_mean.csv without its wall-time columns.
std::string WithoutWallColumn(const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  std::string out;
  std::vector<bool> wall;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    if (wall.empty()) {
      for (const std::string& c : cells) wall.push_back(IsWallColumn(c));
      EXPECT_NE(std::count(wall.begin(), wall.end(), true), 0) << line;
    }
    for (size_t i = 0; i < cells.size(); ++i) {
      if (i >= wall.size() || !wall[i]) out += cells[i] + ",";
    }
    out += "\n";
  }
  return out;
}

// Asserts that sweep folders `a` and `b` hold the same files, byte for byte apart from the
// fields that measure the machine.
void ExpectSameSweep(const fs::path& a, const fs::path& b) {
  const auto left = FilesUnder(a);
  const auto right = FilesUnder(b);
  ASSERT_EQ(left.size(), right.size()) << a << " " << b;
  for (const auto& [path, content] : left) {
    ASSERT_TRUE(right.count(path)) << path;
    if (path == "sweep.csv" || path == "sweep_mean.csv") {
      EXPECT_EQ(WithoutWallColumn(right.at(path)), WithoutWallColumn(content));
    } else if (fs::path(path).filename() == "summary.json") {
      EXPECT_EQ(WithoutWallFields(right.at(path)), WithoutWallFields(content)) << path;
    } else {
      EXPECT_EQ(right.at(path), content) << path;
    }
  }
}

// Shards run on their own (any machine, any order) and merged give the sweep run whole: every
// file byte for byte apart from wall-time fields. One run fails, in shard 2: its row and error
// survive the merge, and both the shard and the merge exit 1 as the whole sweep does.
TEST_F(SweepCommand, ShardsMergeIntoTheWholeSweep) {
  SweepOptions options;
  options.scenario = Write("s.toml", kVictim).string();
  options.vary = {"switch.buffer=12MB,1KB,6MB", "workload.senders=2,3"};
  options.sets = {"duration=1ms"};
  options.quiet = true;
  options.out_dir = (dir_ / "whole").string();
  EXPECT_EQ(SweepExitCode(RunSweepCommand(options), nullptr), 1);
  std::vector<std::string> shard_dirs;
  for (int k : {3, 1, 2}) {
    options.shard = fmt::format("{}/3", k);
    options.out_dir = (dir_ / fmt::format("shard{}", k)).string();
    EXPECT_EQ(SweepExitCode(RunSweepCommand(options), nullptr), k == 3 || k == 1 ? 1 : 0)
        << k;  // runs 2 and 3 fail
    shard_dirs.push_back(options.out_dir);
  }
  // Shard 1 of 3 holds runs 0 and 3: only its rows.
  EXPECT_EQ(testing::CsvColumn((dir_ / "shard1/sweep.csv").string(), "run"),
            (std::vector<std::string>{"0", "3"}));
  SweepMergeOptions merge;
  merge.out_dir = (dir_ / "merged").string();
  merge.shard_dirs = shard_dirs;
  merge.quiet = true;
  EXPECT_EQ(SweepExitCode(RunSweepMergeCommand(merge), nullptr), 1);

  ExpectSameSweep(dir_ / "whole", dir_ / "merged");
  const auto error = testing::CsvColumn((dir_ / "merged/sweep.csv").string(), "error");
  ASSERT_EQ(error.size(), 6u);
  EXPECT_NE(error[2].find("switch.buffer"), std::string::npos) << error[2];
}

// A sweep stopped after its first run keeps the finished runs in OUT.unfinished; the same
// command with --resume runs only the others and gives the sweep run in one go. Without
// --resume the unfinished sweep is never deleted by accident.
TEST_F(SweepCommand, AnInterruptedSweepResumesWhereItStopped) {
  SweepOptions options;
  options.scenario = Write("s.toml", kVictim).string();
  options.vary = {"workload.senders=2,3,4,5"};
  options.sets = {"duration=2ms"};
  options.quiet = true;
  options.out_dir = (dir_ / "whole").string();
  ASSERT_EQ(SweepExitCode(RunSweepCommand(options), nullptr), 0);

  const fs::path out = dir_ / "out";
  const fs::path unfinished = dir_ / "out.unfinished";
  std::atomic<bool> stop{false};
  options.stop = &stop;
  options.out_dir = out.string();
  // Stop as soon as run 0 is complete (a later run is then under way).
  std::thread watcher([&] {
    while (!fs::exists(unfinished / "runs/000/summary.json")) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    stop = true;
  });
  std::string message;
  try {
    RunSweepCommand(options);
  } catch (const Interrupted& e) {
    message = e.what();
  }
  watcher.join();
  EXPECT_NE(message.find("--resume"), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(out));
  ASSERT_TRUE(fs::exists(unfinished / "runs/000/summary.json"));
  EXPECT_FALSE(fs::exists(unfinished / "runs/003")) << "every run finished before the stop";
  const std::string kept = testing::ReadFile((unfinished / "runs/000/summary.json").string());

  options.stop = nullptr;
  EXPECT_NE(testing::InputErrorOf([&] { RunSweepCommand(options); }).find("add --resume"),
            std::string::npos);
  // Resuming another sweep into the same folder is refused, naming what differs.
  options.resume = true;
  options.sets = {"duration=3ms"};
  EXPECT_NE(testing::InputErrorOf([&] { RunSweepCommand(options); }).find("its sets is"),
            std::string::npos);
  options.sets = {"duration=2ms"};
  ASSERT_EQ(SweepExitCode(RunSweepCommand(options), nullptr), 0);
  EXPECT_FALSE(fs::exists(unfinished));
  EXPECT_EQ(testing::ReadFile((out / "runs/000/summary.json").string()), kept) << "run 0 ran again";
  ExpectSameSweep(dir_ / "whole", out);
  // Resuming a complete sweep runs nothing.
  ASSERT_EQ(SweepExitCode(RunSweepCommand(options), nullptr), 0);
  EXPECT_EQ(testing::ReadFile((out / "runs/000/summary.json").string()), kept);
  // Nor does a changed scenario file resume.
  fs::rename(out, unfinished);
  fs::remove_all(unfinished / "runs/003");
  Write("s.toml", std::string(kVictim) + "# changed\n");
  EXPECT_NE(testing::InputErrorOf([&] { RunSweepCommand(options); }).find("scenario_fnv1a64"),
            std::string::npos);
}

TEST_F(SweepCommand, ShardAndMergeErrorsAreInputErrors) {
  SweepOptions options;
  options.scenario = Write("s.toml", kVictim).string();
  options.vary = {"workload.senders=2,3"};
  options.sets = {"duration=1ms"};
  options.quiet = true;
  options.out_dir = (dir_ / "x").string();
  for (const char* bad : {"0/2", "3/2", "2", "1/2/3", "a/b", "1/0"}) {
    options.shard = bad;
    EXPECT_NE(testing::InputErrorOf([&] {
                RunSweepCommand(options);
              }).find(fmt::format("--shard {}: expected K/N", bad)),
              std::string::npos)
        << bad;
  }
  options.shard = "3/3";  // two runs: shard 3 has none
  EXPECT_NE(testing::InputErrorOf([&] { RunSweepCommand(options); }).find("would run none"),
            std::string::npos);
  options.shard = "1/2";
  options.out_dir = (dir_ / "a1").string();
  ASSERT_EQ(SweepExitCode(RunSweepCommand(options), nullptr), 0);
  options.shard = "2/2";
  options.sets = {"duration=2ms"};  // another sweep
  options.out_dir = (dir_ / "b2").string();
  ASSERT_EQ(SweepExitCode(RunSweepCommand(options), nullptr), 0);

  SweepMergeOptions merge;
  merge.out_dir = (dir_ / "m").string();
  merge.quiet = true;
  merge.shard_dirs = {(dir_ / "a1").string()};
  EXPECT_NE(testing::InputErrorOf([&] { RunSweepMergeCommand(merge); }).find("shards missing: 2/2"),
            std::string::npos);
  merge.shard_dirs = {(dir_ / "a1").string(), (dir_ / "b2").string()};
  EXPECT_NE(testing::InputErrorOf([&] {
              RunSweepMergeCommand(merge);
            }).find("a shard of another sweep: its sets is"),
            std::string::npos);
  merge.shard_dirs = {(dir_ / "a1").string(), (dir_ / "a1").string()};
  EXPECT_NE(testing::InputErrorOf([&] { RunSweepMergeCommand(merge); }).find("shard 1 is also"),
            std::string::npos);
  merge.shard_dirs = {(dir_ / "x").string()};
  EXPECT_NE(testing::InputErrorOf([&] { RunSweepMergeCommand(merge); }).find("sweep.json"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "m"));

  // From the command line: a missing shard is exit code 1 with the message, no OUT is usage.
  const testing::Result r = testing::RunCli(
      fmt::format("sweep merge {} {}", (dir_ / "m").string(), (dir_ / "a1").string()), "2>&1");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("shards missing: 2/2"), std::string::npos) << r.out;
  EXPECT_EQ(testing::RunCli("sweep merge", "2>&1").code, 2);
}

// Run folders an earlier process left are checked against the plan before they are trusted:
// a damaged summary, a missing file or another run's folder is refused, naming the run; a merge
// never writes over its own shards (issue 28, item 4).
TEST_F(SweepCommand, ResumeAndMergeCheckEveryRunFolder) {
  SweepOptions options;
  options.scenario = Write("s.toml", kVictim).string();
  options.vary = {"workload.senders=2,3,4"};
  options.sets = {"duration=1ms"};
  options.quiet = true;
  for (int k : {1, 2}) {
    options.shard = fmt::format("{}/2", k);
    options.out_dir = (dir_ / fmt::format("shard{}", k)).string();
    ASSERT_EQ(SweepExitCode(RunSweepCommand(options), nullptr), 0);
  }
  SweepMergeOptions merge;
  merge.out_dir = (dir_ / "m").string();
  merge.quiet = true;
  merge.shard_dirs = {(dir_ / "shard1").string(), (dir_ / "shard2").string()};
  const fs::path run0 = dir_ / "shard1/runs/000";
  const fs::path run2 = dir_ / "shard1/runs/002";
  const std::string summary0 = testing::ReadFile((run0 / "summary.json").string());
  auto merge_error = [&] { return testing::InputErrorOf([&] { RunSweepMergeCommand(merge); }); };
  for (const char* bad : {"null", "[1, 2]", "\"text\"", "{\"scenario\": \"x\"}"}) {
    std::ofstream(run0 / "summary.json") << bad;
    const std::string e = merge_error();
    EXPECT_NE(e.find("runs/000/summary.json: not a run's summary"), std::string::npos) << e;
  }
  std::ofstream(run0 / "summary.json") << summary0;
  // Runs 0 and 2 swapped: each holds the other's values.
  fs::rename(run0, dir_ / "tmp");
  fs::rename(run2, run0);
  fs::rename(dir_ / "tmp", run2);
  std::string e = merge_error();
  EXPECT_NE(e.find("runs/000: holds the run \"victim-mini_workload.senders=4\", but run 0 of this "
                   "sweep is workload.senders=2"),
            std::string::npos)
      << e;
  fs::rename(run0, dir_ / "tmp");
  fs::rename(run2, run0);
  fs::rename(dir_ / "tmp", run2);
  fs::remove(run0 / "flows.csv");
  e = merge_error();
  EXPECT_NE(e.find("runs/000: not a finished run: it has no flows.csv"), std::string::npos) << e;
  EXPECT_FALSE(fs::exists(dir_ / "m"));
  // Into one of its shards, or a folder that holds one: refused before anything is touched.
  merge.out_dir = (dir_ / "shard1").string();
  EXPECT_NE(merge_error().find("is the shard"), std::string::npos);
  merge.out_dir = dir_.string() + "/";
  EXPECT_NE(merge_error().find("holds the shard"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir_ / "shard1/sweep.json"));

  // --resume checks the runs it keeps the same way.
  fs::rename(dir_ / "shard1", dir_ / "shard1.unfinished");
  options.shard = "1/2";
  options.out_dir = (dir_ / "shard1").string();
  options.resume = true;
  e = testing::InputErrorOf([&] { RunSweepCommand(options); });
  EXPECT_NE(e.find("runs/000: not a finished run: it has no flows.csv"), std::string::npos) << e;
  std::ofstream(dir_ / "shard1.unfinished/runs/000/flows.csv") << "";
  std::ofstream(dir_ / "shard1.unfinished/runs/002/summary.json") << "null";
  e = testing::InputErrorOf([&] { RunSweepCommand(options); });
  EXPECT_NE(e.find("runs/002/summary.json: not a run's summary"), std::string::npos) << e;
}

// --seeds N repeats every point with seed = 1..N; sweep.csv keeps a row per run and
// sweep_mean.csv gives each point's mean over the seeds and its 95% confidence interval. A
// merge of shards writes it too.
TEST_F(SweepCommand, SeedsGiveMeansWithConfidenceIntervals) {
  SweepOptions options;
  options.scenario = Write("s.toml", kVictim).string();
  options.vary = {"workload.senders=2,3"};
  options.seeds = 3;
  options.sets = {"duration=1ms", "workload.start=\"0us\""};
  options.out_dir = (dir_ / "whole").string();
  options.quiet = true;
  ASSERT_EQ(SweepExitCode(RunSweepCommand(options), nullptr), 0);
  const std::string csv = (dir_ / "whole/sweep.csv").string();
  EXPECT_EQ(testing::CsvColumn(csv, "seed"),
            (std::vector<std::string>{"1", "2", "3", "1", "2", "3"}));
  const std::string mean = (dir_ / "whole/sweep_mean.csv").string();
  EXPECT_EQ(testing::CsvColumn(mean, "workload.senders"), (std::vector<std::string>{"2", "3"}));
  EXPECT_EQ(testing::CsvColumn(mean, "seeds"), (std::vector<std::string>{"3", "3"}));
  // The mean and interval of a metric, recomputed from sweep.csv's rows of the first point.
  const auto victim = testing::CsvColumn(csv, "tag.victim.flow_throughput_gbps.mean");
  std::vector<double> v;
  for (int i = 0; i < 3; ++i) v.push_back(std::stod(victim[i]));
  const MeanCi expected = MeanCi95(v);
  EXPECT_DOUBLE_EQ(
      std::stod(testing::CsvColumn(mean, "tag.victim.flow_throughput_gbps.mean.mean")[0]),
      expected.mean);
  const std::string ci = testing::CsvColumn(mean, "tag.victim.flow_throughput_gbps.mean.ci95")[0];
  if (expected.half_width > 0) {
    EXPECT_DOUBLE_EQ(std::stod(ci), expected.half_width);
  } else {
    EXPECT_EQ(std::stod(ci), 0);  // every seed gave the same value
  }
  // Seeds twice is an error.
  options.vary.push_back("seed=1,2");
  EXPECT_NE(
      testing::InputErrorOf([&] { RunSweepCommand(options); }).find("--seeds and --vary seed"),
      std::string::npos);
  options.vary.pop_back();
  // Shards of a seeded sweep merge into the same tables.
  std::vector<std::string> shard_dirs;
  for (int k : {1, 2}) {
    options.shard = fmt::format("{}/2", k);
    options.out_dir = (dir_ / fmt::format("shard{}", k)).string();
    ASSERT_EQ(SweepExitCode(RunSweepCommand(options), nullptr), 0);
    shard_dirs.push_back(options.out_dir);
  }
  SweepMergeOptions merge;
  merge.out_dir = (dir_ / "merged").string();
  merge.shard_dirs = shard_dirs;
  merge.quiet = true;
  ASSERT_EQ(SweepExitCode(RunSweepMergeCommand(merge), nullptr), 0);
  EXPECT_EQ(testing::CsvColumn((dir_ / "merged/sweep_mean.csv").string(), "jain_fairness.mean"),
            testing::CsvColumn(mean, "jain_fairness.mean"));
  ExpectSameSweep(dir_ / "whole", dir_ / "merged");
}

// docs/cluster.md lists the fields that measure the machine, which are all a merged or MPI
// sweep may differ in: every such column of sweep.csv and sweep_mean.csv must be among them
// (issue 28, item 8: sweep_mean.csv's were missing).
TEST_F(SweepCommand, TheClusterDocListsEveryMachineColumn) {
  SweepOptions options;
  options.scenario = Write("s.toml", kVictim).string();
  options.seeds = 2;
  options.sets = {"duration=1ms", "workload.start=\"0us\""};
  options.out_dir = (dir_ / "s").string();
  options.quiet = true;
  ASSERT_EQ(SweepExitCode(RunSweepCommand(options), nullptr), 0);
  const std::string doc = testing::ReadFile(std::string(DCQCN_SOURCE_DIR) + "/docs/cluster.md");
  int checked = 0;
  for (const char* file : {"sweep.csv", "sweep_mean.csv"}) {
    const std::string csv = testing::ReadFile(dir_ / "s" / file);
    std::stringstream header(csv.substr(0, csv.find('\n')));
    for (std::string column; std::getline(header, column, ',');) {
      if (!IsWallColumn(column)) continue;
      EXPECT_NE(doc.find("`" + column + "`"), std::string::npos) << column << " of " << file;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3);
}

}  // namespace
}  // namespace dcqcn
