// Sets as numbers (set_ranks.hpp), which the quadrant engine's plan and
// the GPU engine's joins both read: unranking walks the subsets of a size
// in increasing order, once each, and the binomials count them.

#include "engines/join_model/set_ranks.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>

namespace nqueens {
namespace {

TEST(SetRanksTest, UnrankingFollowsIncreasingOrder) {
  for (int members = 0; members <= 14; ++members) {
    for (int size = 0; size <= members; ++size) {
      std::uint64_t rank = 0;
      for (std::uint64_t set = 0; set < (std::uint64_t{1} << members); ++set) {
        if (std::popcount(set) != size) continue;
        ASSERT_EQ(detail::unrank_subset(rank, members, size), set) << members << " " << size << " " << rank;
        ++rank;
      }
      EXPECT_EQ(rank, detail::binomial(members, size));
    }
  }
  EXPECT_EQ(detail::binomial(28, 14), 40116600U);
  EXPECT_EQ(detail::binomial(32, 16), 601080390U);
}

TEST(SetRanksTest, SqueezingABitMovesTheHigherOnesDown) {
  for (std::uint32_t bits = 0; bits < 256; ++bits) {
    for (int at = 0; at < 8; ++at) {
      const std::uint32_t squeezed = detail::squeeze_bit(bits, at);
      EXPECT_EQ(squeezed & detail::low_bits(at), bits & detail::low_bits(at));
      EXPECT_EQ(squeezed >> at, bits >> (at + 1));
    }
  }
}

}  // namespace
}  // namespace nqueens
