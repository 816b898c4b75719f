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
// below h, the mirror of those from h on), two h-bit sets with their bits in
// the order of rank_rows; the mirror swaps them and the flip complements both, so a class is the least of
// (P, Q), (Q, P), (~P, ~Q), (~Q, ~P), pairs compared first component first.
// For R, P is the west row set of the north half and Q that of the south half
// (built upside down): each is known from one half alone. With (c, a) the
// subproblem's own class, a north half whose west row set X has
// min(X, ~X) < c never counts (X outside [c, ~c]), likewise a south half;
// a pair with both strictly inside counts twice; only the halves whose row
// set is c or ~c (the ties) need the second component.
//
// Odd n: the classes are of (middle queen's column m, set), and the
// transposition maps m to m', the row of the middle column's queen. Classes
// rank first by the distance of m from the nearest edge, the nearer the
// higher (the same for every member of a class); with m in the centre
// column (so m' too) the pairs are ranked as above. Otherwise one half holds
// the middle column's queen, and its row gives m' alone: a half whose m' is
// farther from the edge than the subproblem's m never counts, one nearer
// counts twice with every half of the other group, and only those at the
// same distance (the ties) read the rest of the order: between the two
// images whose middle queen lies below h, the least of (P without m's
// index, Q, whether h is in the set) — the first component from the half
// that holds the middle column, the others from the other half. Nearer
// first, because the subproblems whose middle queen is near the edge hold
// most of the work, and they keep the fewest halves (n = 27: 2.4x less time
// per subproblem than unfiltered on 16 draws, against 1.3x the other way).
// Checked by the engine tests against every solution of small boards.

#include <algorithm>
#include <cstdint>

#include "kernels/bits.hpp"

namespace nqueens::detail {

/// Whether the quadrant engine counts n's subproblems under the filter:
/// every board but those of h = n/2 < 2 (there c = ~c). On odd boards below
/// 21 it saves little (n = 17 7% less time per subproblem, n = 19 none; one
/// thread, nqueens_reach_sample on the same draws, Intel Xeon, 2026-11-25)
/// but costs nothing either, and one rule serves every n.
constexpr bool transposition_filtered(int n) noexcept { return n >= 4; }

/// A class of sets (odd n: of (middle queen, set) pairs) under the mirror
/// and the flip, as its least image.
struct transposition_key {
  std::uint32_t first = 0;   ///< c: the least of P, Q, ~P, ~Q (odd n off centre: of P and ~P, m's index taken out)
  std::uint32_t second = 0;  ///< a: the second component of the least image
  int beta = 0;              ///< odd n off centre: whether the least image holds index h
  friend constexpr auto operator<=>(const transposition_key&, const transposition_key&) = default;
};

/// `bits` without bit `at`: the bits above it move down one.
/// Precondition: 0 <= at < 32.
constexpr std::uint32_t squeeze_bit(std::uint32_t bits, int at) noexcept {
  const std::uint32_t below = bits & ((std::uint32_t{1} << at) - 1);
  return below | static_cast<std::uint32_t>((std::uint64_t{bits} >> (at + 1)) << at);
}
static_assert(squeeze_bit(0b10110, 2) == 0b1010 && squeeze_bit(0b1, 0) == 0);

/// The h low bits of `bits` in reverse order (bit j to bit h - 1 - j).
/// Precondition: 0 <= h <= 32 and bits < 2^h.
constexpr std::uint32_t reverse_low_bits(std::uint32_t bits, int h) noexcept {
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
constexpr std::uint32_t rank_rows(std::uint32_t bits, int h) noexcept {
  const std::uint32_t inner = reverse_low_bits((bits >> 1) & low_bits(h - 2), h - 2);
  return ((bits & 1U) << (h - 1)) | (((bits >> (h - 1)) & 1U) << (h - 2)) | inner;
}

// Edge (bit 0) first, centre (bit 5) second, then bits 1..4 in turn.
static_assert(rank_rows(0b000001, 6) == 0b100000 && rank_rows(0b100000, 6) == 0b010000);
static_assert(rank_rows(0b000010, 6) == 0b001000 && rank_rows(0b010000, 6) == 0b000001);
static_assert(rank_rows(0b101101, 6) == 0b110110 && rank_rows(0b10, 2) == 0b01);

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

/// The class of (middle, set): a set of h = n/2 of the n indices (bit i =
/// index i) and, for odd n, the middle queen's column (-1 for even n).
/// Precondition: 2 <= n <= 32, popcount(set) == n / 2, middle not in set.
constexpr transposition_key transposition_key_of(std::uint32_t set, int n, int middle = -1) noexcept {
  const int h = n / 2;
  const std::uint32_t low = set & low_bits(h);
  const std::uint32_t high = reverse_low_bits(set >> (n - h), h);  // indices above h, mirrored
  if (n % 2 == 0 || middle == h) {
    if (h < 2) return transposition_key_of_pair(low, high, h);  // one bit: nothing to rank
    return transposition_key_of_pair(rank_rows(low, h), rank_rows(high, h), h);
  }
  // The image with the middle below h, and its flip.
  const int at = middle < h ? middle : n - 1 - middle;
  const std::uint32_t p = squeeze_bit(middle < h ? low : high, at), q = middle < h ? high : low;
  const int beta = static_cast<int>((set >> h) & 1U);
  const transposition_key image{p, q, beta};
  const transposition_key flipped{low_bits(h - 1) & ~p, low_bits(h) & ~q, 1 - beta};
  return std::min(image, flipped);
}
// Columns {0, 1, 5} of a 6-board: P = {0, 1}, Q = mirror({5}) = {0},
// ranked 0b101 and 0b100; the least of (5, 4), (4, 5), (2, 3), (3, 2).
static_assert(transposition_key_of(0b100011, 6) == transposition_key{2, 3});
static_assert(transposition_key_of(0b000111, 6) == transposition_key{0, 7});
// Middle queen in column 0 of a 5-board, north columns {2, 3}: P = {} (index
// 0 taken out), Q = {1} (column 3 mirrored), index 2 = h in the set: (0, 2, 1);
// its flip is (1, 1, 0).
static_assert(transposition_key_of(0b01100, 5, 0) == transposition_key{0, 2, 1});

}  // namespace nqueens::detail
