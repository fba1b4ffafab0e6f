// Tests of unit parsing and printing: the documented examples, rejection of malformed text, and
// Parse(Format(x)) == x over many magnitudes.
#include "core/units.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dcqcn {
namespace {

TEST(Units, ParsesDocumentedExamples) {
  EXPECT_EQ(ParseSize("24.47KB"), 24470);
  EXPECT_EQ(ParseTime("1.5us"), 1500000);
  EXPECT_EQ(ParseRate("40Gbps"), 40 * kGbps);
  EXPECT_EQ(ParseRate("40Gbps"), 40000000000LL);
  EXPECT_EQ(ParseSize("12MB"), 12000000);
  EXPECT_EQ(ParseTime("55us"), 55 * kMicrosecond);
  EXPECT_EQ(ParseRate("10Mbps"), 10 * kMbps);
}

TEST(Units, EverySuffix) {
  EXPECT_EQ(ParseTime("7ps"), 7);
  EXPECT_EQ(ParseTime("7ns"), 7 * kNanosecond);
  EXPECT_EQ(ParseTime("7us"), 7 * kMicrosecond);
  EXPECT_EQ(ParseTime("7ms"), 7 * kMillisecond);
  EXPECT_EQ(ParseTime("7s"), 7 * kSecond);
  EXPECT_EQ(ParseRate("7bps"), 7);
  EXPECT_EQ(ParseRate("7Kbps"), 7000);
  EXPECT_EQ(ParseRate("7Mbps"), 7000000);
  EXPECT_EQ(ParseRate("7Gbps"), 7000000000LL);
  EXPECT_EQ(ParseRate("7Tbps"), 7000000000000LL);
  EXPECT_EQ(ParseSize("7B"), 7);
  EXPECT_EQ(ParseSize("7KB"), 7000);
  EXPECT_EQ(ParseSize("7MB"), 7000000);
  EXPECT_EQ(ParseSize("7GB"), 7000000000LL);
  EXPECT_EQ(ParseSize("7KiB"), 7 * 1024);
  EXPECT_EQ(ParseSize("7MiB"), 7 * 1024 * 1024);
  EXPECT_EQ(ParseSize("7GiB"), 7LL * 1024 * 1024 * 1024);
}

TEST(Units, DecimalsRoundToTheNearestBaseUnit) {
  EXPECT_EQ(ParseTime("0.5ns"), 500);
  EXPECT_EQ(ParseTime("0.0005ns"), 1);  // 0.5 ps rounds up
  EXPECT_EQ(ParseTime("0.0004ns"), 0);
  EXPECT_EQ(ParseSize("1.5B"), 2);
  EXPECT_EQ(ParseSize(".5KB"), 500);
  EXPECT_EQ(ParseTime("4.096us"), 4096000);
  EXPECT_EQ(ParseTime("-1.5us"), -1500000);  // negatives parse; callers reject them
}

TEST(Units, RejectsMalformedText) {
  for (const char* bad : {"5 kilobytes", "", "KB", "1..5us", "40Gbit", "5", "5kb", "5 KBs", "1e3us",
                          "us5", "--5us", ".us", "5us ", "0x10KB", "five KB"}) {
    EXPECT_FALSE(ParseSize(bad).has_value()) << bad;
    EXPECT_FALSE(ParseTime(bad).has_value()) << bad;
    EXPECT_FALSE(ParseRate(bad).has_value()) << bad;
  }
  // A suffix of the wrong kind.
  EXPECT_FALSE(ParseTime("5KB").has_value());
  EXPECT_FALSE(ParseSize("5us").has_value());
  EXPECT_FALSE(ParseRate("5MB").has_value());
  EXPECT_FALSE(ParseRate("5Gb").has_value());
  // Too large for 64 bits.
  EXPECT_FALSE(ParseTime("100000000s").has_value());
  EXPECT_FALSE(ParseSize("9999999999999999999GB").has_value());
}

// Every parsed quantity is within its bound, so sums of a few times and 128-bit products never
// overflow; beyond it the parser says what the bound is.
TEST(Units, ParsersRejectValuesBeyondTheBounds) {
  EXPECT_EQ(ParseTime("1000000s"), kMaxTime);
  EXPECT_EQ(ParseTime("-1000000s"), -kMaxTime);
  EXPECT_EQ(ParseRate("1000Tbps"), kMaxRate);
  EXPECT_EQ(ParseSize("1000000GB"), kMaxSize);
  std::string why;
  EXPECT_FALSE(ParseTime("1000000.000000000001s", &why).has_value());
  EXPECT_EQ(why, "at most 1000000s");
  why.clear();
  EXPECT_FALSE(ParseTime("9223372036854775807ps", &why).has_value());
  EXPECT_EQ(why, "at most 1000000s");
  why.clear();
  EXPECT_FALSE(ParseRate("1001Tbps", &why).has_value());
  EXPECT_EQ(why, "at most 1000Tbps");
  why.clear();
  EXPECT_FALSE(ParseSize("00000000000000000000001000001GB", &why).has_value());
  EXPECT_EQ(why, "at most 1000000GB");
  // Leading zeros are not magnitude.
  EXPECT_EQ(ParseSize("0000000000000000000000005KB"), 5000);
  // A malformed value leaves `why` empty: it is not a bound problem.
  why.clear();
  EXPECT_FALSE(ParseTime("5KB", &why).has_value());
  EXPECT_EQ(why, "");
}

TEST(Units, FormatsInTheLargestExactUnit) {
  EXPECT_EQ(FormatSize(24470), "24.47KB");
  EXPECT_EQ(FormatSize(12000000), "12MB");
  EXPECT_EQ(FormatSize(0), "0B");
  EXPECT_EQ(FormatSize(1), "1B");
  EXPECT_EQ(FormatTime(1500000), "1.5us");
  EXPECT_EQ(FormatTime(10 * kMillisecond), "10ms");
  EXPECT_EQ(FormatTime(0), "0ps");
  EXPECT_EQ(FormatRate(40 * kGbps), "40Gbps");
  EXPECT_EQ(FormatRate(10 * kMbps), "10Mbps");
}

std::vector<int64_t> Magnitudes() {
  std::vector<int64_t> values = {0,
                                 1,
                                 7,
                                 999,
                                 1000,
                                 1001,
                                 1023,
                                 1024,
                                 24470,
                                 1500000,
                                 123456789,
                                 4096000,
                                 1LL << 30,
                                 1LL << 40,
                                 999999999999999LL,
                                 INT64_MAX,
                                 INT64_MAX - 1,
                                 -1,
                                 -1500000};
  // Big values whose last digits force a small unit: they must still print exactly.
  values.push_back(2305843009213693952LL);  // ~2.3e18; * 1000 overflows 64 bits
  values.push_back(9300LL * kSecond);
  uint64_t x = 88172645463325252ULL;
  for (int i = 0; i < 2000; ++i) {  // xorshift: random magnitudes across all scales
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    values.push_back(static_cast<int64_t>(x >> (1 + x % 63)));
  }
  return values;
}

TEST(Units, ParseOfFormatIsExact) {
  for (int64_t v : Magnitudes()) {
    // Format prints any value; Parse accepts those within the bound of their kind.
    const auto expect = [&](int64_t max) {
      return std::llabs(v) <= max ? std::optional<int64_t>(v) : std::nullopt;
    };
    EXPECT_EQ(ParseTime(FormatTime(v)), expect(kMaxTime)) << FormatTime(v);
    EXPECT_EQ(ParseRate(FormatRate(v)), expect(kMaxRate)) << FormatRate(v);
    EXPECT_EQ(ParseSize(FormatSize(v)), expect(kMaxSize)) << FormatSize(v);
  }
}

TEST(Units, FormatOfParseIsStableForCanonicalText) {
  for (const char* text : {"24.47KB", "12MB", "1B", "5KB", "200KB", "1.5MB", "1GB"}) {
    EXPECT_EQ(FormatSize(*ParseSize(text)), text);
  }
  for (const char* text : {"1.5us", "10ms", "1s", "123ps", "4.096us", "55us"}) {
    EXPECT_EQ(FormatTime(*ParseTime(text)), text);
  }
  for (const char* text : {"40Gbps", "100Gbps", "10Mbps", "1Tbps", "25.5Gbps"}) {
    EXPECT_EQ(FormatRate(*ParseRate(text)), text);
  }
}

TEST(Units, SerializationAndBytesInTime) {
  EXPECT_EQ(SerializationTime(1000, 40 * kGbps), 200 * kNanosecond);
  EXPECT_EQ(SerializationTime(1, 3), 2666666666667);                        // rounded up
  EXPECT_EQ(SerializationTime(10'000'000'000LL, 40 * kGbps), 2 * kSecond);  // no overflow
  EXPECT_EQ(BytesInTime(200 * kNanosecond, 40 * kGbps), 1000);
  EXPECT_EQ(BytesInTime(kSecond, 40 * kGbps), 5'000'000'000LL);
}

}  // namespace
}  // namespace dcqcn
