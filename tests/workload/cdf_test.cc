// Tests of flow-size CDFs: parsing and its errors (with line numbers), the exact mean, sampling
// that reproduces the mean, and the built-in distributions matching data/workloads/.
#include "workload/cdf.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/error.h"

namespace dcqcn {
namespace {

std::string ErrorOf(const std::string& text) {
  try {
    FlowSizeCdf::Parse(text, "cdf.txt");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(FlowSizeCdf, ParsesHpccFormatWithComments) {
  const FlowSizeCdf cdf = FlowSizeCdf::Parse("# a comment\n\n0 0\n100 50  # half\n300 100\n", "x");
  ASSERT_EQ(cdf.points().size(), 3u);
  EXPECT_DOUBLE_EQ(cdf.points()[1].size, 100);
  EXPECT_DOUBLE_EQ(cdf.points()[1].percent, 50);
  // Segment midpoints times probabilities: 50 * 0.5 + 200 * 0.5.
  EXPECT_DOUBLE_EQ(cdf.Mean(), 125);
}

TEST(FlowSizeCdf, ExactMeanOfTheBuiltInDistributions) {
  // WebSearch: sum over segments of (x0 + x1) / 2 * (p1 - p0) / 100, worked out by hand.
  EXPECT_NEAR(LoadFlowSizeCdf("websearch").Mean(), 1711250, 1e-6);
  const FlowSizeCdf hadoop = LoadFlowSizeCdf("hadoop");
  double mean = 0;
  for (size_t i = 1; i < hadoop.points().size(); ++i) {
    const auto& a = hadoop.points()[i - 1];
    const auto& b = hadoop.points()[i];
    mean += (a.size + b.size) / 2 * (b.percent - a.percent) / 100;
  }
  EXPECT_DOUBLE_EQ(hadoop.Mean(), mean);
}

TEST(FlowSizeCdf, SampleMeanMatchesTheExactMean) {
  // Within 1%, with enough samples that 1% is at least 3.5 standard deviations of the sample
  // mean: WebSearch's sizes have a coefficient of variation of 2.3 (200k samples: sd 0.52%),
  // Hadoop's 5.6 (200k samples would give sd 1.24%, so it needs 4M).
  for (const auto& [name, samples] :
       {std::pair{"websearch", 1000000}, std::pair{"hadoop", 4000000}}) {
    const FlowSizeCdf cdf = LoadFlowSizeCdf(name);
    Rng rng(42, 1);
    double sum = 0;
    for (int i = 0; i < samples; ++i) sum += static_cast<double>(cdf.Sample(rng));
    EXPECT_NEAR(sum / samples / cdf.Mean(), 1.0, 0.01) << name;
  }
}

TEST(FlowSizeCdf, SamplesInterpolateWithinSegments) {
  // One segment from 1000 to 2000 bytes: samples are uniform on it, never outside.
  const FlowSizeCdf cdf = FlowSizeCdf::Parse("1000 0\n2000 100\n", "x");
  Rng rng(7, 3);
  int below_middle = 0;
  for (int i = 0; i < 10000; ++i) {
    const Bytes b = cdf.Sample(rng);
    ASSERT_GE(b, 1000);
    ASSERT_LT(b, 2000);
    below_middle += b < 1500;
  }
  EXPECT_NEAR(below_middle, 5000, 300);
}

TEST(FlowSizeCdf, ZeroProbabilitySegmentsAreNeverDrawn) {
  const FlowSizeCdf cdf = FlowSizeCdf::Parse("0 0\n10 50\n5000 50\n5010 100\n", "x");
  Rng rng(1, 2);
  for (int i = 0; i < 10000; ++i) {
    const Bytes b = cdf.Sample(rng);
    ASSERT_TRUE(b <= 10 || b >= 5000) << b;
    ASSERT_GE(b, 1);  // a flow has at least one byte
  }
}

TEST(FlowSizeCdf, ErrorsNameTheLine) {
  EXPECT_NE(ErrorOf("0 0\nabc 50\n100 100\n").find("cdf.txt:2:"), std::string::npos);
  EXPECT_NE(ErrorOf("0 0\n100\n").find("cdf.txt:2:"), std::string::npos);
  EXPECT_NE(ErrorOf("0 0\n100 50 7\n200 100\n").find("cdf.txt:2:"), std::string::npos);
  EXPECT_NE(ErrorOf("0 10\n100 100\n").find("first point at 0 percent"), std::string::npos);
  EXPECT_NE(ErrorOf("0 0\n100 90\n")
                .find("cdf.txt:2: flow-size CDF: expected the last point at "
                      "100 percent"),
            std::string::npos);
  EXPECT_NE(ErrorOf("0 0\n100 60\n50 100\n").find("cdf.txt:3:"), std::string::npos);
  EXPECT_NE(ErrorOf("0 0\n100 60\n200 50\n").find("never decrease"), std::string::npos);
  EXPECT_NE(ErrorOf("0 0\n100 120\n").find("0..100"), std::string::npos);
  EXPECT_NE(ErrorOf("-5 0\n100 100\n").find("size >= 0"), std::string::npos);
  EXPECT_NE(ErrorOf("").find("at least two points"), std::string::npos);
  EXPECT_NE(ErrorOf("0 0\n0 100\n").find("at least 1 byte"), std::string::npos);
}

TEST(FlowSizeCdf, MissingFileNamesItAndTheBuiltIns) {
  try {
    LoadFlowSizeCdf("/nonexistent/web.txt");
    FAIL() << "accepted a missing file";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("/nonexistent/web.txt"), std::string::npos) << m;
    EXPECT_NE(m.find("websearch, hadoop"), std::string::npos) << m;
  }
}

TEST(FlowSizeCdf, BuiltInsAreTheShippedDataFilesAndTheHpccPoints) {
  for (const std::string& name : BuiltinCdfNames()) {
    const std::filesystem::path file =
        std::filesystem::path(DCQCN_SOURCE_DIR) / "data/workloads" / (name + ".txt");
    std::ifstream in(file, std::ios::binary);
    ASSERT_TRUE(in) << file;
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), std::string(BuiltinCdfText(name))) << name;
    EXPECT_NE(text.str().find("SIGCOMM"), std::string::npos) << name << " cites its paper";
  }
  EXPECT_TRUE(BuiltinCdfText("nope").empty());
  // The HPCC simulator's WebSearch points, as published with it.
  const FlowSizeCdf websearch = LoadFlowSizeCdf("websearch");
  const auto& p = websearch.points();
  ASSERT_EQ(p.size(), 12u);
  EXPECT_EQ(p[5].size, 80000);
  EXPECT_EQ(p[5].percent, 53);
  EXPECT_EQ(p.back().size, 30000000);
}

}  // namespace
}  // namespace dcqcn
