#include "kernels/bits.hpp"

#include <gtest/gtest.h>

namespace nqueens::detail {
namespace {

TEST(BitsTest, LowBitsCoversEveryBoardSize) {
  for (int n = 0; n <= 32; ++n) {
    const std::uint64_t expected = n == 32 ? 0xFFFFFFFFull : (std::uint64_t{1} << n) - 1;
    EXPECT_EQ(low_bits(n), expected) << "n = " << n;
  }
}

TEST(BitsTest, LowestBitAndClearLowestBitSplitEveryWord) {
  for (int b = 0; b < 32; ++b) {
    const std::uint32_t bit = std::uint32_t{1} << b;
    const std::uint32_t word = bit | (b < 31 ? 0xA5A5A5A5u << (b + 1) : 0u);
    EXPECT_EQ(lowest_bit(word), bit);
    EXPECT_EQ(clear_lowest_bit(word), word ^ bit);
    EXPECT_EQ(column_of(bit), b);
  }
  EXPECT_EQ(lowest_bit(0), 0u);
  EXPECT_EQ(clear_lowest_bit(0), 0u);
}

}  // namespace
}  // namespace nqueens::detail
