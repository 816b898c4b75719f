#include "nqueens/count_types.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>

namespace nqueens {
namespace {

TEST(CountTypesTest, ToStringIsExactAtBoundaries) {
  EXPECT_EQ(to_string(0), "0");
  EXPECT_EQ(to_string(9), "9");
  EXPECT_EQ(to_string(10), "10");
  const uint128 u64_max = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(to_string(u64_max), "18446744073709551615");
  EXPECT_EQ(to_string(u64_max + 1), "18446744073709551616");
  EXPECT_EQ(to_string(~uint128{0}), "340282366920938463463374607431768211455");
}

// A signed argument keeps its sign (converted to uint128 it would not).
TEST(CountTypesTest, ToStringOfASignedIntegerKeepsItsSign) {
  EXPECT_EQ(to_string(-1), "-1");
  EXPECT_EQ(to_string(std::int64_t{-42}), "-42");
  EXPECT_EQ(to_string(std::numeric_limits<std::int64_t>::min()), "-9223372036854775808");
  EXPECT_EQ(to_string(std::numeric_limits<std::int64_t>::max()), "9223372036854775807");
}

TEST(CountTypesTest, CheckedAddThrowsInsteadOfWrapping) {
  const uint128 max = ~uint128{0};
  EXPECT_EQ(checked_add(max - 1, 1), max);
  EXPECT_THROW(checked_add(max, 1), std::overflow_error);
  const uint128 u64_max = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(to_string(checked_add(u64_max, u64_max)), "36893488147419103230");
}

// A board of no rows has no classes to count: refused, not 1.
TEST(CountTypesTest, FundamentalCountNeedsABoardAndCountsThatCanBeTrue) {
  EXPECT_THROW(static_cast<void>(fundamental_count(0, 1, 1, 1)), std::invalid_argument);
  EXPECT_THROW(static_cast<void>(fundamental_count(-5, 8, 0, 0)), std::invalid_argument);
  EXPECT_EQ(fundamental_count(1, 1, 1, 1), 1U);
  EXPECT_EQ(fundamental_count(8, 92, 4, 0), 12U);
  // Sums that are multiples of 8, from counts that cannot be: R > P, P > Q.
  EXPECT_THROW(static_cast<void>(fundamental_count(8, 90, 0, 3)), std::domain_error);
  EXPECT_THROW(static_cast<void>(fundamental_count(8, 4, 12, 0)), std::domain_error);
}

}  // namespace
}  // namespace nqueens
