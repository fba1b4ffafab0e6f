// Tests of the DCQCN notification point (spec section 2, paper recipe): the first mark sends a
// CNP at once, later marks at most one CNP per interval N, sent when the interval ends; with a
// CNP generator that takes time, N counts from when the CNP leaves and marks are folded into a
// CNP still waiting.
#include "cc/dcqcn/dcqcn_np.h"

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

// The NP as DcqcnCc drives it with an unlimited CNP generator (cnp_service_time 0): a CNP that
// becomes due leaves at once.
bool Mark(DcqcnNp& np, Time now) {
  const bool due = np.OnMarkedPacket(now);
  if (due) np.OnCnpSent(now);
  return due;
}
bool Timer(DcqcnNp& np, Time now) {
  const bool due = np.OnTimer(now);
  if (due) np.OnCnpSent(now);
  return due;
}

TEST(DcqcnNp, FirstMarkSendsCnpAtOnce) {
  // No CNP sent yet: the first CE mark is answered immediately and nothing stays pending.
  DcqcnNp np(kN);
  EXPECT_EQ(np.next_deadline(), kTimeNever);
  EXPECT_TRUE(Mark(np, kT0));
  EXPECT_EQ(np.next_deadline(), kTimeNever);
  EXPECT_FALSE(Timer(np, kT0 + kN));
}

TEST(DcqcnNp, MarkWithinIntervalIsPendingUntilIntervalEnds) {
  // A mark within N of the last CNP is deferred to last + N; more marks in the same interval add
  // nothing; OnTimer sends exactly one CNP, not before the deadline, and that CNP starts the next
  // interval.
  DcqcnNp np(kN);
  ASSERT_TRUE(Mark(np, kT0));
  EXPECT_FALSE(Mark(np, kT0 + 10 * kMicrosecond));
  EXPECT_EQ(np.next_deadline(), kT0 + kN);
  EXPECT_FALSE(Mark(np, kT0 + 20 * kMicrosecond));
  EXPECT_EQ(np.next_deadline(), kT0 + kN);
  EXPECT_FALSE(Timer(np, kT0 + kN - 1));
  EXPECT_EQ(np.next_deadline(), kT0 + kN);
  EXPECT_TRUE(Timer(np, kT0 + kN));
  EXPECT_EQ(np.next_deadline(), kTimeNever);
  EXPECT_FALSE(Timer(np, kT0 + kN));
  // The CNP at kT0 + N is the new reference.
  EXPECT_FALSE(Mark(np, kT0 + kN + 1 * kMicrosecond));
  EXPECT_EQ(np.next_deadline(), kT0 + 2 * kN);
}

TEST(DcqcnNp, MarkExactlyOneIntervalLaterSendsAtOnce) {
  // "now - last >= N" sends at once: the boundary is inclusive, one picosecond less is deferred.
  DcqcnNp np(kN);
  ASSERT_TRUE(Mark(np, kT0));
  EXPECT_TRUE(Mark(np, kT0 + kN));
  EXPECT_FALSE(Mark(np, kT0 + 2 * kN - 1));
  EXPECT_EQ(np.next_deadline(), kT0 + 2 * kN);
}

TEST(DcqcnNp, NoMarkNoCnp) {
  // An interval without marks sends nothing: no CNP means no feedback when uncongested.
  DcqcnNp np(kN);
  EXPECT_FALSE(Timer(np, kT0));
  ASSERT_TRUE(Mark(np, kT0));
  EXPECT_FALSE(Timer(np, kT0 + kN));
  EXPECT_FALSE(Timer(np, kT0 + 10 * kN));
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
      ASSERT_TRUE(Timer(np, d));
      cnps.push_back(d);
    }
    marks.push_back(t);
    if (Mark(np, t)) cnps.push_back(t);
  }
  if (np.next_deadline() != kTimeNever) {
    const Time d = np.next_deadline();
    ASSERT_TRUE(Timer(np, d));
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
    EXPECT_TRUE(Mark(np, t));
    EXPECT_EQ(np.next_deadline(), kTimeNever);
  }
}

TEST(DcqcnNp, InstancesAreIndependent) {
  // One NP per flow: one flow's CNP history does not defer another flow's first CNP.
  DcqcnNp a(kN);
  DcqcnNp b(kN);
  ASSERT_TRUE(Mark(a, kT0));
  EXPECT_FALSE(Mark(a, kT0 + 1 * kMicrosecond));
  EXPECT_TRUE(Mark(b, kT0 + 2 * kMicrosecond));
  EXPECT_EQ(b.next_deadline(), kTimeNever);
  EXPECT_EQ(a.next_deadline(), kT0 + kN);
  EXPECT_FALSE(Mark(b, kT0 + 3 * kMicrosecond));
  EXPECT_EQ(b.next_deadline(), kT0 + 2 * kMicrosecond + kN);
  EXPECT_TRUE(Timer(a, kT0 + kN));
  EXPECT_EQ(b.next_deadline(), kT0 + 2 * kMicrosecond + kN);
}

TEST(DcqcnNp, MarksWhileTheCnpWaitsAreFoldedIntoIt) {
  // A CNP due at kT0 waits for the NIC's generator until kT0 + 70us. Marks meanwhile, even one
  // more than N after kT0, neither make another CNP due nor leave one pending: the waiting CNP
  // already reports the congestion.
  DcqcnNp np(kN);
  ASSERT_TRUE(np.OnMarkedPacket(kT0));
  EXPECT_TRUE(np.waiting());
  for (Time t : {kT0, kT0 + 1 * kMicrosecond, kT0 + kN, kT0 + 60 * kMicrosecond}) {
    EXPECT_FALSE(np.OnMarkedPacket(t));
    EXPECT_EQ(np.next_deadline(), kTimeNever);
    EXPECT_FALSE(np.OnTimer(t));
  }
  np.OnCnpSent(kT0 + 70 * kMicrosecond);
  EXPECT_FALSE(np.waiting());
  EXPECT_EQ(np.next_deadline(), kTimeNever);  // nothing left over from the folded marks
  EXPECT_FALSE(np.OnTimer(kT0 + 70 * kMicrosecond + kN));
}

TEST(DcqcnNp, IntervalCountsFromWhenTheCnpLeaves) {
  // The CNP due at kT0 leaves at kT0 + 30us: a mark at kT0 + 60us (more than N after it became
  // due, less than N after it left) is deferred to kT0 + 30us + N, and the CNP due then, which
  // leaves at once, is the next reference.
  DcqcnNp np(kN);
  const Time sent = kT0 + 30 * kMicrosecond;
  ASSERT_TRUE(np.OnMarkedPacket(kT0));
  np.OnCnpSent(sent);
  EXPECT_FALSE(np.OnMarkedPacket(kT0 + 60 * kMicrosecond));
  EXPECT_EQ(np.next_deadline(), sent + kN);
  EXPECT_FALSE(np.OnTimer(sent + kN - 1));
  // A deferred CNP also waits for the generator when it becomes due.
  ASSERT_TRUE(np.OnTimer(sent + kN));
  EXPECT_TRUE(np.waiting());
  EXPECT_EQ(np.next_deadline(), kTimeNever);
  EXPECT_FALSE(np.OnMarkedPacket(sent + kN + 1 * kMicrosecond));  // folded
  np.OnCnpSent(sent + kN + 5 * kMicrosecond);
  EXPECT_TRUE(np.OnMarkedPacket(sent + 2 * kN + 5 * kMicrosecond));  // N after it left
}

}  // namespace
}  // namespace dcqcn
