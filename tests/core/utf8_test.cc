#include "core/utf8.h"

#include <gtest/gtest.h>

namespace dcqcn {
namespace {

TEST(Utf8, AcceptsValidText) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("10Mbps"));
  EXPECT_TRUE(IsValidUtf8("\xC3\xA9t\xC3\xA9"));          // été
  EXPECT_TRUE(IsValidUtf8("\xE2\x82\xAC"));               // U+20AC
  EXPECT_TRUE(IsValidUtf8("\xED\x9F\xBF"));               // U+D7FF, below the surrogates
  EXPECT_TRUE(IsValidUtf8("\xF0\x9F\x98\x80"));           // U+1F600
  EXPECT_TRUE(IsValidUtf8("\xF4\x8F\xBF\xBF"));           // U+10FFFF
  EXPECT_TRUE(IsValidUtf8(std::string_view("a\0b", 3)));  // NUL is valid UTF-8
}

TEST(Utf8, RejectsInvalidText) {
  EXPECT_FALSE(
      IsValidUtf8("tr\xFF"
                  "ffic"));                       // never valid
  EXPECT_FALSE(IsValidUtf8("\x80"));              // a lone continuation byte
  EXPECT_FALSE(IsValidUtf8("\xC3"));              // truncated
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));          // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xE0\x80\xAF"));      // overlong
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));      // U+D800, a surrogate
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xE2\x82"));          // truncated
  EXPECT_FALSE(IsValidUtf8("\xE2\x28\xA1"));      // bad continuation
}

}  // namespace
}  // namespace dcqcn
