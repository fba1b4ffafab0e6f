// Tests of DCTCP's sender (src/cc/dctcp/dctcp_rp.h) on scripted ACKs. Each expected rate and
// alpha is recomputed with the header's expressions in their order, so the comparisons are exact.
#include "cc/dctcp/dctcp_rp.h"

#include <gtest/gtest.h>

namespace dcqcn {
namespace {

constexpr Rate kLine = 100 * kGbps;
constexpr Bytes kMtu = 1000;

DctcpParams Params() {
  DctcpParams p;
  p.g = 1.0 / 16;
  p.rate_ai = 615 * kMbps;
  p.min_rate = 100 * kMbps;
  return p;
}

Rate Cut(Rate rate, double alpha) {
  return static_cast<Rate>(static_cast<double>(rate) * (1 - alpha / 2));
}

TEST(DctcpRp, StartsAtLineRateWithAlphaOne) {
  const DctcpParams p = Params();
  DctcpRp rp(&p, kLine, kMtu);
  EXPECT_EQ(rp.rate(), kLine);
  EXPECT_EQ(rp.alpha(), 1.0);
  EXPECT_FALSE(rp.in_cwr());
}

TEST(DctcpRp, OneCutPerWindowAndAlphaPerBatch) {
  const DctcpParams p = Params();
  DctcpRp rp(&p, kLine, kMtu);
  // The first ACK opens a batch ending at what was sent (10 packets): batch of 11.
  rp.OnAck(1000, 10000, false);
  EXPECT_EQ(rp.rate(), kLine);  // the increase is capped at line rate
  EXPECT_EQ(rp.alpha(), 1.0);
  EXPECT_EQ(rp.counters().increases, 0u);

  // An echo outside CWR: cut by alpha / 2 = one half, enter CWR until an ACK passes 11000.
  rp.OnAck(2000, 11000, true);
  Rate rate = Cut(kLine, 1.0);
  EXPECT_EQ(rp.rate(), rate);
  EXPECT_EQ(rate, 50 * kGbps);
  EXPECT_TRUE(rp.in_cwr());

  // A second echo in the same window: counted, no cut.
  rp.OnAck(3000, 12000, true);
  EXPECT_EQ(rp.rate(), rate);
  EXPECT_EQ(rp.counters().cuts, 1u);

  // Past 10000: the batch closes with 2 marked of 11; the next expects (20000-11000)/1000+1.
  // 11000 does not pass the CWR end (11000): still in CWR, no increase.
  rp.OnAck(11000, 20000, false);
  double alpha = (1 - 1.0 / 16) * 1.0 + 1.0 / 16 * (2.0 / 11);
  EXPECT_EQ(rp.alpha(), alpha);
  EXPECT_TRUE(rp.in_cwr());
  EXPECT_EQ(rp.rate(), rate);

  // Passing 11000 ends CWR; no new batch yet, so no increase.
  rp.OnAck(12000, 21000, false);
  EXPECT_FALSE(rp.in_cwr());
  EXPECT_EQ(rp.rate(), rate);

  // Past 20000: a batch of 10 with no mark, and outside CWR the additive increase.
  rp.OnAck(21000, 30000, false);
  alpha = (1 - 1.0 / 16) * alpha + 1.0 / 16 * 0.0;
  EXPECT_EQ(rp.alpha(), alpha);
  rate += 615 * kMbps;
  EXPECT_EQ(rp.rate(), rate);
  EXPECT_EQ(rp.counters().increases, 1u);

  // The next echo cuts by the smaller alpha.
  rp.OnAck(22000, 31000, true);
  rate = Cut(rate, alpha);
  EXPECT_EQ(rp.rate(), rate);
  EXPECT_EQ(rp.counters().cuts, 2u);
  EXPECT_EQ(rp.counters().echoes, 3u);
  EXPECT_EQ(rp.counters().batches, 2u);
}

TEST(DctcpRp, MarksBeyondTheBatchCountAsOne) {
  // F is at most 1: more echoes than the batch's packets (a batch sized when little was in
  // flight) cannot push alpha above 1.
  DctcpParams p = Params();
  p.g = 0.5;
  DctcpRp rp(&p, kLine, kMtu);
  rp.OnAck(1000, 1000, false);  // batch of 2 ending at 1000
  rp.OnAck(1000, 1000, true);
  rp.OnAck(1000, 1000, true);
  rp.OnAck(1000, 1000, true);
  rp.OnAck(2000, 2000, false);  // closes the batch: F = min(1, 3/2)
  EXPECT_EQ(rp.alpha(), 1.0);
}

TEST(DctcpRp, CutsStopAtTheMinimumRate) {
  DctcpParams p = Params();
  p.min_rate = 30 * kGbps;
  DctcpRp rp(&p, kLine, kMtu);
  Bytes acked = 1000;
  rp.OnAck(acked, acked, false);
  for (int i = 0; i < 5; ++i) {
    acked += 1000;
    rp.OnAck(acked, acked, true);  // each ACK passes the last CWR end: a cut every time
  }
  EXPECT_EQ(rp.rate(), 30 * kGbps);
}

}  // namespace
}  // namespace dcqcn
