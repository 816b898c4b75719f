#include "run/measure/median.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace nqueens {
namespace {

// scale's seconds (of --repeat runs) and the load balance's subproblem times
// are medians: the middle value, or with an even count the mean of the two
// middle ones (an even --repeat took the slower of them once).
TEST(MedianTest, TheMiddleValueOrTheMeanOfTheTwoMiddleOnes) {
  EXPECT_DOUBLE_EQ(detail::median_of({}), 0.0);
  EXPECT_DOUBLE_EQ(detail::median_of({7.0}), 7.0);
  EXPECT_DOUBLE_EQ(detail::median_of({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(detail::median_of({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_DOUBLE_EQ(detail::median_of({2.0, 1.0}), 1.5);
  EXPECT_DOUBLE_EQ(detail::median_of({5.0, 5.0, 1.0, 9.0, 5.0}), 5.0);
}

}  // namespace
}  // namespace nqueens
