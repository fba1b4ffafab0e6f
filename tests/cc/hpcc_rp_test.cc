// Tests of HPCC's sender (src/cc/hpcc/hpcc_rp.h) on scripted ACKs and telemetry. Each expected u
// and rate is recomputed with the header's expressions in order, so the comparisons are exact.
#include "cc/hpcc/hpcc_rp.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>

namespace dcqcn {
namespace {

constexpr Rate kLine = 100 * kGbps;
constexpr Time kBaseRtt = 10 * kMicrosecond;  // T = 10000 ns
constexpr int64_t kT = 10000;
constexpr Bytes kWin = 125000;  // 100 Gb/s x 10 us

// Exact telemetry, so the expectations below read as plain numbers; the field widths have their
// own test (IntFieldsGiveTheNs3Values).
HpccParams Params() {
  HpccParams p;
  p.fields.exact = true;
  return p;
}

IntHop Hop(Time time, Bytes tx_bytes, Bytes qlen, Rate rate = kLine) {
  return IntHop{time, tx_bytes, qlen, rate};
}

IntStack Stack(std::initializer_list<IntHop> hops) {
  IntStack s;
  for (const IntHop& h : hops) s.Push(h);
  return s;
}

// One hop's instantaneous u from its deltas, in the header's order.
double HopU(Bytes bytes, int64_t tau_ns, Bytes qlen, Rate b = kLine) {
  const double tx_rate = static_cast<double>(bytes * 8) / (static_cast<double>(tau_ns) * 1e-9);
  return tx_rate / static_cast<double>(b) + static_cast<double>(qlen) * static_cast<double>(kLine) /
                                                static_cast<double>(b) / static_cast<double>(kWin);
}

double Ewma(double u, double sample, int64_t tau_ns) {
  const int64_t dt = std::min(tau_ns, kT);
  return (u * static_cast<double>(kT - dt) + sample * static_cast<double>(dt)) /
         static_cast<double>(kT);
}

// The multiplicative step Wc / c + W_AI (before clamping), with ns-3's truncation to bit/s.
Rate Mult(Rate ref, double u) {
  const double c = u / 0.95;
  return static_cast<Rate>(static_cast<double>(ref) / c) + 50 * kMbps;
}

TEST(HpccRp, FirstAckStoresTheBaselineOnly) {
  const HpccParams p = Params();
  HpccRp rp(&p, kLine, kWin, kBaseRtt);
  EXPECT_EQ(rp.rate(), kLine);
  EXPECT_EQ(rp.reference_rate(), kLine);
  EXPECT_EQ(rp.u(), 1.0);
  // A hop already full and queued: no reaction before there is a previous sample.
  EXPECT_FALSE(rp.OnAck(1000, 10000, Stack({Hop(1 * kMicrosecond, 0, 40000)})));
  EXPECT_EQ(rp.rate(), kLine);
  EXPECT_EQ(rp.u(), 1.0);
  EXPECT_EQ(rp.counters().updates, 0u);

  // Past 10000: 125000 B in 10 us is 100 Gb/s (1.0), plus the queue 40000 / 125000 = 0.32.
  EXPECT_TRUE(rp.OnAck(11000, 20000, Stack({Hop(11 * kMicrosecond, 125000, 40000)})));
  const double sample = HopU(125000, 10000, 40000);
  EXPECT_DOUBLE_EQ(sample, 1.32);
  const double u = Ewma(1.0, sample, 10000);
  EXPECT_EQ(rp.u(), u);
  const Rate rate = Mult(kLine, u);  // c = 1.32 / 0.95 >= 1: a cut
  EXPECT_EQ(rp.rate(), rate);
  EXPECT_EQ(rp.reference_rate(), rate);
  EXPECT_GT(rate, 72 * kGbps);
  EXPECT_LT(rate, 73 * kGbps);
  EXPECT_EQ(rp.inc_stage(), 0);
  EXPECT_EQ(rp.counters().updates, 1u);
  EXPECT_EQ(rp.counters().multiplicative, 1u);
}

TEST(HpccRp, FastReactAppliesWithoutCommitting) {
  const HpccParams p = Params();
  HpccRp rp(&p, kLine, kWin, kBaseRtt);
  rp.OnAck(1000, 10000, Stack({Hop(1 * kMicrosecond, 0, 0)}));
  rp.OnAck(11000, 20000, Stack({Hop(11 * kMicrosecond, 125000, 0)}));
  double u = Ewma(1.0, HopU(125000, 10000, 0), 10000);
  const Rate reference = Mult(kLine, u);
  ASSERT_EQ(rp.rate(), reference);

  // 15000 does not pass 20000: fast react over the 2 us since the last sample.
  EXPECT_TRUE(rp.OnAck(15000, 25000, Stack({Hop(13 * kMicrosecond, 150000, 0)})));
  u = Ewma(u, HopU(25000, 2000, 0), 2000);
  EXPECT_EQ(rp.u(), u);  // the EWMA moves on fast-react ACKs too
  Rate rate = Mult(reference, u);
  EXPECT_EQ(rp.rate(), rate);
  EXPECT_EQ(rp.reference_rate(), reference);
  EXPECT_EQ(rp.counters().fast_reacts, 1u);

  // 20000 still does not pass 20000; the step starts again from the same reference.
  EXPECT_TRUE(rp.OnAck(20000, 30000, Stack({Hop(14 * kMicrosecond, 200000, 0)})));
  u = Ewma(u, HopU(50000, 1000, 0), 1000);
  EXPECT_EQ(rp.rate(), Mult(reference, u));
  EXPECT_EQ(rp.reference_rate(), reference);
  EXPECT_EQ(rp.counters().fast_reacts, 2u);
  EXPECT_EQ(rp.counters().updates, 1u);

  // Past 20000: the per-RTT update, from the reference and the snapshot of the last fast ACK.
  EXPECT_TRUE(rp.OnAck(20001, 40000, Stack({Hop(18 * kMicrosecond, 250000, 0)})));
  u = Ewma(u, HopU(50000, 4000, 0), 4000);
  rate = Mult(reference, u);
  EXPECT_EQ(rp.rate(), rate);
  EXPECT_EQ(rp.reference_rate(), rate);
  EXPECT_EQ(rp.counters().updates, 2u);
}

TEST(HpccRp, WithoutFastReactAcksBetweenUpdatesAreIgnored) {
  HpccParams p = Params();
  p.fast_react = false;
  HpccRp rp(&p, kLine, kWin, kBaseRtt);
  rp.OnAck(1000, 10000, Stack({Hop(1 * kMicrosecond, 0, 0)}));
  rp.OnAck(11000, 20000, Stack({Hop(11 * kMicrosecond, 125000, 0)}));
  double u = Ewma(1.0, HopU(125000, 10000, 0), 10000);
  const Rate reference = Mult(kLine, u);

  // A congested sample between updates: no rate, no EWMA, no snapshot.
  EXPECT_FALSE(rp.OnAck(15000, 25000, Stack({Hop(13 * kMicrosecond, 500000, 800000)})));
  EXPECT_EQ(rp.rate(), reference);
  EXPECT_EQ(rp.u(), u);
  EXPECT_EQ(rp.counters().fast_reacts, 0u);

  // The next update measures from the 11 us sample: 125000 B over 10 us.
  EXPECT_TRUE(rp.OnAck(21000, 30000, Stack({Hop(21 * kMicrosecond, 250000, 0)})));
  u = Ewma(u, HopU(125000, 10000, 0), 10000);
  EXPECT_EQ(rp.u(), u);
  EXPECT_EQ(rp.rate(), Mult(reference, u));
  EXPECT_EQ(rp.counters().updates, 2u);
}

TEST(HpccRp, TheHopWithTheLargestUSetsUAndTau) {
  const HpccParams p = Params();
  HpccRp rp(&p, kLine, kWin, kBaseRtt);
  const Time t0 = 1 * kMicrosecond;
  rp.OnAck(1000, 10000, Stack({Hop(t0, 0, 0), Hop(t0, 0, 20000, 50 * kGbps), Hop(t0, 0, 0)}));
  // hop 0: 0.5 over 8 us; hop 1 (50G): 0.8 + 20000 x 2 / 125000 = 1.12 over 6 us; hop 2: 0.8
  // over 12 us. Hop 1 wins, and its 6 us (not the largest tau) weighs the sample.
  rp.OnAck(11000, 20000,
           Stack({Hop(t0 + 8 * kMicrosecond, 50000, 0),
                  Hop(t0 + 6 * kMicrosecond, 30000, 30000, 50 * kGbps),
                  Hop(t0 + 12 * kMicrosecond, 120000, 0)}));
  const double u1 = HopU(30000, 6000, 20000, 50 * kGbps);
  EXPECT_DOUBLE_EQ(u1, 1.12);
  EXPECT_LT(HopU(50000, 8000, 0), u1);
  EXPECT_LT(HopU(120000, 12000, 0), u1);
  const double u = Ewma(1.0, u1, 6000);
  EXPECT_EQ(rp.u(), u);
  EXPECT_DOUBLE_EQ(u, 1.072);
  EXPECT_EQ(rp.rate(), Mult(kLine, u));
}

TEST(HpccRp, MiThreshGivesAdditiveStagesThenAMultiplicativeOne) {
  HpccParams p = Params();
  p.mi_thresh = 2;
  HpccRp rp(&p, kLine, kWin, kBaseRtt);
  rp.OnAck(1000, 10000, Stack({Hop(1 * kMicrosecond, 0, 0)}));
  // 200 Gb/s through a 100G hop: c >= 1 cuts whatever the stage.
  Bytes tx = 250000;
  rp.OnAck(11000, 20000, Stack({Hop(11 * kMicrosecond, tx, 0)}));
  double u = Ewma(1.0, HopU(tx, 10000, 0), 10000);
  Rate rate = Mult(kLine, u);
  EXPECT_EQ(rp.rate(), rate);
  EXPECT_EQ(rp.inc_stage(), 0);

  // Then half the line (c < 1): two additive stages...
  Bytes acked = 21000;
  Time now = 11 * kMicrosecond;
  for (int stage = 1; stage <= 2; ++stage) {
    tx += 62500;
    now += 10 * kMicrosecond;
    EXPECT_TRUE(rp.OnAck(acked, acked + 9000, Stack({Hop(now, tx, 0)})));
    acked += 10000;
    u = Ewma(u, HopU(62500, 10000, 0), 10000);
    rate += 50 * kMbps;
    EXPECT_EQ(rp.rate(), rate);
    EXPECT_EQ(rp.reference_rate(), rate);
    EXPECT_EQ(rp.inc_stage(), stage);
  }
  // ...and at stage 2 a multiplicative step, which raises the rate here.
  tx += 62500;
  now += 10 * kMicrosecond;
  EXPECT_TRUE(rp.OnAck(acked, acked + 9000, Stack({Hop(now, tx, 0)})));
  u = Ewma(u, HopU(62500, 10000, 0), 10000);
  rate = Mult(rate, u);
  EXPECT_EQ(rp.rate(), rate);
  EXPECT_LT(rate, kLine);
  EXPECT_EQ(rp.inc_stage(), 0);
  EXPECT_EQ(rp.counters().multiplicative, 2u);
  EXPECT_EQ(rp.counters().additive, 2u);
  EXPECT_EQ(rp.counters().updates, 4u);
}

TEST(HpccRp, QueueTermUsesTheSmallerOfTheTwoQueueLengths) {
  const HpccParams p = Params();
  HpccRp rp(&p, kLine, kWin, kBaseRtt);
  rp.OnAck(1000, 10000, Stack({Hop(1 * kMicrosecond, 0, 50000)}));
  // Queue falls from 50000 to 30000: the term uses 30000 (0.24).
  rp.OnAck(11000, 20000, Stack({Hop(11 * kMicrosecond, 0, 30000)}));
  double u = Ewma(1.0, HopU(0, 10000, 30000), 10000);
  EXPECT_EQ(rp.u(), u);
  // Queue rises from 30000 to 60000: still 30000.
  rp.OnAck(21000, 30000, Stack({Hop(21 * kMicrosecond, 0, 60000)}));
  u = Ewma(u, HopU(0, 10000, 30000), 10000);
  EXPECT_EQ(rp.u(), u);
  EXPECT_DOUBLE_EQ(u, 0.24);
  // c = 0.24 / 0.95: Wc / c is far above the line rate, which caps it.
  EXPECT_EQ(rp.rate(), kLine);
}

TEST(HpccRp, IntFieldsGiveTheNs3Values) {
  HpccParams p;        // exact = false
  p.fields.multi = 2;  // bytes in 256 B units (wrap at 2^28 B), queue in 160 B units
  HpccRp rp(&p, kLine, kWin, kBaseRtt);
  // Time 5000 ns before the 24-bit wrap (plus 700 ps); bytes 1000 B before the 20-bit wrap; a
  // queue just over the 17-bit wrap (20971520 B = 2^17 x 160).
  const Time t0 = (16777216 - 5000) * kNanosecond + 700;
  const Bytes b0 = 268435456 - 1000;
  rp.OnAck(1000, 10000, Stack({Hop(t0, b0, 20971520 + 3250)}));
  rp.OnAck(11000, 20000, Stack({Hop(t0 + 10000 * kNanosecond + 500, b0 + 125000, 50000)}));
  // ns-3 sees: tau = 10001 ns (each stamp truncated to ns); bytes 1048572 -> 484 units, 488 x 256
  // = 124928 B; queue 20 units (3200 B) before and 312 (49920 B) now, so min 3200.
  const double sample = HopU(124928, 10001, 3200);
  const double u = Ewma(1.0, sample, 10001);  // tau clamped to T
  EXPECT_EQ(rp.u(), u);
  EXPECT_EQ(rp.rate(), Mult(kLine, u));

  // The next sample is measured from the wrapped fields as stored.
  const Time t1 = t0 + 20000 * kNanosecond;
  rp.OnAck(21000, 30000, Stack({Hop(t1, b0 + 250000, 39900)}));
  // 9999 ns (16782217 -> 16792216); 125000 B more is 1049060 -> 1049548 units, 124928 B; the
  // queue 39900 B reads 249 units (39840 B), below the stored 49920.
  EXPECT_EQ(rp.u(), Ewma(u, HopU(124928, 9999, 39840), 9999));
}

TEST(HpccRp, AcksOverMoreThanFiveHopsAreSkipped) {
  const HpccParams p = Params();
  HpccRp rp(&p, kLine, kWin, kBaseRtt);
  rp.OnAck(1000, 10000, Stack({Hop(1 * kMicrosecond, 0, 0)}));
  IntStack six;
  for (int i = 0; i < 6; ++i) six.Push(Hop(11 * kMicrosecond, 500000, 800000));
  ASSERT_EQ(six.nhop, 6u);
  EXPECT_FALSE(rp.OnAck(11000, 30000, six));
  EXPECT_EQ(rp.rate(), kLine);
  EXPECT_EQ(rp.u(), 1.0);
  EXPECT_EQ(rp.counters().skipped, 1u);
  EXPECT_EQ(rp.counters().updates, 0u);

  // The gate still moved to 30000: 25000 is a fast react, measured from the first snapshot.
  EXPECT_TRUE(rp.OnAck(25000, 35000, Stack({Hop(11 * kMicrosecond, 125000, 0)})));
  EXPECT_EQ(rp.counters().fast_reacts, 1u);
  EXPECT_EQ(rp.u(), Ewma(1.0, HopU(125000, 10000, 0), 10000));
}

TEST(HpccRp, ClampsToTheMinimumRate) {
  HpccParams p = Params();
  p.min_rate = 60 * kGbps;
  HpccRp rp(&p, kLine, kWin, kBaseRtt);
  rp.OnAck(1000, 10000, Stack({Hop(1 * kMicrosecond, 0, 1000000)}));
  // u = 1 + 8 from the standing queue: Wc / c is about 10.6 Gb/s.
  EXPECT_TRUE(rp.OnAck(11000, 20000, Stack({Hop(11 * kMicrosecond, 125000, 1000000)})));
  ASSERT_LT(Mult(kLine, Ewma(1.0, HopU(125000, 10000, 1000000), 10000)), 60 * kGbps);
  EXPECT_EQ(rp.rate(), 60 * kGbps);
  EXPECT_EQ(rp.reference_rate(), 60 * kGbps);
}

TEST(HpccRp, IdleSamplesKeepUButStillStep) {
  // No bytes and no queue: u = 0 never beats U = 0, so tau stays 0 and the EWMA keeps its value,
  // but the hop counts as used and the step runs on the old u.
  const HpccParams p = Params();
  HpccRp rp(&p, kLine, kWin, kBaseRtt);
  rp.OnAck(1000, 10000, Stack({Hop(1 * kMicrosecond, 0, 0)}));
  EXPECT_TRUE(rp.OnAck(11000, 20000, Stack({Hop(11 * kMicrosecond, 0, 0)})));
  EXPECT_EQ(rp.u(), 1.0);
  EXPECT_EQ(rp.rate(), Mult(kLine, 1.0));
  EXPECT_EQ(rp.counters().updates, 1u);
}

TEST(HpccRp, ASampleWithNoElapsedTimeIsSkipped) {
  // Our choice where ns-3 divides by zero: the hop is left out and its snapshot kept.
  const HpccParams p = Params();
  HpccRp rp(&p, kLine, kWin, kBaseRtt);
  rp.OnAck(1000, 10000, Stack({Hop(1 * kMicrosecond, 0, 0)}));
  EXPECT_FALSE(rp.OnAck(11000, 20000, Stack({Hop(1 * kMicrosecond, 1000, 0)})));
  EXPECT_EQ(rp.rate(), kLine);
  EXPECT_EQ(rp.counters().updates, 0u);
  // The gate moved (as in ns-3); the next update measures from the first snapshot.
  EXPECT_TRUE(rp.OnAck(21000, 30000, Stack({Hop(11 * kMicrosecond, 125000, 0)})));
  EXPECT_EQ(rp.u(), Ewma(1.0, HopU(125000, 10000, 0), 10000));
}

TEST(HpccRp, SampleFeedbackFastReactsOnlyOnQueuedHops) {
  HpccParams p = Params();
  p.sample_feedback = true;
  HpccRp rp(&p, kLine, kWin, kBaseRtt);
  rp.OnAck(1000, 10000, Stack({Hop(1 * kMicrosecond, 0, 0)}));
  rp.OnAck(11000, 20000, Stack({Hop(11 * kMicrosecond, 125000, 0)}));  // updates run anyway
  const Rate reference = rp.rate();
  EXPECT_EQ(rp.counters().updates, 1u);
  EXPECT_FALSE(rp.OnAck(15000, 25000, Stack({Hop(12 * kMicrosecond, 137500, 0)})));
  EXPECT_EQ(rp.counters().fast_reacts, 0u);
  // With a queue the hop reacts, measured from the 11 us snapshot.
  EXPECT_TRUE(rp.OnAck(16000, 26000, Stack({Hop(13 * kMicrosecond, 150000, 80)})));
  const double u = Ewma(Ewma(1.0, HopU(125000, 10000, 0), 10000), HopU(25000, 2000, 0), 2000);
  EXPECT_EQ(rp.u(), u);
  EXPECT_EQ(rp.rate(), Mult(reference, u));
}

TEST(HpccRp, MultiRateKeepsAReferencePerHop) {
  HpccParams p = Params();
  p.multi_rate = true;
  HpccRp rp(&p, kLine, kWin, kBaseRtt);
  const Time t0 = 1 * kMicrosecond;
  rp.OnAck(1000, 10000, Stack({Hop(t0, 0, 0), Hop(t0, 0, 0, 50 * kGbps)}));
  // hop 0: 0.8 over 8 us; hop 1 (50G): 1.2 over 12 us, clamped to T. Each hop's own EWMA.
  EXPECT_TRUE(rp.OnAck(11000, 20000,
                       Stack({Hop(t0 + 8 * kMicrosecond, 80000, 0),
                              Hop(t0 + 12 * kMicrosecond, 90000, 0, 50 * kGbps)})));
  double u0 = Ewma(1.0, HopU(80000, 8000, 0), 8000);
  double u1 = Ewma(1.0, HopU(90000, 12000, 0, 50 * kGbps), 12000);
  EXPECT_EQ(rp.hop_u(0), u0);
  EXPECT_EQ(rp.hop_u(1), u1);
  EXPECT_DOUBLE_EQ(u0, 0.84);
  EXPECT_DOUBLE_EQ(u1, 1.2);
  EXPECT_EQ(rp.u(), 1.0);  // the single-rate EWMA is not used
  // Hop 0 would go above line rate (capped); hop 1 cuts, and the flow takes the smaller.
  const Rate r1 = Mult(kLine, u1);
  EXPECT_EQ(rp.hop_reference_rate(0), kLine);
  EXPECT_EQ(rp.hop_reference_rate(1), r1);
  EXPECT_EQ(rp.rate(), r1);
  EXPECT_EQ(rp.reference_rate(), r1);
  EXPECT_EQ(rp.counters().multiplicative, 2u);

  // A fast react steps each hop from its own reference and commits none.
  EXPECT_TRUE(rp.OnAck(15000, 25000,
                       Stack({Hop(t0 + 9 * kMicrosecond, 92500, 0),
                              Hop(t0 + 13 * kMicrosecond, 96250, 0, 50 * kGbps)})));
  u0 = Ewma(u0, HopU(12500, 1000, 0), 1000);
  u1 = Ewma(u1, HopU(6250, 1000, 0, 50 * kGbps), 1000);
  EXPECT_EQ(rp.hop_u(0), u0);
  EXPECT_EQ(rp.hop_u(1), u1);
  EXPECT_EQ(rp.rate(), std::min(std::min(kLine, Mult(kLine, u0)), Mult(r1, u1)));
  EXPECT_EQ(rp.hop_reference_rate(0), kLine);
  EXPECT_EQ(rp.hop_reference_rate(1), r1);
  EXPECT_EQ(rp.reference_rate(), r1);
}

TEST(HpccRp, MultiRateHopWithoutASampleBoundsByItsReference) {
  // With sample feedback a queueless hop sits out a fast react; its reference still bounds the
  // flow's rate.
  HpccParams p = Params();
  p.multi_rate = true;
  p.sample_feedback = true;
  HpccRp rp(&p, kLine, kWin, kBaseRtt);
  const Time t0 = 1 * kMicrosecond;
  rp.OnAck(1000, 10000, Stack({Hop(t0, 0, 80), Hop(t0, 0, 0)}));
  rp.OnAck(11000, 20000,
           Stack({Hop(t0 + 10 * kMicrosecond, 50000, 80), Hop(t0 + 10 * kMicrosecond, 250000, 0)}));
  const Rate r1 = rp.hop_reference_rate(1);
  ASSERT_LT(r1, kLine);
  ASSERT_EQ(rp.hop_reference_rate(0), kLine);
  const double u1 = rp.hop_u(1);

  // Hop 0 (queued, 0.4 of its line) steps to line rate; hop 1 (no queue) is skipped.
  EXPECT_FALSE(rp.OnAck(
      15000, 25000,
      Stack({Hop(t0 + 11 * kMicrosecond, 55000, 80), Hop(t0 + 11 * kMicrosecond, 500000, 0)})));
  EXPECT_EQ(rp.rate(), r1);
  EXPECT_EQ(rp.hop_u(1), u1);
  EXPECT_EQ(rp.counters().fast_reacts, 1u);
}

TEST(HpccRp, MultiRateIdleHopStepsToLineRate) {
  // An idle hop's u decays to 0 (tau >= T), so c = 0: ns-3 would divide by zero; we take the
  // clamp the division would reach, the line rate.
  HpccParams p = Params();
  p.multi_rate = true;
  HpccRp rp(&p, kLine, kWin, kBaseRtt);
  const Time t0 = 1 * kMicrosecond;
  rp.OnAck(1000, 10000, Stack({Hop(t0, 0, 0), Hop(t0, 0, 0)}));
  rp.OnAck(11000, 20000,
           Stack({Hop(t0 + 10 * kMicrosecond, 0, 0), Hop(t0 + 10 * kMicrosecond, 250000, 0)}));
  EXPECT_EQ(rp.hop_u(0), 0.0);
  EXPECT_EQ(rp.hop_reference_rate(0), kLine);
  const Rate r1 = Mult(kLine, Ewma(1.0, HopU(250000, 10000, 0), 10000));
  EXPECT_EQ(rp.hop_reference_rate(1), r1);
  EXPECT_EQ(rp.rate(), r1);
  EXPECT_EQ(rp.inc_stage(), 0);
}

}  // namespace
}  // namespace dcqcn
