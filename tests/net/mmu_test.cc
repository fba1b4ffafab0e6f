// Shared-buffer MMU: reserve/shared/headroom accounting, XOFF/XON thresholds, drops, RED.
#include "net/mmu.h"

#include <gtest/gtest.h>

#include "net/network.h"  // PortHeadroom

namespace dcqcn {
namespace {

SwitchConfig StaticConfig(Bytes threshold, Bytes reserve = 0) {
  SwitchConfig c;
  c.buffer = 1000000;
  c.pfc.dynamic_threshold = false;
  c.pfc.static_threshold = threshold;
  c.pfc.reserve = reserve;
  c.pfc.xon_offset = 2000;
  return c;
}

TEST(MmuTest, XoffAtStaticThresholdAndXonWithHysteresis) {
  Mmu mmu(StaticConfig(10000), {5000, 5000}, 1, 1066);
  for (int i = 0; i < 9; ++i) {
    ASSERT_TRUE(mmu.Admit(0, 3, 1000));
    EXPECT_FALSE(mmu.ShouldPause(0, 3)) << i;
  }
  ASSERT_TRUE(mmu.Admit(0, 3, 1000));  // shared = 10000 = threshold
  EXPECT_TRUE(mmu.ShouldPause(0, 3));
  mmu.SetPaused(0, 3, true);
  EXPECT_FALSE(mmu.ShouldPause(0, 3));  // already paused
  // In-flight arrivals after XOFF go to headroom.
  ASSERT_TRUE(mmu.Admit(0, 3, 1000));
  EXPECT_EQ(mmu.headroom_used(0, 3), 1000);
  EXPECT_EQ(mmu.shared_used(0, 3), 10000);
  // Draining: headroom first; XON only once shared + offset <= threshold.
  mmu.Release(0, 3, 1000);
  EXPECT_EQ(mmu.headroom_used(0, 3), 0);
  EXPECT_FALSE(mmu.ShouldResume(0, 3));  // 10000 + 2000 > 10000
  mmu.Release(0, 3, 1000);
  EXPECT_FALSE(mmu.ShouldResume(0, 3));  // 9000 + 2000 > 10000
  mmu.Release(0, 3, 1000);
  EXPECT_TRUE(mmu.ShouldResume(0, 3));  // 8000 + 2000 <= 10000
  // Other queues are unaffected.
  EXPECT_FALSE(mmu.ShouldPause(1, 3));
  EXPECT_FALSE(mmu.ShouldPause(0, 4));
}

// Only the priorities data arrives in are counted (a large fabric's ports use one or two of
// their 8): the others read as empty, and data in one of them is a broken invariant.
TEST(MmuTest, CountsOnlyTheGivenClasses) {
  Mmu mmu(StaticConfig(10000), {5000, 5000}, 2, 1066, {}, {3, 5});
  ASSERT_TRUE(mmu.Admit(1, 5, 1000));
  ASSERT_TRUE(mmu.Admit(1, 3, 2000));
  EXPECT_EQ(mmu.ingress_bytes(1, 5), 1000);
  EXPECT_EQ(mmu.ingress_bytes(1, 3), 2000);
  EXPECT_EQ(mmu.ingress_bytes(0, 3), 0);
  EXPECT_EQ(mmu.ingress_bytes(1, 0), 0);  // the control class: never counted
  EXPECT_FALSE(mmu.ShouldPause(1, 4));
  EXPECT_THROW(mmu.Admit(1, 4, 1000), InvariantError);
  mmu.Release(1, 5, 1000);
  mmu.Release(1, 3, 2000);
  EXPECT_TRUE(mmu.Empty());
}

TEST(MmuTest, HeadroomOverflowDropsAndCountersReturnToZero) {
  Mmu mmu(StaticConfig(3000), {2500}, 1, 1066);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(mmu.Admit(0, 3, 1000));
  EXPECT_TRUE(mmu.Admit(0, 3, 1000));   // headroom 1000
  EXPECT_TRUE(mmu.Admit(0, 3, 1000));   // headroom 2000
  EXPECT_FALSE(mmu.Admit(0, 3, 1000));  // 3000 > 2500: drop
  EXPECT_EQ(mmu.headroom_used(0, 3), 2000);
  for (int i = 0; i < 5; ++i) mmu.Release(0, 3, 1000);
  EXPECT_TRUE(mmu.Empty());
}

TEST(MmuTest, ReserveIsChargedFirst) {
  Mmu mmu(StaticConfig(3000, 4000), {5000}, 1, 1066);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(mmu.Admit(0, 3, 1000));
  EXPECT_EQ(mmu.shared_used(), 0);
  EXPECT_EQ(mmu.ingress_bytes(0, 3), 4000);
  ASSERT_TRUE(mmu.Admit(0, 3, 1000));
  EXPECT_EQ(mmu.shared_used(), 1000);
  for (int i = 0; i < 5; ++i) mmu.Release(0, 3, 1000);
  EXPECT_TRUE(mmu.Empty());
}

TEST(MmuTest, DynamicThresholdShrinksAsTheSharedBufferFills) {
  SwitchConfig c;
  c.buffer = 100000 + 2 * 10000;  // shared pool 100000 after two ports' headroom
  c.pfc.reserve = 0;
  c.pfc.alpha = 0.5;
  Mmu mmu(c, {10000, 10000}, 1, 1066);
  EXPECT_EQ(mmu.PauseThreshold(0), 50000);
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(mmu.Admit(1, 3, 1000));
  EXPECT_EQ(mmu.PauseThreshold(0), 40000);  // 0.5 * (100000 - 20000)
  // Port 0 pauses when its own shared bytes reach alpha * free.
  int admitted = 0;
  while (!mmu.ShouldPause(0, 3)) {
    ASSERT_TRUE(mmu.Admit(0, 3, 1000));
    ++admitted;
  }
  // q >= 0.5 * (80000 - q)  <=>  q >= 26667
  EXPECT_EQ(admitted, 27);
}

TEST(MmuTest, EachPortHasItsOwnAlpha) {
  // HPCC ns-3 on a fat tree: 1/8 on 100G ports, 1/2 on 400G ports (shift 3 - 2 doublings).
  SwitchConfig c;
  c.buffer = 100000 + 2 * 10000;
  c.pfc.reserve = 0;
  c.pfc.alpha = 0.125;
  Mmu mmu(c, {10000, 10000}, 1, 1066, {0.125, 0.5});
  EXPECT_EQ(mmu.PauseThreshold(0), 12500);
  EXPECT_EQ(mmu.PauseThreshold(1), 50000);
  for (int i = 0; i < 13; ++i) ASSERT_TRUE(mmu.Admit(1, 3, 1000));
  EXPECT_FALSE(mmu.ShouldPause(1, 3));  // 13000 < 0.5 * 87000
  for (int i = 0; i < 11; ++i) ASSERT_TRUE(mmu.Admit(0, 3, 1000));
  // Port 0's 10th KB would exceed 1/8 of the free 78000 (9750): it and the 11th go to headroom.
  EXPECT_EQ(mmu.shared_used(0, 3), 9000);
  EXPECT_EQ(mmu.headroom_used(0, 3), 2000);
  EXPECT_TRUE(mmu.ShouldPause(0, 3));
}

TEST(MmuTest, ArrivalAndDepartureAgreeWithTheirParts) {
  // OnArrival = Admit then ShouldPause, OnDeparture = Release then ShouldResume: two MMUs fed
  // the same packets through each API agree at every step, through XOFF, headroom, drops and
  // XON, with a dynamic threshold.
  SwitchConfig c;
  c.buffer = 60000;
  c.pfc.alpha = 0.5;
  c.pfc.reserve = 2000;
  c.pfc.xon_offset = 2000;
  Mmu whole(c, {8000, 8000}, 1, 1066);
  Mmu parts(c, {8000, 8000}, 1, 1066);
  int paused = 0, dropped = 0, resumed = 0, admitted = 0;
  for (int i = 0; i < 60; ++i) {
    const int port = i % 3 == 0 ? 1 : 0;
    const Mmu::Arrival a = whole.OnArrival(port, 3, 1000);
    const bool admit = parts.Admit(port, 3, 1000);
    const bool pause = admit && parts.ShouldPause(port, 3);
    ASSERT_EQ(a == Mmu::Arrival::kDrop, !admit) << i;
    ASSERT_EQ(a == Mmu::Arrival::kAdmitAndPause, pause) << i;
    if (pause) {
      whole.SetPaused(port, 3, true);
      parts.SetPaused(port, 3, true);
    }
    paused += pause;
    dropped += !admit;
    admitted += admit && port == 0;
  }
  for (int i = 0; i < admitted; ++i) {
    parts.Release(0, 3, 1000);
    const bool resume = parts.ShouldResume(0, 3);
    ASSERT_EQ(whole.OnDeparture(0, 3, 1000), resume) << i;
    if (resume) {
      whole.SetPaused(0, 3, false);
      parts.SetPaused(0, 3, false);
    }
    resumed += resume;
  }
  EXPECT_GT(paused, 0);
  EXPECT_GT(dropped, 0);
  EXPECT_GT(resumed, 0);
}

TEST(PortHeadroom, AutoHpccAndFixedRules) {
  PfcConfig pfc;
  // Spec 4.5: 2 one-way BDPs + 3 MTU frames + a PAUSE frame (wire bytes).
  EXPECT_EQ(PortHeadroom(pfc, 40 * kGbps, kMicrosecond, 1086),
            AutoHeadroom(40 * kGbps, kMicrosecond, 1086));
  // HPCC ns-3: rate * delay / 8 / 1e9 * 3 in integers (delay in whole ns).
  pfc.headroom_rule = PfcConfig::HeadroomRule::kHpcc;
  EXPECT_EQ(PortHeadroom(pfc, 100 * kGbps, kMicrosecond, 1048), 37500);
  EXPECT_EQ(PortHeadroom(pfc, 400 * kGbps, kMicrosecond, 1048), 150000);
  EXPECT_EQ(PortHeadroom(pfc, 25 * kGbps, 1001 * kNanosecond + 999, 1048), 3 * 3128);
  pfc.headroom_rule = PfcConfig::HeadroomRule::kFixed;
  pfc.headroom = 30000;
  EXPECT_EQ(PortHeadroom(pfc, 100 * kGbps, kMicrosecond, 1048), 30000);
}

TEST(MmuTest, WithoutPfcDropsOnlyWhenTheBufferIsFull) {
  SwitchConfig c;
  c.buffer = 10000;
  c.pfc.enabled = false;
  c.pfc.reserve = 0;
  Mmu mmu(c, {5000}, 1, 1066);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(mmu.Admit(0, 3, 1000));
  EXPECT_FALSE(mmu.ShouldPause(0, 3));
  EXPECT_FALSE(mmu.Admit(0, 3, 1000));
}

TEST(MmuTest, BufferTooSmallForHeadroomIsAnInputError) {
  SwitchConfig c;
  c.buffer = 10000;
  EXPECT_THROW(Mmu(c, {20000}, 1, 1066), InputError);
}

TEST(MmuTest, HeadroomBeyondAnyBufferIsAnInputErrorNotAWrap) {
  // 2 ports x 2 classes x INT64_MAX / 2 used to wrap to a small carve and let the run go on.
  SwitchConfig c;
  EXPECT_THROW(Mmu(c, {INT64_MAX / 2, INT64_MAX / 2}, 2, 1066), InputError);
}

// RED: p = Pmax (q - Kmin) / (Kmax - Kmin) between the thresholds; 0 below, 1 above.
TEST(EcnMarkingTest, ProbabilityBetweenKminAndKmax) {
  SwitchConfig c = StaticConfig(100000);
  c.ecn.kmin = 5000;
  c.ecn.kmax = 205000;
  c.ecn.pmax = 0.2;
  Mmu mmu(c, {5000}, 1, 1066);
  Rng rng(3);
  auto measure = [&](Bytes q) {
    int marks = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) marks += mmu.ShouldMark(q, rng);
    return static_cast<double>(marks) / n;
  };
  EXPECT_EQ(measure(4000), 0.0);
  EXPECT_EQ(measure(5000), 0.0);
  EXPECT_NEAR(measure(55000), 0.05, 0.003);
  EXPECT_NEAR(measure(105000), 0.10, 0.004);
  EXPECT_NEAR(measure(205000), 0.20, 0.005);
  EXPECT_EQ(measure(205001), 1.0);
}

TEST(EcnMarkingTest, DctcpStyleStepWhenKminEqualsKmax) {
  SwitchConfig c = StaticConfig(100000);
  c.ecn.kmin = c.ecn.kmax = 30000;
  c.ecn.pmax = 1;
  Mmu mmu(c, {5000}, 1, 1066);
  Rng rng(3);
  EXPECT_FALSE(mmu.ShouldMark(30000, rng));
  EXPECT_TRUE(mmu.ShouldMark(30001, rng));
}

}  // namespace
}  // namespace dcqcn
