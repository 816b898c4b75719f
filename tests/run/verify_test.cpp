#include "nqueens/verify.hpp"

#include <gtest/gtest.h>

namespace nqueens {
namespace {

TEST(VerifyTest, DetectsMismatchAndUnknown) {
  EXPECT_EQ(verify(8, 92).total, verdict::match);
  EXPECT_EQ(verify(8, 93).total, verdict::mismatch);
  EXPECT_FALSE(verify(8, 93).ok());
  EXPECT_EQ(verify(28, 1).total, verdict::unknown);
  EXPECT_TRUE(verify(28, 1).ok());
}

// verified() holds only when every value given matched: one symmetric
// count given alone is compared and weighed (P(8) is 4, R(8) 0).
TEST(VerifyTest, VerifiedWeighsEveryValueGiven) {
  EXPECT_TRUE(verify(8, 92, 12, 4, 0).verified());
  EXPECT_FALSE(verify(8, 92, std::nullopt, 5).verified());
  EXPECT_FALSE(verify(8, 92, std::nullopt, 5).ok());
  EXPECT_FALSE(verify(8, 92, std::nullopt, std::nullopt, 2).verified());
  EXPECT_TRUE(verify(8, 92, std::nullopt, 4).verified());
  EXPECT_FALSE(verify(8, 92, 11).verified());
  EXPECT_TRUE(verify(8, std::nullopt, std::nullopt, 4).verified());
  EXPECT_FALSE(verify(8, std::nullopt).verified());  // nothing counted
  EXPECT_FALSE(verify(28, 1).verified());            // nothing published to match
}

// The names a library caller prints a verdict by, each its own.
TEST(VerifyTest, EveryVerdictHasItsName) {
  EXPECT_STREQ(to_string(verdict::match), "match");
  EXPECT_STREQ(to_string(verdict::mismatch), "mismatch");
  EXPECT_STREQ(to_string(verdict::unknown), "unknown");
}

}  // namespace
}  // namespace nqueens
