#include "nqueens/known_counts.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace nqueens
