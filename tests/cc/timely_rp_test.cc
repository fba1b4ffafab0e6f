// Tests of TIMELY's sender (src/cc/timely/timely_rp.h) on scripted ACKs. Each expected rate and
// rtt_diff is recomputed with the header's expressions in their order, so the comparisons are
// exact.
#include "cc/timely/timely_rp.h"

#include <gtest/gtest.h>

namespace dcqcn {
namespace {

constexpr Rate kLine = 100 * kGbps;

// ns-3's DataRate times a double, truncated to whole bit/s.
Rate Scale(Rate rate, double c) { return static_cast<Rate>(static_cast<double>(rate) * c); }

double Ewma(double diff, int64_t new_diff_ns) {
  return (1 - 0.875) * diff + 0.875 * static_cast<double>(new_diff_ns);
}

// The steps these tests were derived with: HPCC ns-3's attribute defaults (RATE_AI 5Mb/s,
// RATE_HAI 50Mb/s, MIN_RATE 100Mb/s), not the hpcc profile's run.py values.
TimelyParams AttributeDefaults() {
  TimelyParams p;
  p.rate_ai = 5 * kMbps;
  p.rate_hai = 50 * kMbps;
  p.min_rate = 100 * kMbps;
  return p;
}

// A flow whose first ACK recorded an RTT of `rtt` with 10 KB sent; the next update needs an ACK
// past 10000.
struct Flow {
  TimelyParams p = AttributeDefaults();
  TimelyRp rp{&p, kLine};
  Bytes seq = 10000;
  // An ACK that passes the last update: one RTT later, 10 KB more sent.
  bool Next(Time rtt) {
    const bool changed = rp.OnAck(seq + 1000, seq + 10000, rtt);
    seq += 10000;
    return changed;
  }
};

TEST(TimelyRp, FirstAckOnlyRecords) {
  const TimelyParams p = AttributeDefaults();
  TimelyRp rp(&p, kLine);
  EXPECT_EQ(rp.rate(), kLine);
  EXPECT_FALSE(rp.OnAck(1000, 10000, 900 * kMicrosecond));  // above t_high, yet no cut
  EXPECT_EQ(rp.rate(), kLine);
  EXPECT_EQ(rp.rtt_diff(), 0.0);
  EXPECT_EQ(rp.inc_stage(), 0);
  EXPECT_EQ(rp.counters().updates, 0u);
  EXPECT_EQ(rp.counters().decreases, 0u);
}

TEST(TimelyRp, OneUpdatePerRtt) {
  const TimelyParams p = AttributeDefaults();
  TimelyRp rp(&p, kLine);
  rp.OnAck(1000, 10000, 100 * kMicrosecond);
  // ACKs that do not pass 10000 do nothing, however large their RTT.
  EXPECT_FALSE(rp.OnAck(5000, 20000, 900 * kMicrosecond));
  EXPECT_FALSE(rp.OnAck(10000, 20000, 900 * kMicrosecond));
  EXPECT_EQ(rp.rate(), kLine);
  EXPECT_EQ(rp.counters().updates, 0u);

  // Past 10000: the rule runs against the RTT of the first ACK (the ignored ones left no trace).
  EXPECT_TRUE(rp.OnAck(10001, 20000, 900 * kMicrosecond));
  const double c = 1 - 0.8 * (1 - 500000.0 / 900000.0);
  EXPECT_EQ(rp.rate(), Scale(kLine, c));
  EXPECT_EQ(rp.rtt_diff(), Ewma(0, 900000 - 100000));
  EXPECT_EQ(rp.counters().updates, 1u);

  // The next update waits for an ACK past 20000.
  EXPECT_FALSE(rp.OnAck(20000, 30000, 10 * kMicrosecond));
  EXPECT_EQ(rp.counters().updates, 1u);
}

TEST(TimelyRp, DecreaseAboveTHigh) {
  Flow f;
  f.rp.OnAck(1000, 10000, 100 * kMicrosecond);
  EXPECT_TRUE(f.Next(1000 * kMicrosecond));
  // c = 1 - beta (1 - T_high / rtt) = 1 - 0.8 * 0.5 = 0.6.
  const Rate rate = Scale(kLine, 1 - 0.8 * (1 - 500000.0 / 1000000.0));
  EXPECT_EQ(rate, 60 * kGbps);
  EXPECT_EQ(f.rp.rate(), rate);
  EXPECT_EQ(f.rp.inc_stage(), 0);
  EXPECT_EQ(f.rp.rtt_diff(), Ewma(0, 900000));
  EXPECT_EQ(f.rp.counters().decreases, 1u);
}

TEST(TimelyRp, IncreasesBelowTLowThenHyperActive) {
  Flow f;
  f.rp.OnAck(1000, 10000, 100 * kMicrosecond);
  f.Next(1000 * kMicrosecond);  // down to 60 Gb/s
  Rate rate = f.rp.rate();
  double diff = f.rp.rtt_diff();
  int64_t last = 1000000;
  // Below T_low (50 us) every update increases, whatever the gradient: five steps of rate_ai...
  for (int i = 1; i <= 5; ++i) {
    const int64_t rtt_ns = 30000 + i;
    EXPECT_TRUE(f.Next(rtt_ns * kNanosecond));
    rate += 5 * kMbps;
    diff = Ewma(diff, rtt_ns - last);
    last = rtt_ns;
    EXPECT_EQ(f.rp.rate(), rate);
    EXPECT_EQ(f.rp.inc_stage(), i);
    EXPECT_EQ(f.rp.rtt_diff(), diff);
  }
  // ...then rate_hai from the sixth on.
  EXPECT_TRUE(f.Next(30 * kMicrosecond));
  rate += 50 * kMbps;
  EXPECT_EQ(f.rp.rate(), rate);
  EXPECT_EQ(f.rp.inc_stage(), 6);
  EXPECT_TRUE(f.Next(30 * kMicrosecond));
  rate += 50 * kMbps;
  EXPECT_EQ(f.rp.rate(), rate);
  EXPECT_EQ(f.rp.counters().increases, 5u);
  EXPECT_EQ(f.rp.counters().hyper_increases, 2u);

  // A cut resets the stage: the next increase is rate_ai again.
  f.Next(1000 * kMicrosecond);
  EXPECT_EQ(f.rp.inc_stage(), 0);
  rate = f.rp.rate();
  f.Next(30 * kMicrosecond);
  EXPECT_EQ(f.rp.rate(), rate + 5 * kMbps);
}

TEST(TimelyRp, GradientDecreaseAndIncrease) {
  Flow f;
  f.rp.OnAck(1000, 10000, 100 * kMicrosecond);
  // Between T_low and T_high with a rising RTT: cut by 1 - beta * gradient.
  EXPECT_TRUE(f.Next(104 * kMicrosecond));
  double diff = Ewma(0, 4000);
  const double gradient = diff / 20000.0;
  Rate rate = Scale(kLine, 1 - 0.8 * gradient);
  EXPECT_EQ(f.rp.rate(), rate);
  EXPECT_EQ(f.rp.rtt_diff(), diff);
  EXPECT_EQ(f.rp.counters().decreases, 1u);

  // A falling RTT drives the EWMA below zero: gradient <= 0 increases.
  EXPECT_TRUE(f.Next(98 * kMicrosecond));
  diff = Ewma(diff, 98000 - 104000);
  ASSERT_LT(diff, 0);
  rate += 5 * kMbps;
  EXPECT_EQ(f.rp.rate(), rate);
  EXPECT_EQ(f.rp.rtt_diff(), diff);
  EXPECT_EQ(f.rp.inc_stage(), 1);

  // An RTT that does not move: the EWMA keeps 1/8 of the negative difference, still an increase.
  EXPECT_TRUE(f.Next(98 * kMicrosecond));
  diff = Ewma(diff, 0);
  ASSERT_LT(diff, 0);
  EXPECT_EQ(f.rp.rate(), rate + 5 * kMbps);
}

TEST(TimelyRp, RttIsTruncatedToWholeNanoseconds) {
  Flow f;
  f.rp.OnAck(1000, 10000, 100 * kMicrosecond + 999);
  f.Next(104 * kMicrosecond + 999);
  EXPECT_EQ(f.rp.rtt_diff(), Ewma(0, 4000));
}

TEST(TimelyRp, LargeGradientCutsToZeroThenMinRate) {
  Flow f;
  f.rp.OnAck(1000, 10000, 60 * kMicrosecond);
  // diff = 0.875 * 440000 ns, gradient ~ 19: c = 1 - 0.8 gradient < 0 becomes 0, rate -> min.
  EXPECT_TRUE(f.Next(500 * kMicrosecond));  // not above T_high
  EXPECT_EQ(f.rp.rate(), 100 * kMbps);
  // Further cuts stay at the floor and report no change.
  EXPECT_FALSE(f.Next(900 * kMicrosecond));
  EXPECT_EQ(f.rp.rate(), 100 * kMbps);
  EXPECT_EQ(f.rp.counters().decreases, 2u);
}

TEST(TimelyRp, ZeroGradientIncreases) {
  Flow f;
  f.rp.OnAck(1000, 10000, 100 * kMicrosecond);
  f.Next(100 * kMicrosecond);  // in the band, rtt_diff = 0
  EXPECT_EQ(f.rp.rtt_diff(), 0.0);
  EXPECT_EQ(f.rp.inc_stage(), 1);
  EXPECT_EQ(f.rp.counters().increases, 1u);
  EXPECT_EQ(f.rp.counters().decreases, 0u);
}

TEST(TimelyRp, HighRttCutsStopAtTheMinimumRate) {
  Flow f;
  f.p.min_rate = 30 * kGbps;
  f.rp.OnAck(1000, 10000, 100 * kMicrosecond);
  for (int i = 0; i < 5; ++i) f.Next(2000 * kMicrosecond);  // c = 0.4 each time
  EXPECT_EQ(f.rp.rate(), 30 * kGbps);
}

TEST(TimelyRp, IncreasesCapAtLineRate) {
  Flow f;
  f.rp.OnAck(1000, 10000, 30 * kMicrosecond);
  // At line rate an increase changes nothing but still counts toward the stage.
  EXPECT_FALSE(f.Next(30 * kMicrosecond));
  EXPECT_EQ(f.rp.rate(), kLine);
  EXPECT_EQ(f.rp.inc_stage(), 1);

  // Just below line rate a hyper step is cut back to line rate.
  f.Next(2000 * kMicrosecond);
  const Rate low = f.rp.rate();
  for (int i = 0; i < 5; ++i) f.Next(30 * kMicrosecond);
  EXPECT_EQ(f.rp.rate(), low + 25 * kMbps);
  f.p.rate_hai = kLine;
  EXPECT_TRUE(f.Next(30 * kMicrosecond));
  EXPECT_EQ(f.rp.rate(), kLine);
}

TEST(TimelyRp, GateMovesOnlyWhenMoreWasSent) {
  // The recorded sequence only moves forward: an update whose `sent` does not pass it keeps the
  // old RTT reference and gate.
  const TimelyParams p = AttributeDefaults();
  TimelyRp rp(&p, kLine);
  rp.OnAck(1000, 10000, 100 * kMicrosecond);
  rp.OnAck(11000, 10000, 200 * kMicrosecond);  // runs the rule, but records nothing
  const double diff = Ewma(0, 100000);
  EXPECT_EQ(rp.rtt_diff(), diff);
  rp.OnAck(12000, 20000, 200 * kMicrosecond);  // 12000 > 10000: runs again, against 100 us
  EXPECT_EQ(rp.rtt_diff(), Ewma(diff, 100000));
  EXPECT_EQ(rp.counters().updates, 2u);
}

}  // namespace
}  // namespace dcqcn
