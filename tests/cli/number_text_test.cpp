#include "cli/number_text.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace nqueens::cli {
namespace {

TEST(NumberTextTest, NumbersReadAtAGlance) {
  EXPECT_EQ(format_scaled(0), "0");
  EXPECT_EQ(format_scaled(999), "999");
  EXPECT_EQ(format_scaled(999.5), "1.00 k");
  EXPECT_EQ(format_scaled(14'772'512), "14.8 M");
  EXPECT_EQ(format_scaled(4'968'057'848), "4.97 G");
  EXPECT_EQ(format_scaled(999'600), "1.00 M");
  EXPECT_EQ(format_scaled(2.2e18), "2.20 E");
  EXPECT_EQ(format_grouped(0), "0");
  EXPECT_EQ(format_grouped(13070), "13,070");
  EXPECT_EQ(format_grouped(1234567), "1,234,567");
  // Whole groups of three: no comma before the first ("212", not ",212").
  EXPECT_EQ(format_grouped(212), "212");
  EXPECT_EQ(format_grouped(123456), "123,456");
  EXPECT_EQ(format_grouped(100'000'000), "100,000,000");
  EXPECT_EQ(format_duration(8.24), "8.2s");
  EXPECT_EQ(format_duration(72), "1m12s");
  EXPECT_EQ(format_duration(3 * 3600 + 300), "3h05m");
  EXPECT_EQ(format_duration(51 * 3600), "2d03h");
  // A unit is chosen by the rounded value: never "60.0s", "60m00s" or "24h00m".
  EXPECT_EQ(format_duration(59.94), "59.9s");
  EXPECT_EQ(format_duration(59.96), "1m00s");
  EXPECT_EQ(format_duration(3599.6), "1h00m");
  EXPECT_EQ(format_duration(86399), "1d00h");
  // From a year on, years: "3.28y", not "1199d05h".
  EXPECT_EQ(format_duration(364 * 86400.0), "364d00h");
  EXPECT_EQ(format_duration(3.15576e7), "1y");
  EXPECT_EQ(format_duration(1199 * 86400.0 + 5 * 3600), "3.28y");
  EXPECT_EQ(format_duration(3.15576e7 * 123.4), "123y");
  EXPECT_EQ(format_duration(3.15576e7 * 12345.6), "12346y");
  // Past what a long holds in hours, and infinity: years, not garbage.
  EXPECT_EQ(format_duration(3.15576e7 * 1e6), "1e+06y");
  EXPECT_EQ(format_duration(1e300), "3.17e+292y");
  EXPECT_EQ(format_duration(HUGE_VAL), "infy");
}

TEST(NumberTextTest, SecondsWithThreeDecimals) {
  EXPECT_EQ(format_seconds(0), "0.000 s");
  EXPECT_EQ(format_seconds(0.1234), "0.123 s");
  EXPECT_EQ(format_seconds(71.9), "71.900 s");
}

}  // namespace
}  // namespace nqueens::cli
