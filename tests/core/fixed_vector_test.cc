// FixedVector: elements built in place that never move, destroyed in reverse, a full vector
// refuses.
#include "core/fixed_vector.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace dcqcn {
namespace {

// Neither copyable nor movable, like a port (links and events point at it).
struct Pinned {
  Pinned(int v, std::vector<int>* destroyed) : value(v), destroyed(destroyed) {}
  Pinned(const Pinned&) = delete;
  Pinned& operator=(const Pinned&) = delete;
  ~Pinned() { destroyed->push_back(value); }
  int value;
  std::vector<int>* destroyed;
};

TEST(FixedVectorTest, BuildsInPlaceAtStableAddressesAndDestroysInReverse) {
  std::vector<int> destroyed;
  {
    FixedVector<Pinned> v(3);
    EXPECT_EQ(v.capacity(), 3u);
    Pinned& first = v.emplace_back(10, &destroyed);
    v.emplace_back(11, &destroyed);
    Pinned& third = v.emplace_back(12, &destroyed);
    EXPECT_EQ(v.size(), 3u);
    EXPECT_EQ(&first, &v[0]);
    EXPECT_EQ(&third, &v[0] + 2);  // one block: addresses are computed
    EXPECT_EQ(v[1].value, 11);
    int sum = 0;
    for (const Pinned& p : v) sum += p.value;
    EXPECT_EQ(sum, 33);
    EXPECT_THROW(v.emplace_back(13, &destroyed), std::length_error);
    EXPECT_EQ(v.size(), 3u);
    EXPECT_TRUE(destroyed.empty());
  }
  EXPECT_EQ(destroyed, (std::vector<int>{12, 11, 10}));
}

TEST(FixedVectorTest, EmptyHoldsNothing) {
  FixedVector<int> v;
  EXPECT_EQ(v.size(), 0u);
  EXPECT_EQ(v.begin(), v.end());
  EXPECT_THROW(v.emplace_back(1), std::length_error);
}

}  // namespace
}  // namespace dcqcn
