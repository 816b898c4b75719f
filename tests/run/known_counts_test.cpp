#include "nqueens/known_counts.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace nqueens {
namespace {

TEST(KnownCountsTest, ClassicValues) {
  EXPECT_EQ(published_total(8), 92u);
  EXPECT_EQ(published_total(9), 352u);
  EXPECT_EQ(published_total(10), 724u);
  EXPECT_EQ(published_unique(8), 12u);
  EXPECT_EQ(published_total(27), 234907967154122528u);
}

TEST(KnownCountsTest, OutsideTheTableIsUnknown) {
  for (const int n : {-1, 0, max_published_board_size + 1, 32}) {
    EXPECT_FALSE(published_total(n).has_value()) << n;
    EXPECT_FALSE(published_unique(n).has_value()) << n;
  }
}

TEST(KnownCountsTest, EveryClassHasOneToEightMembers) {
  for (int n = 1; n <= max_published_board_size; ++n) {
    const auto total = *published_total(n);
    const auto unique = *published_unique(n);
    EXPECT_LE(unique, total) << n;
    EXPECT_LE(total, 8 * unique) << n;
    // Solutions come in mirror pairs except on the 1x1 board.
    if (n > 1) EXPECT_EQ(total % 2, 0u) << n;
  }
}

// The rotation-symmetric counts, held past the published Q(n) (to n = 32),
// keep what the board's symmetries force on them. No solution but the lone
// queen is its own mirror image, so a solution's stabiliser under the 8
// symmetries is a group of rotations: a half turn's (classes of 4) or a
// quarter turn's (classes of 2). So R(n) is even, P(n) - R(n) is a multiple
// of 4, and R(n) <= P(n); R(n) is 0 unless n = 4k or 4k + 1, and then a
// multiple of 2^k (Ahrens, 1910, as OEIS A033148 cites). A digit mistyped
// in the table breaks one of them three times in four.
TEST(KnownCountsTest, RotationalCountsKeepTheirClassSizes) {
  for (const int n : {-1, 0, max_rotational_board_size + 1}) {
    EXPECT_FALSE(published_symmetric_180(n).has_value()) << n;
    EXPECT_FALSE(published_symmetric_90(n).has_value()) << n;
  }
  for (int n = 1; n <= max_rotational_board_size; ++n) {
    ASSERT_TRUE(published_symmetric_180(n).has_value()) << n;
    ASSERT_TRUE(published_symmetric_90(n).has_value()) << n;
    const std::uint64_t half = *published_symmetric_180(n);
    const std::uint64_t quarter = *published_symmetric_90(n);
    EXPECT_LE(quarter, half) << n;
    if (n % 4 == 2 || n % 4 == 3) EXPECT_EQ(quarter, 0U) << n;
    EXPECT_EQ(quarter % (std::uint64_t{1} << (n / 4)), 0U) << n;
    if (n == 1) continue;
    EXPECT_EQ(quarter % 2, 0U) << n;
    EXPECT_EQ((half - quarter) % 4, 0U) << n;
  }
}

}  // namespace
}  // namespace nqueens
