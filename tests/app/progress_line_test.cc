// The progress line's text: time from the first flow's start, progress by flows finished,
// readable wall times (issue 28, item 10).
#include "app/progress_line.h"

#include <gtest/gtest.h>

namespace dcqcn {
namespace {

TEST(ProgressLine, WallTimesReadAtAGlance) {
  EXPECT_EQ(FormatWallTime(4.44), "4.4s");
  EXPECT_EQ(FormatWallTime(137), "2min 17s");
  EXPECT_EQ(FormatWallTime(3 * 3600 + 5 * 60 + 10), "3h 05min");
}

TEST(ProgressLine, HpccRunCountsFromTheFirstStartAndByFlowsFinished) {
  // An HPCC input: flows from 2 s, a stop time of 100 s, 3111 of 3207 flows done 12.06 ms in,
  // after 4.4 s of wall time. By time alone it would be 0.01% done, with days left.
  const Time origin = 2 * kSecond, end = 100 * kSecond, now = origin + 12061500 * kNanosecond;
  RunProgress p;
  p.now = now;
  p.end = end;
  p.origin = origin;
  p.flows_done = 3111;
  p.flows_total = 3207;
  p.events = 44000000;
  p.fraction = ProgressFraction(origin, end, now, p.flows_done, p.flows_total);
  EXPECT_NEAR(p.fraction, 3111.0 / 3207, 1e-12);
  const std::string text = ProgressText(p, 4.4);
  EXPECT_NE(text.find("sim 12.061ms (of <= 98s)"), std::string::npos) << text;
  EXPECT_NE(text.find("flows 3111/3207  97.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("wall 4.4s  left ~0.1s"), std::string::npos) << text;
  // The bound to 4 digits: the HPCC sample's stop time less its first start.
  p.end = origin + 99999172 * kNanosecond;
  EXPECT_NE(ProgressText(p, 4.4).find("(of <= 100ms)"), std::string::npos);
}

TEST(ProgressLine, ByTimeWhenFlowsRunToTheEnd) {
  // Long flows that never finish: progress is the share of the duration.
  EXPECT_NEAR(ProgressFraction(0, 40 * kMillisecond, 10 * kMillisecond, 0, 9), 0.25, 1e-12);
  EXPECT_NEAR(ProgressFraction(0, 40 * kMillisecond, 10 * kMillisecond, 3, 4), 0.75, 1e-12);
  EXPECT_EQ(ProgressFraction(0, 40 * kMillisecond, 50 * kMillisecond, 0, 9), 1);
}

}  // namespace
}  // namespace dcqcn
