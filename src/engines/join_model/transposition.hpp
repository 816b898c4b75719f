#pragma once

// The board's other four symmetries: the transposition (and the quarter
// turns it makes with the mirror and the flip the plan already folds)
// counted by a one-sided filter on the row sets of each half; even n first,
// odd n below.
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

#include "engines/join_model/set_ranks.hpp"
#include "kernels/bits.hpp"

namespace nqueens::detail {

/// Whether the quadrant and GPU engines count n's subproblems under the filter:
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
