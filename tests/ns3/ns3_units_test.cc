// Tests of the ns-3 unit strings used in HPCC files: DataRate, Time and decimal seconds.
#include "ns3/ns3_units.h"

#include <gtest/gtest.h>

namespace dcqcn {
namespace {

TEST(Ns3Units, DataRates) {
  EXPECT_EQ(ParseNs3DataRate("100Gbps"), 100 * kGbps);
  EXPECT_EQ(ParseNs3DataRate("25Gbps"), 25 * kGbps);
  EXPECT_EQ(ParseNs3DataRate("20Mb/s"), 20 * kMbps);
  EXPECT_EQ(ParseNs3DataRate("1000Mb/s"), 1000 * kMbps);
  EXPECT_EQ(ParseNs3DataRate("2.5Gb/s"), 2500 * kMbps);
  EXPECT_EQ(ParseNs3DataRate("5kbps"), 5000);
  EXPECT_EQ(ParseNs3DataRate("5Kb/s"), 5000);
  EXPECT_EQ(ParseNs3DataRate("1MBps"), 8 * kMbps);  // bytes per second
  EXPECT_EQ(ParseNs3DataRate("1KiB/s"), 8 * 1024);
  EXPECT_EQ(ParseNs3DataRate("400"), 400);  // a bare number is bits per second
  EXPECT_EQ(ParseNs3DataRate("Gbps"), std::nullopt);
  EXPECT_EQ(ParseNs3DataRate("10Gbs"), std::nullopt);
  EXPECT_EQ(ParseNs3DataRate("10 Gbps"), std::nullopt);
  EXPECT_EQ(ParseNs3DataRate("10Tbps"), std::nullopt);  // ns-3 has no T prefix
}

TEST(Ns3Units, Times) {
  EXPECT_EQ(ParseNs3Time("0.001ms"), 1 * kMicrosecond);
  EXPECT_EQ(ParseNs3Time("1000ns"), 1 * kMicrosecond);
  EXPECT_EQ(ParseNs3Time("1us"), 1 * kMicrosecond);
  EXPECT_EQ(ParseNs3Time("2"), 2 * kSecond);
  EXPECT_EQ(ParseNs3Time("1min"), 60 * kSecond);
  EXPECT_EQ(ParseNs3Time("1fs"), std::nullopt);
  EXPECT_EQ(ParseNs3Time("us"), std::nullopt);
}

TEST(Ns3Units, Seconds) {
  EXPECT_EQ(ParseSeconds("2"), 2 * kSecond);
  EXPECT_EQ(ParseSeconds("2.000000828"), 2 * kSecond + 828 * kNanosecond);
  EXPECT_EQ(ParseSeconds("2.000000000001"), 2 * kSecond + 1);
  EXPECT_EQ(ParseSeconds("1e-3"), kMillisecond);
  EXPECT_EQ(ParseSeconds("2s"), std::nullopt);
  EXPECT_EQ(ParseSeconds(""), std::nullopt);
  EXPECT_EQ(ParseSeconds("-1"), std::nullopt);
}

// Rates beyond kMaxRate (1 Pb/s), which would wrap 64 bits or overflow later, are rejected;
// times beyond kMaxTime too, in every ns-3 form.
TEST(Ns3Units, ValuesBeyondTheBoundsAreRejectedNotWrapped) {
  EXPECT_EQ(ParseNs3DataRate("2000000000GBps"), std::nullopt);
  EXPECT_EQ(ParseNs3DataRate("125000GBps"), kMaxRate);
  EXPECT_EQ(ParseNs3DataRate("125001GBps"), std::nullopt);
  EXPECT_EQ(ParseNs3DataRate("1000000Gibps"), std::nullopt);
  EXPECT_EQ(ParseNs3Time("1000000"), kMaxTime);
  EXPECT_EQ(ParseNs3Time("1000001s"), std::nullopt);
  EXPECT_EQ(ParseNs3Time("1000000d"), std::nullopt);
  EXPECT_EQ(ParseSeconds("1e7"), std::nullopt);
  EXPECT_EQ(ParseNs3Seconds("1e300"), std::nullopt);
}

TEST(Ns3Units, FlowStartsAreDoublesTruncatedToNanoseconds) {
  // The reference FCT file (fct_fat_ws30_5ms_dcqcn.txt) prints these flows' starts.
  EXPECT_EQ(ParseNs3Seconds("2.000013072"), 2000013071 * kNanosecond);
  EXPECT_EQ(ParseNs3Seconds("2.000014650"), 2000014649 * kNanosecond);
  EXPECT_EQ(ParseNs3Seconds("2.000011970"), 2000011970 * kNanosecond);
  // 2.001428604 as a double times 1e9 is 2001428603.99999999998 (a long double rounds it up).
  EXPECT_EQ(ParseNs3Seconds("2.001428604"), 2001428603 * kNanosecond);
  EXPECT_EQ(ParseNs3Seconds("1e-3"), 1000000 * kNanosecond);
  EXPECT_EQ(ParseNs3Seconds("2"), 2 * kSecond);
  EXPECT_EQ(ParseNs3Seconds("2.0000000005"), 2 * kSecond);  // below a nanosecond: dropped
  EXPECT_EQ(ParseNs3Seconds("x"), std::nullopt);
}

}  // namespace
}  // namespace dcqcn
