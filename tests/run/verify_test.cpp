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

}  // namespace
}  // namespace nqueens
