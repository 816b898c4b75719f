#pragma once

// The board's other four symmetries, for even n: the transposition (and the
// quarter turns it makes with the mirror and the flip the plan already
// folds) counted by a one-sided filter on the row sets of each half.
//
// Write a solution's north column set as C and the set of rows holding its
// west queens (columns < h) as R. Transposing the board maps a solution with
// (C, R) to one with (R, C), so with A, B the classes of C and R under the
// plan's group (mirror, flip), M(A, B) = M(B, A) solutions, and for any total
// order on the classes
//
//   Q(n) = sum over A of |A| * (2 * #{C = C_A, class(R) > A} + #{C = C_A, class(R) = A}).
//
// The order: a set S of h of the n indices is the pair (P, Q) = (S's members
// below h, the mirror of those from h on), two h-bit sets; the mirror swaps
// them and the flip complements both, so a class is the least of
// (P, Q), (Q, P), (~P, ~Q), (~Q, ~P), pairs compared first component first.
// For R, P is the west row set of the north half and Q that of the south half
// (built upside down): each is known from one half alone. With (c, a) the
// subproblem's own class, a north half whose west row set X has
// min(X, ~X) < c never counts (X outside [c, ~c]), likewise a south half;
// a pair with both strictly inside counts twice; only the halves whose row
// set is c or ~c (the ties) need the second component. Checked by the engine
// tests against every published count.

#include <cstdint>

#include "kernels/bits.hpp"

namespace nqueens::detail {

/// A class of sets under the mirror and the flip, as its least (P, Q) pair.
struct transposition_key {
  std::uint32_t first = 0;   ///< c: the least of P, Q, ~P, ~Q
  std::uint32_t second = 0;  ///< a: the second component of the least pair
  friend constexpr bool operator==(const transposition_key&, const transposition_key&) = default;
};

/// The h low bits of `bits` in reverse order (bit j to bit h - 1 - j).
/// Precondition: 0 <= h <= 32 and bits < 2^h.
constexpr std::uint32_t reverse_low_bits(std::uint32_t bits, int h) noexcept {
  std::uint32_t out = 0;
  for (int j = 0; j < h; ++j) out |= ((bits >> j) & 1U) << (h - 1 - j);
  return out;
}
static_assert(reverse_low_bits(0b0011, 4) == 0b1100 && reverse_low_bits(0b0100, 3) == 0b0001);

/// The class of the pair (p, q) of h-bit sets: the least of its four images.
constexpr transposition_key transposition_key_of_pair(std::uint32_t p, std::uint32_t q, int h) noexcept {
  const std::uint32_t all = low_bits(h);
  const std::uint32_t images[4][2] = {{p, q}, {q, p}, {all & ~p, all & ~q}, {all & ~q, all & ~p}};
  transposition_key least{images[0][0], images[0][1]};
  for (const auto& image : images) {
    if (image[0] < least.first || (image[0] == least.first && image[1] < least.second)) {
      least = {image[0], image[1]};
    }
  }
  return least;
}

/// The class of a set of h = n/2 of n indices (bit i = index i).
/// Precondition: n even, 2 <= n <= 32, popcount(set) == n / 2.
constexpr transposition_key transposition_key_of(std::uint32_t set, int n) noexcept {
  const int h = n / 2;
  return transposition_key_of_pair(set & low_bits(h), reverse_low_bits(set >> h, h), h);
}
// Columns {0, 1, 5} of a 6-board: P = {0, 1}, Q = mirror({5}) = {0}; the
// least of (3, 1), (1, 3), (4, 6), (6, 4).
static_assert(transposition_key_of(0b100011, 6) == transposition_key{1, 3});
static_assert(transposition_key_of(0b000111, 6) == transposition_key{0, 7});

}  // namespace nqueens::detail
