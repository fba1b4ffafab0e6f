// Tests of the DCQCN notification point (spec section 2, paper recipe): the first mark sends a
// CNP at once, later marks at most one CNP per interval N, sent when the interval ends.
#include "cc/dcqcn_np.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "core/units.h"

namespace dcqcn {
namespace {

constexpr Time kT0 = 1 * kMillisecond;
constexpr Time kN = 50 * kMicrosecond;

TEST(DcqcnNp, FirstMarkSendsCnpAtOnce) {
  // No CNP sent yet: the first CE mark is answered immediately and nothing stays pending.
  DcqcnNp np(kN);
  EXPECT_EQ(np.next_deadline(), kTimeNever);
  EXPECT_TRUE(np.OnMarkedPacket(kT0));
  EXPECT_EQ(np.next_deadline(), kTimeNever);
  EXPECT_FALSE(np.OnTimer(kT0 + kN));
}

TEST(DcqcnNp, MarkWithinIntervalIsPendingUntilIntervalEnds) {
  // A mark within N of the last CNP is deferred to last + N; more marks in the same interval add
  // nothing; OnTimer sends exactly one CNP, not before the deadline, and that CNP starts the next
  // interval.
  DcqcnNp np(kN);
  ASSERT_TRUE(np.OnMarkedPacket(kT0));
  EXPECT_FALSE(np.OnMarkedPacket(kT0 + 10 * kMicrosecond));
  EXPECT_EQ(np.next_deadline(), kT0 + kN);
  EXPECT_FALSE(np.OnMarkedPacket(kT0 + 20 * kMicrosecond));
  EXPECT_EQ(np.next_deadline(), kT0 + kN);
  EXPECT_FALSE(np.OnTimer(kT0 + kN - 1));
  EXPECT_EQ(np.next_deadline(), kT0 + kN);
  EXPECT_TRUE(np.OnTimer(kT0 + kN));
  EXPECT_EQ(np.next_deadline(), kTimeNever);
  EXPECT_FALSE(np.OnTimer(kT0 + kN));
  // The CNP at kT0 + N is the new reference.
  EXPECT_FALSE(np.OnMarkedPacket(kT0 + kN + 1 * kMicrosecond));
  EXPECT_EQ(np.next_deadline(), kT0 + 2 * kN);
}

TEST(DcqcnNp, MarkExactlyOneIntervalLaterSendsAtOnce) {
  // "now - last >= N" sends at once: the boundary is inclusive, one picosecond less is deferred.
  DcqcnNp np(kN);
  ASSERT_TRUE(np.OnMarkedPacket(kT0));
  EXPECT_TRUE(np.OnMarkedPacket(kT0 + kN));
  EXPECT_FALSE(np.OnMarkedPacket(kT0 + 2 * kN - 1));
  EXPECT_EQ(np.next_deadline(), kT0 + 2 * kN);
}

TEST(DcqcnNp, NoMarkNoCnp) {
  // An interval without marks sends nothing: no CNP means no feedback when uncongested.
  DcqcnNp np(kN);
  EXPECT_FALSE(np.OnTimer(kT0));
  ASSERT_TRUE(np.OnMarkedPacket(kT0));
  EXPECT_FALSE(np.OnTimer(kT0 + kN));
  EXPECT_FALSE(np.OnTimer(kT0 + 10 * kN));
  EXPECT_EQ(np.next_deadline(), kTimeNever);
}

TEST(DcqcnNp, DenseRandomMarksRespectInterval) {
  // A dense random mark pattern (fixed seed), driven like the simulator (OnTimer at every
  // deadline before the next mark): CNPs are always >= N apart, every mark is followed by a CNP
  // within N, and every CNP answers a mark at most N old.
  Rng rng(20240611, 3);
  DcqcnNp np(kN);
  std::vector<Time> marks;
  std::vector<Time> cnps;
  Time t = kT0;
  for (int i = 0; i < 20000; ++i) {
    // Mostly dense (mean gap 10us, sometimes simultaneous), now and then a quiet gap.
    t += static_cast<Time>(rng.Below(20 * kMicrosecond));
    if (rng.Bernoulli(0.02)) t += static_cast<Time>(rng.Below(300 * kMicrosecond));
    while (np.next_deadline() <= t) {
      const Time d = np.next_deadline();
      ASSERT_TRUE(np.OnTimer(d));
      cnps.push_back(d);
    }
    marks.push_back(t);
    if (np.OnMarkedPacket(t)) cnps.push_back(t);
  }
  if (np.next_deadline() != kTimeNever) {
    const Time d = np.next_deadline();
    ASSERT_TRUE(np.OnTimer(d));
    cnps.push_back(d);
  }
  ASSERT_GT(cnps.size(), 1000u);
  for (size_t i = 1; i < cnps.size(); ++i) {
    ASSERT_GE(cnps[i] - cnps[i - 1], kN) << "CNPs " << i - 1 << " and " << i;
  }
  for (Time m : marks) {
    auto it = std::lower_bound(cnps.begin(), cnps.end(), m);
    ASSERT_TRUE(it != cnps.end() && *it <= m + kN) << "mark at " << m << " never answered";
  }
  for (Time c : cnps) {
    auto it = std::upper_bound(marks.begin(), marks.end(), c);
    ASSERT_TRUE(it != marks.begin() && *std::prev(it) >= c - kN) << "CNP at " << c << " unmarked";
  }
}

TEST(DcqcnNp, ZeroIntervalAnswersEveryMark) {
  // cnp_interval = 0: every marked packet gets its own CNP, even several at the same time.
  DcqcnNp np(0);
  for (Time t : {kT0, kT0, kT0 + 1, kT0 + 2 * kMicrosecond}) {
    EXPECT_TRUE(np.OnMarkedPacket(t));
    EXPECT_EQ(np.next_deadline(), kTimeNever);
  }
}

TEST(DcqcnNp, InstancesAreIndependent) {
  // One NP per flow: one flow's CNP history does not defer another flow's first CNP.
  DcqcnNp a(kN);
  DcqcnNp b(kN);
  ASSERT_TRUE(a.OnMarkedPacket(kT0));
  EXPECT_FALSE(a.OnMarkedPacket(kT0 + 1 * kMicrosecond));
  EXPECT_TRUE(b.OnMarkedPacket(kT0 + 2 * kMicrosecond));
  EXPECT_EQ(b.next_deadline(), kTimeNever);
  EXPECT_EQ(a.next_deadline(), kT0 + kN);
  EXPECT_FALSE(b.OnMarkedPacket(kT0 + 3 * kMicrosecond));
  EXPECT_EQ(b.next_deadline(), kT0 + 2 * kMicrosecond + kN);
  EXPECT_TRUE(a.OnTimer(kT0 + kN));
  EXPECT_EQ(b.next_deadline(), kT0 + 2 * kMicrosecond + kN);
}

}  // namespace
}  // namespace dcqcn
