// Flow dependencies through the command line: examples/dependencies.toml's claims (each waiting
// flow starts its delay after the completion its source host sees, the stages never overlap,
// the pipeline's length), `dcqcn check` printing them, and input errors with file, line and key.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cli_util.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using dcqcn::testing::CsvColumn;
using dcqcn::testing::ReadFile;
using dcqcn::testing::Result;
using dcqcn::testing::RunCli;
using DependenciesCli = dcqcn::testing::TempDirTest;

const std::string kExample = std::string(DCQCN_SOURCE_DIR) + "/examples/dependencies.toml";

// A flows.csv column as integers by the flow's id ("" read as -1).
std::map<std::string, int64_t> ById(const fs::path& csv, const std::string& column) {
  const std::vector<std::string> ids = CsvColumn(csv.string(), "id");
  const std::vector<std::string> values = CsvColumn(csv.string(), column);
  std::map<std::string, int64_t> out;
  for (size_t i = 0; i < ids.size(); ++i) {
    out[ids[i]] = values[i].empty() ? -1 : std::stoll(values[i]);
  }
  return out;
}

TEST_F(DependenciesCli, ExamplePipelineClaims) {
  const Result r = RunCli("run " + kExample + " --quiet --out " + (dir_ / "out").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const fs::path csv = dir_ / "out/flows.csv";
  EXPECT_EQ(ReadFile(csv).rfind("flow_id,src,dst,priority,size_bytes,start_ns,finish_ns,fct_ns,"
                                "ideal_fct_ns,slowdown,delivered_bytes,avg_gbps,tag,id,"
                                "delivered_ns\n",
                                0),
            0u);
  auto start = ById(csv, "start_ns");
  auto finish = ById(csv, "finish_ns");
  auto fct = ById(csv, "fct_ns");
  auto delivered = ById(csv, "delivered_ns");
  ASSERT_EQ(start.size(), 5u);
  for (const auto& [id, f] : finish) {
    EXPECT_GT(f, 0) << id << " finished";
    // Each column truncates its own picoseconds to ns: within 1 ns.
    EXPECT_NEAR(fct[id], f - start[id], 1) << id << ": the FCT runs from the actual start";
    EXPECT_LT(delivered[id], f) << id << ": delivered before acknowledged";
  }
  EXPECT_EQ(start["load"], 0);
  // Receiver side: h1 starts stage2 20 us after load's last byte reached it, and so on.
  EXPECT_EQ(start["stage2"], delivered["load"] + 20000);
  EXPECT_EQ(start["stage3"], delivered["stage2"] + 20000);
  // Sender side: h0 sends params when load's last ACK reaches it.
  EXPECT_EQ(start["params"], finish["load"]);
  // Two prerequisites: the later of stage3 and params (both delivered to h3), then 10 us.
  EXPECT_GT(delivered["stage3"], delivered["params"]);
  EXPECT_EQ(start["result"], std::max(delivered["stage3"], delivered["params"]) + 10000);
  // The stages never overlap, and the pipeline ends after about 0.73 ms.
  EXPECT_GT(start["stage2"], finish["load"] - 20000);
  EXPECT_GT(start["stage3"], delivered["stage2"]);
  EXPECT_NEAR(static_cast<double>(finish["result"]), 730000.0, 10000.0);
  // resolved.toml runs again to the same flows.
  const Result again = RunCli("run " + (dir_ / "out/resolved.toml").string() + " --quiet --out " +
                              (dir_ / "again").string());
  ASSERT_EQ(again.code, 0) << again.out;
  EXPECT_EQ(ReadFile(dir_ / "again/flows.csv"), ReadFile(csv));
}

TEST_F(DependenciesCli, CheckPrintsTheDependencies) {
  const Result counts = RunCli("check " + kExample, "2>&1 >/dev/null");
  EXPECT_NE(counts.out.find(": ok (4 hosts, 1 switch, 5 flows, 4 waiting for others)"),
            std::string::npos)
      << counts.out;
  const Result r = RunCli("check " + kExample, "2>/dev/null");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* line : {"id = \"stage2\"", "after = [\"load\"]", "after_delay = \"20us\"",
                           "after = [\"stage3\", \"params\"]", "after_delay = \"10us\""}) {
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
  }
}

TEST_F(DependenciesCli, SweepVariesTheComputeTime) {
  const Result r = RunCli("sweep " + kExample + " --vary flow.1.after_delay=10us,30us --out " +
                          (dir_ / "sweep").string());
  ASSERT_EQ(r.code, 0) << r.out;
  std::vector<int64_t> stage2;
  for (const char* run : {"000", "001"}) {
    const fs::path csv = dir_ / "sweep/runs" / run / "flows.csv";
    auto start = ById(csv, "start_ns");
    auto delivered = ById(csv, "delivered_ns");
    stage2.push_back(start["stage2"] - delivered["load"]);
  }
  EXPECT_EQ(stage2, (std::vector<int64_t>{10000, 30000}));
}

TEST_F(DependenciesCli, ErrorsNameFileLineAndKey) {
  const std::string flows =
      "[topology]\ntype = \"star\"\nhosts = 4\n"
      "[[flow]]\nid = \"a\"\nsrc = 0\ndst = 1\nsize = \"1MB\"\n"
      "[[flow]]\nid = \"b\"\nsrc = 2\ndst = 3\nsize = \"1MB\"\nafter = [\"a\"]\n";
  const fs::path scen = Write("bad.toml", flows);
  Result r = RunCli("check " + scen.string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find(scen.string() + ":14: flow[1].after[0]: flow \"a\" (h0 -> h1) is neither"),
            std::string::npos)
      << r.out;
  // The same through --set, on a flow that had no `after`.
  r = RunCli("run " + kExample + " --quiet --set 'flow.0.after=[\"result\"]' --out " +
             (dir_ / "x").string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("a cycle"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"load\" -> \"result\""), std::string::npos) << r.out;
}

}  // namespace
