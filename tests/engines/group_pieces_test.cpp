// How a subproblem too large for its share cuts its groups into pieces by
// shared bits (group_pieces.hpp): every pair that can be disjoint falls in
// exactly one piece pair, and the cut is chosen to fit.

#include "engines/quadrant/group_pieces.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <vector>

namespace nqueens {
namespace {

TEST(GroupPiecesTest, PatternsReadTheBitsLowestFirst) {
  const std::uint64_t bits = (std::uint64_t{1} << 3) | (std::uint64_t{1} << 40) | (std::uint64_t{1} << 7);
  EXPECT_EQ(detail::pattern_of(0, bits), 0U);
  EXPECT_EQ(detail::pattern_of(std::uint64_t{1} << 3, bits), 1U);
  EXPECT_EQ(detail::pattern_of(std::uint64_t{1} << 7, bits), 2U);
  EXPECT_EQ(detail::pattern_of((std::uint64_t{1} << 40) | (std::uint64_t{1} << 7) | 0x60, bits), 4U | 2U);
  const detail::piece_filter odd{bits, std::uint64_t{1} << 2, true};  // pattern 2 (bit 7), turned: read from bit 39
  EXPECT_TRUE(odd.takes(std::uint64_t{1} << 39));
  EXPECT_FALSE(odd.takes(std::uint64_t{1} << 7));
  EXPECT_TRUE(detail::piece_filter{}.takes(12345));
}

// A half of pattern q can be disjoint from one of pattern p only where
// q & p == 0: the pairing patterns of a set are exactly those.
TEST(GroupPiecesTest, PairingPatternsShareNoBitWithOne) {
  for (int bits = 0; bits <= 3; ++bits) {
    const unsigned count = 1U << bits;
    for (std::uint64_t set = 1; set < (std::uint64_t{1} << count); ++set) {
      const std::uint64_t pairing = detail::pairing_patterns(set, bits);
      for (unsigned q = 0; q < count; ++q) {
        bool any = false;
        for (unsigned p = 0; p < count; ++p) any = any || ((set >> p & 1U) != 0 && (q & p) == 0);
        EXPECT_EQ((pairing >> q & 1U) != 0, any) << "bits " << bits << ", set " << set << ", q " << q;
      }
      EXPECT_EQ(pairing & ~((std::uint64_t{1} << count) - 1), 0U);
    }
  }
}

// Patterns grouped in order while their sizes fit, at least one a group,
// each allowed one exactly once.
TEST(GroupPiecesTest, NextPatternsCoverEachAllowedOnce) {
  std::array<double, 64> sizes{};
  for (std::size_t p = 0; p < 8; ++p) sizes[p] = static_cast<double>(10 * (p + 1));
  const std::uint64_t allowed = 0b1011'0111;
  std::uint64_t covered = 0;
  int from = 0;
  for (std::uint64_t set; (set = detail::next_patterns(sizes, allowed, 3, from, 45.0)) != 0;) {
    EXPECT_EQ(set & covered, 0U);
    EXPECT_EQ(set & ~allowed, 0U);
    double held = 0;
    for (std::uint64_t s = set; s != 0; s &= s - 1) held += sizes[static_cast<std::size_t>(std::countr_zero(s))];
    EXPECT_TRUE(held <= 45.0 || std::popcount(set) == 1) << set;
    covered |= set;
  }
  EXPECT_EQ(covered, allowed);
}

// No cut where the outer group fits; else balanced bits both groups hold,
// until the estimated largest pattern fits, never a free (tag) bit.
TEST(GroupPiecesTest, ChoosesSharedBalancedBitsUntilThePiecesFit) {
  std::mt19937_64 random(28);
  std::vector<std::uint64_t> outer(4096), inner(4096);
  // Bits 0-9 in half the masks of both, bit 30 (a free bit) in half of both,
  // bit 12 in nine in ten of the outer ones (unbalanced).
  for (std::size_t i = 0; i < outer.size(); ++i) {
    outer[i] =
        (random() & 0x3FF) | (random() & (std::uint64_t{1} << 30)) | (random() % 10 != 0 ? std::uint64_t{1} << 12 : 0);
    inner[i] = (random() & 0x3FF) | (random() & (std::uint64_t{1} << 30)) | (std::uint64_t{1} << 12);
  }
  EXPECT_EQ(detail::choose_piece_bits(outer, inner, 1000, 1000), 0U);
  const std::uint64_t bits = detail::choose_piece_bits(outer, inner, 4000, 1000);
  EXPECT_EQ(bits & ~std::uint64_t{0x3FF}, 0U) << "only the balanced board bits";
  EXPECT_GE(std::popcount(bits), 2);
  const std::array<double, 64> sizes = detail::pattern_sizes(outer, bits, 4000);
  double total = 0;
  for (const double s : sizes) {
    EXPECT_LE(s, 1000.0);
    total += s;
  }
  EXPECT_NEAR(total, 4000.0, 1e-6);
  EXPECT_LE(std::popcount(detail::choose_piece_bits(outer, inner, 1e9, 1)), detail::max_piece_bits);
}

}  // namespace
}  // namespace nqueens
