// The fuzz targets' checks (fuzz/fuzz_targets.h) on every input a fuzzer once failed on
// (tests/fuzz/regressions/TARGET/) and on the seeds scripts/fuzz.sh starts from in this
// repository: examples, the HPCC sample and the built-in CDFs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "cli_util.h"
#include "fuzz/fuzz_targets.h"
#include "workload/cdf.h"

namespace dcqcn::fuzz {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> FilesUnder(const fs::path& dir, std::string_view ext = "") {
  std::vector<fs::path> out;
  if (!fs::exists(dir)) return out;  // a target nothing has failed on yet
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && (ext.empty() || e.path().extension() == ext)) {
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

const fs::path kSource = DCQCN_SOURCE_DIR;
const fs::path kRegressions = kSource / "tests/fuzz/regressions";

TEST(FuzzRegressions, ScenarioInputs) {
  for (const fs::path& p : FilesUnder(kRegressions / "scenario")) {
    EXPECT_EQ(ScenarioTarget(testing::ReadFile(p)), "") << p;
  }
}

TEST(FuzzRegressions, HpccConfigInputs) {
  const std::string workdir = PrepareHpccWorkdir(kSource);
  for (const fs::path& p : FilesUnder(kRegressions / "hpcc_config")) {
    EXPECT_EQ(HpccConfigTarget(testing::ReadFile(p), workdir), "") << p;
  }
}

TEST(FuzzRegressions, HpccFilesInputs) {
  for (const fs::path& p : FilesUnder(kRegressions / "hpcc_files")) {
    EXPECT_EQ(HpccFilesTarget(testing::ReadFile(p)), "") << p;
  }
}

TEST(FuzzRegressions, CdfInputs) {
  for (const fs::path& p : FilesUnder(kRegressions / "cdf")) {
    EXPECT_EQ(CdfTarget(testing::ReadFile(p)), "") << p;
  }
}

// The seeds pass the checks: every example round-trips through resolved.toml, with and without
// overrides, and so do the HPCC sample config and files.
TEST(FuzzSeeds, ExamplesRoundTrip) {
  const std::vector<fs::path> examples = FilesUnder(kSource / "examples", ".toml");
  ASSERT_GE(examples.size(), 10u);
  for (const fs::path& p : examples) {
    EXPECT_EQ(ScenarioTarget(testing::ReadFile(p)), "") << p;
  }
  EXPECT_EQ(ScenarioTarget(testing::ReadFile(kSource / "examples/incast_8to1.toml") +
                           "\n#--set\ncc.rai=10Mbps\nswitch.ecn.pmax=0.05\nflow.0.size=2MB"),
            "");
}

TEST(FuzzSeeds, HpccSampleRoundTrips) {
  const std::string workdir = PrepareHpccWorkdir(kSource);
  const fs::path mix = kSource / "tests/ns3/data/mix";
  EXPECT_EQ(
      HpccConfigTarget(testing::ReadFile(mix / "config_topology_flow_dcqcn_nomon.txt"), workdir),
      "");
  EXPECT_EQ(HpccFilesTarget(testing::ReadFile(mix / "topology.txt") + '\0' +
                            testing::ReadFile(mix / "flow.txt")),
            "");
}

TEST(FuzzSeeds, BuiltinCdfsPass) {
  for (const std::string& name : BuiltinCdfNames()) {
    EXPECT_EQ(CdfTarget(BuiltinCdfText(name)), "") << name;
  }
}

}  // namespace
}  // namespace dcqcn::fuzz
