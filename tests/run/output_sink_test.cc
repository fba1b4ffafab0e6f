// A run walks every sink through its steps in order, the caller's after the scenario's own; a
// sink's summary fields reach summary.json and its files the run's folder.
#include "run/output_sink.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "run/run_scenario.h"
#include "test_util.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

class RecordingSink : public OutputSink {
 public:
  void Start(Engine& engine, const std::string& dir) override {
    steps.push_back("start");
    flows_at_start = engine.net().num_flows();
  }
  void Finish(RunInfo& info) override {
    steps.push_back("finish");
    outcomes_at_finish = info.outcomes.size();
  }
  void Summarize(nlohmann::json& summary) override {
    steps.push_back("summarize");
    has_own_fields = summary.contains("flows_finished");
    summary["recording"] = 42;
  }
  void Write(const Network&, const RunInfo&, const nlohmann::json& summary,
             const std::string& dir) override {
    steps.push_back("write");
    std::ofstream(dir + "/recording.txt") << summary["recording"].get<int>() << "\n";
    folder_had_flows = fs::exists(dir + "/flows.csv");
  }
  std::vector<std::string> steps;
  size_t flows_at_start = 0;
  size_t outcomes_at_finish = 0;
  bool has_own_fields = false;
  bool folder_had_flows = false;
};

TEST(OutputSink, ACallersSinkIsWalkedAfterTheScenariosOwn) {
  const Scenario s = testing::IncastScenario(2, 100000);
  const fs::path dir = fs::temp_directory_path() / ("dcqcn_sink_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  RecordingSink sink;
  RunOptions options;
  options.out_dir = dir.string();
  options.extra_sinks = {&sink};
  const nlohmann::json summary = RunScenario(s, options);
  EXPECT_EQ(sink.steps, (std::vector<std::string>{"start", "finish", "summarize", "write"}));
  EXPECT_EQ(sink.flows_at_start, 2u);
  EXPECT_EQ(sink.outcomes_at_finish, 2u);
  EXPECT_TRUE(sink.has_own_fields);
  EXPECT_EQ(summary["recording"], 42);
  EXPECT_TRUE(sink.folder_had_flows) << "the scenario's own files come first";
  std::ifstream in(dir / "recording.txt");
  int v = 0;
  in >> v;
  EXPECT_EQ(v, 42);
  // Without a folder, nothing is written, but the summary still has the sink's fields.
  RecordingSink quiet;
  RunOptions no_folder;
  no_folder.extra_sinks = {&quiet};
  const nlohmann::json no_files = RunScenario(s, no_folder);
  EXPECT_EQ(quiet.steps, (std::vector<std::string>{"start", "finish", "summarize"}));
  EXPECT_EQ(no_files["recording"], 42);
  fs::remove_all(dir);
}

// A stop request that comes after the run's last check, while it writes, still stops it: the
// caller commits nothing (it used to return as if complete, and the command exited 0).
TEST(OutputSink, AStopWhileTheRunWritesStopsIt) {
  const Scenario s = testing::IncastScenario(2, 100000);
  std::atomic<bool> stop{false};
  RecordingSink late;
  RunOptions options;
  options.stop = &stop;
  options.extra_sinks = {&late};
  options.after_run = [&](const Network&) { stop = true; };
  EXPECT_THROW(RunScenario(s, options), Interrupted);
  EXPECT_EQ(late.steps, (std::vector<std::string>{"start", "finish", "summarize"}));
}

}  // namespace
}  // namespace dcqcn
