#include "engines/checked_count.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>

#include "engines/join_model/filter_rule.hpp"

namespace nqueens::detail {
namespace {

constexpr std::uint64_t most = std::numeric_limits<std::uint64_t>::max();

// A subproblem's sums and products are exact up to 2^64 - 1 and refused
// past it, never wrapped onto a small count.
TEST(CheckedCountTest, SumsAndProductsAreExactToTheLastValueAndRefusedPastIt) {
  EXPECT_EQ(checked_sum(most - 5, 5), most);
  EXPECT_EQ(checked_product(most / 3, 3), most);  // 2^64 - 1 is divisible by 3
  EXPECT_EQ(checked_product(0, most), 0U);
  EXPECT_THROW(checked_sum(most, 1), std::overflow_error);
  EXPECT_THROW(checked_product(std::uint64_t{1} << 32, std::uint64_t{1} << 32), std::overflow_error);
  try {
    checked_sum(most - 1, 2);
    FAIL() << "a sum past 2^64 wrapped";
  } catch (const std::overflow_error& e) {
    EXPECT_STREQ(e.what(), "a subproblem has more than 2^64 solutions");
  }
}

// The filter's 2 * twice + once, on the CPU and the GPU alike: refused where
// the doubling alone or the sum passes 2^64.
TEST(CheckedCountTest, TheFiltersShareIsRefusedPast2To64) {
  EXPECT_EQ(filtered_share(3, 4), 10U);
  EXPECT_EQ(filtered_share(most / 2, 1), most);
  EXPECT_THROW(filtered_share(most / 2 + 1, 0), std::overflow_error);
  EXPECT_THROW(filtered_share(most / 2, 2), std::overflow_error);
}

}  // namespace
}  // namespace nqueens::detail
