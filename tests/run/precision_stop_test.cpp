#include "run/estimate/precision_stop.hpp"

#include <gtest/gtest.h>

namespace nqueens {
namespace {

// plan --estimate stops once its error has stayed within the target while
// the engine's draws doubled, not at the first draws that look precise.
TEST(PrecisionStopTest, StopsOnceTheDrawsDoubledWhilePrecise) {
  detail::precision_stop rule;
  EXPECT_FALSE(rule.stop(20, false));
  EXPECT_FALSE(rule.stop(30, true));  // precise from 30 draws: not yet
  EXPECT_FALSE(rule.stop(59, true));
  EXPECT_TRUE(rule.stop(60, true));
}

// A heavy draw that widens the error again starts the doubling anew: the
// draws precise before it do not count towards the stop.
TEST(PrecisionStopTest, AHeavyDrawStartsTheDoublingAnew) {
  detail::precision_stop rule;
  EXPECT_FALSE(rule.stop(30, true));
  EXPECT_FALSE(rule.stop(45, false));  // a heavy draw: the error out of its target
  EXPECT_FALSE(rule.stop(50, true));   // precise again from 50
  EXPECT_FALSE(rule.stop(60, true));   // twice 30, not twice 50
  EXPECT_FALSE(rule.stop(99, true));
  EXPECT_TRUE(rule.stop(100, true));
}

}  // namespace
}  // namespace nqueens
