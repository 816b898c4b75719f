// The masks a half board is read by where it meets the other half
// (half_masks.hpp): a south half's diagonals stay below the bits that the
// row tags and the middle queen's filter use.

#include "engines/join_model/half_masks.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

namespace nqueens {
namespace {

// A south half's up-left diagonals, shifted a row down, drop the one that
// leaves the board rather than carry it into bit n: at n = 28 that is the
// first row-tag bit, which the odd boards' filter reads.
TEST(HalfMasksTest, ASouthHalfKeepsItsDiagonalsOnTheBoard) {
  std::mt19937 random(28);
  for (int n = 4; n <= 28; ++n) {
    const std::uint32_t full = (std::uint32_t{1} << n) - 1;
    for (int k = 0; k < 200; ++k) {
      const std::uint32_t left = static_cast<std::uint32_t>(random()) & full;
      const std::uint32_t right = (static_cast<std::uint32_t>(random()) & full) | (k % 2 == 0 ? 1U << (n - 1) : 0U);
      const std::uint64_t m = detail::south_mask(left, right, full);
      EXPECT_EQ(m & 0xFFFFFFFFU & ~std::uint64_t{full}, 0U) << "n = " << n << ", right " << right;
      EXPECT_EQ(m & detail::free_bits, 0U) << "n = " << n << ", right " << right;
      EXPECT_EQ(m & 0xFFFFFFFFU, (right << 1) & full) << "n = " << n;
      EXPECT_EQ(m >> 32, left >> 1) << "n = " << n;
    }
  }
}

}  // namespace
}  // namespace nqueens
