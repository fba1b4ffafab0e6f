// EditDistance and the near-miss hints built on it.
#include "core/edit_distance.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace dcqcn {
namespace {

TEST(EditDistance, CountsEachEditOnce) {
  EXPECT_EQ(EditDistance("", ""), 0u);
  EXPECT_EQ(EditDistance("kmax", "kmax"), 0u);
  EXPECT_EQ(EditDistance("kmax", "kmin"), 2u);
  EXPECT_EQ(EditDistance("sender", "senders"), 1u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  // Two adjacent characters swapped are one edit, not two (issue 28, item 12: "ria").
  EXPECT_EQ(EditDistance("ria", "rai"), 1u);
  EXPECT_EQ(EditDistance("pmxa", "pmax"), 1u);
  EXPECT_EQ(EditDistance("ab", "ba"), 1u);
  EXPECT_EQ(EditDistance("abc", "ca"), 3u);  // optimal string alignment: no edit of a swap
}

TEST(EditDistance, SuggestsOnlyNearMisses) {
  const std::vector<std::string_view> names = {"rai", "rhai", "g", "min_rate", "timer"};
  EXPECT_EQ(NearMiss("ria", names), "rai");
  EXPECT_EQ(NearMiss("min_rte", names), "min_rate");
  EXPECT_EQ(NearMiss("x", names), "");
  EXPECT_EQ(NearMiss("banana", names), "");
  EXPECT_EQ(DidYouMean("timre", names), "; did you mean timer?");
  EXPECT_EQ(DidYouMean("zzz", names), "");
}

}  // namespace
}  // namespace dcqcn
