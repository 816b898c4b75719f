#pragma once

// Sets of rows and columns as numbers, one definition for the quadrant
// engine and the GPU engine's kernels (NQUEENS_HD): binomials, the colex
// order of the subsets of a size, and the filter's ranking of a row set.
// Pinned by static_asserts here, tests/engines/set_ranks_test.cpp and
// (rank_rows, as the filter needs it) tests/engines/transposition_test.cpp.

#include <cstdint>

#include "kernels/bits.hpp"
#include "kernels/host_device.hpp"

namespace nqueens::detail {

/// C(n, k), 0 when k is out of range. Exact for n <= 32: each step of the
/// loop is C(n - k + i, i), which fits.
NQUEENS_HD constexpr std::uint64_t binomial(int n, int k) noexcept {
  if (k < 0 || k > n) return 0;
  k = k < n - k ? k : n - k;
  std::uint64_t c = 1;
  for (int i = 1; i <= k; ++i) c = c * static_cast<std::uint64_t>(n - k + i) / static_cast<std::uint64_t>(i);
  return c;
}
static_assert(binomial(12, 6) == 924 && binomial(32, 16) == 601080390 && binomial(3, 4) == 0 && binomial(0, 0) == 1);

/// The `rank`-th subset of `size` members of {0..members-1} in increasing
/// (colex) order, as next_subset visits them, as a bit mask: its largest
/// member c is the largest with C(c, size) <= rank, and the rest is the
/// (rank - C(c, size))-th subset of size - 1 below c.
/// Precondition: rank < C(members, size), members <= 32.
NQUEENS_HD constexpr std::uint64_t unrank_subset(std::uint64_t rank, int members, int size) noexcept {
  std::uint64_t bits = 0;
  int c = members;
  for (int k = size; k >= 1; --k) {
    do --c;
    while (binomial(c, k) > rank);
    bits |= std::uint64_t{1} << c;  // NOLINT(clang-analyzer-core.UndefinedBinaryOperatorResult): c >= k - 1
    rank -= binomial(c, k);
  }
  return bits;
}
static_assert(unrank_subset(0, 5, 2) == 0b00011 && unrank_subset(1, 5, 2) == 0b00101 &&
              unrank_subset(9, 5, 2) == 0b11000 && unrank_subset(0, 4, 0) == 0);

/// `bits` without bit `at`: the bits above it move down one.
/// Precondition: 0 <= at < 32.
NQUEENS_HD constexpr std::uint32_t squeeze_bit(std::uint32_t bits, int at) noexcept {
  const std::uint32_t below = bits & ((std::uint32_t{1} << at) - 1);
  return below | static_cast<std::uint32_t>((std::uint64_t{bits} >> (at + 1)) << at);
}
static_assert(squeeze_bit(0b10110, 2) == 0b1010 && squeeze_bit(0b1, 0) == 0);

/// The h low bits of `bits` in reverse order (bit j to bit h - 1 - j).
/// Precondition: 0 <= h <= 32 and bits < 2^h.
NQUEENS_HD constexpr std::uint32_t reverse_low_bits(std::uint32_t bits, int h) noexcept {
  // All 32 bits reversed by swapping halves, then shifted down: no loop,
  // since the joins rank each row set they visit (a loop here cost Q(18)
  // about 3%).
  bits = ((bits >> 1) & 0x55555555U) | ((bits & 0x55555555U) << 1);
  bits = ((bits >> 2) & 0x33333333U) | ((bits & 0x33333333U) << 2);
  bits = ((bits >> 4) & 0x0F0F0F0FU) | ((bits & 0x0F0F0F0FU) << 4);
  bits = ((bits >> 8) & 0x00FF00FFU) | ((bits & 0x00FF00FFU) << 8);
  bits = (bits >> 16) | (bits << 16);
  return h == 0 ? 0 : bits >> (32 - h);
}
static_assert(reverse_low_bits(0b0011, 4) == 0b1100 && reverse_low_bits(0b0100, 3) == 0b0001);
static_assert(reverse_low_bits(0, 0) == 0 && reverse_low_bits(1, 1) == 1 && reverse_low_bits(1, 32) == 0x80000000U);

/// An h-bit set (bit d: the index d from the nearest edge) as the filter
/// ranks it: the edge index most significant, then the centre's (h - 1),
/// then 1, 2, ..., h - 2. Any order of the bits serves the identity (the
/// mirror and the flip commute with it); this one gives the subproblems that
/// hold the most work a large c, so they keep the fewest halves. Counted
/// over every half board (a throw-away enumeration), the filter keeps 65.8%
/// of the halves and 49.3% of the (north, south) pairs at n = 20, against
/// 70.8% and 54.6% in the plain order (centre most significant); from the
/// edge up, 69.9% and 50.4%; n = 14..18 alike. The pairs it drops are
/// mostly cheap ones (the fitting pairs were near half already), so the
/// time falls with the halves and with the largest groups: 1% less time per
/// subproblem at n = 20 and 22, 4-8% at n = 24, 16% at n = 26 (one thread,
/// the same draws, AMD EPYC, 2026-11-26, docs/performance.md).
/// Precondition: 2 <= h <= 16, bits < 2^h.
NQUEENS_HD constexpr std::uint32_t rank_rows(std::uint32_t bits, int h) noexcept {
  const std::uint32_t inner = reverse_low_bits((bits >> 1) & low_bits(h - 2), h - 2);
  return ((bits & 1U) << (h - 1)) | (((bits >> (h - 1)) & 1U) << (h - 2)) | inner;
}

// Edge (bit 0) first, centre (bit 5) second, then bits 1..4 in turn.
static_assert(rank_rows(0b000001, 6) == 0b100000 && rank_rows(0b100000, 6) == 0b010000);
static_assert(rank_rows(0b000010, 6) == 0b001000 && rank_rows(0b010000, 6) == 0b000001);
static_assert(rank_rows(0b101101, 6) == 0b110110 && rank_rows(0b10, 2) == 0b01);

}  // namespace nqueens::detail
