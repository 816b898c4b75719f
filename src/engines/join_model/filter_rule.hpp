#pragma once

// The transposition filter's rule for one subproblem (transposition.hpp) in
// the form both of its counts read it: the quadrant engine's
// (quadrant/transposed_pairs.cpp) and the GPU engine's kernels
// (gpu/gpu_kernel_support.hpp), from filter_rule_of (filter_rule.cpp). The
// window, the tie tags a half takes, which halves of the group holding the
// middle column's queen count, and the pairs of row sets counted once: each
// written here once, NQUEENS_HD so that nvcc compiles the same functions
// for the device. Where the quadrant engine counts the ties apart
// (transposed_pairs.cpp) it reads the same rule as ranges of row sets, a
// second form of it; the tests check both against an independent count of
// every class of the boards 4..13 (transposition_test.cpp).

#include <cstdint>

#include "engines/join_model/half_masks.hpp"
#include "engines/join_model/set_ranks.hpp"
#include "kernels/bits.hpp"
#include "kernels/host_device.hpp"

namespace nqueens::detail {

/// The tie tags, in the four free bits above the left diagonals
/// (half_masks.hpp): a pair that shares one is not counted twice.
inline constexpr std::uint64_t tie_tag_c = std::uint64_t{1} << free_bits_shift;  // north c; south sets <= a
inline constexpr std::uint64_t tie_tag_c_bar = tie_tag_c << 1;  // north row set ~c; south row sets >= ~a
inline constexpr std::uint64_t tie_tag_low = tie_tag_c << 2;    // south row set c; north in (c, ~c), <= a
inline constexpr std::uint64_t tie_tag_high = tie_tag_c << 3;   // south row set ~c; north in (c, ~c), >= ~a

/// How one subproblem counts under the filter: every pair once (boards of
/// h < 2); or the row window (even n, and odd n with the middle queen in the
/// centre column): both groups by their ranked west row sets, kept to
/// [c, ~c]; or, odd n otherwise, by the row of the middle column's queen in
/// the group that holds it (its row set P squeezed: the queen's index taken
/// out). A kept pair counts twice unless a tie tag rules it out; the pairs
/// of once_pairs count once more (2 * twice + once).
struct filter_rule {
  enum kind_t : std::uint32_t { every_pair, row_window, column_h };
  kind_t kind = every_pair;
  std::uint32_t c = 0, c_bar = 0, a = 0, a_bar = 0;  ///< the subproblem's class (c, a) and complements
  bool a_inside = false, a_bar_inside = false;       ///< row window: a, ~a strictly inside (c, ~c)
  std::uint32_t holder = 0;    ///< column_h: the group holding the middle column's queen (0 north, 1 south)
  std::uint32_t distance = 0;  ///< column_h: the middle queen's distance from the nearer edge
  std::uint32_t above = 0;     ///< column_h: the other group's row sets from here count twice with a c tie
  bool to_a_bar = false;       ///< column_h: ~a itself counts twice with a ~c tie
  bool once_c = false, once_c_bar = false;  ///< column_h: whether the c, ~c ties count once with a, ~a
};

/// The rule of the subproblem of north columns `north` (bit c = column c)
/// and middle queen column `middle` (-1 for even n) on an n-board, from its
/// class (transposition_key_of, transposition.hpp).
filter_rule filter_rule_of(int n, std::uint32_t north, int middle) noexcept;

/// 2 * twice + once: what a subproblem's pairs count under the filter
/// (checked_count.hpp's overflow check), on the CPU and on the GPU.
std::uint64_t filtered_share(std::uint64_t twice, std::uint64_t once);

/// Whether the joins read the groups' west row sets ranked (rank_rows): under
/// the row window, whose bounds are ranked; as the tables hold them
/// otherwise. Both engines' joins ask this.
NQUEENS_HD constexpr bool ranks_rows(const filter_rule& r) noexcept { return r.kind == filter_rule::row_window; }

/// Whether the rule keeps a group's half of ranked west row set `rows`: under
/// the row window, min(X, ~X) >= c, that is X in [c, ~c]; every half
/// otherwise. The quadrant engine walks the same window by its bounds
/// (first_rows, quadrant_solve.cpp).
NQUEENS_HD constexpr bool in_window(const filter_rule& r, std::uint32_t rows) noexcept {
  return r.kind != filter_rule::row_window || (rows >= r.c && rows <= r.c_bar);
}

/// Row window: the tie tags of a north half of ranked west row set `rows`.
NQUEENS_HD constexpr std::uint64_t north_tie_tags(const filter_rule& r, std::uint32_t rows) noexcept {
  if (rows == r.c) return tie_tag_c;
  if (rows == r.c_bar) return tie_tag_c_bar;
  return (rows <= r.a ? tie_tag_low : 0) | (rows >= r.a_bar ? tie_tag_high : 0);
}

/// Row window: the tie tags of a south half of ranked west row set `rows`.
NQUEENS_HD constexpr std::uint64_t south_tie_tags(const filter_rule& r, std::uint32_t rows) noexcept {
  return (rows == r.c ? tie_tag_low : 0) | (rows == r.c_bar ? tie_tag_high : 0) | (rows <= r.a ? tie_tag_c : 0) |
         (rows >= r.a_bar ? tie_tag_c_bar : 0);
}

/// Column_h: what a half of the holding group is.
enum class holder_kind : std::uint32_t { dropped = 0, twice = 1, tie_c = 2, tie_c_bar = 3 };

/// Column_h: what a half of the holding group with west row set `rows` is
/// when the middle column's queen lies at the rule's distance.
NQUEENS_HD constexpr holder_kind holder_kind_at_distance(const filter_rule& r, std::uint32_t rows) noexcept {
  const std::uint32_t p = squeeze_bit(rows, static_cast<int>(r.distance));
  if (p == r.c) return holder_kind::tie_c;
  if (p == r.c_bar) return holder_kind::tie_c_bar;
  return p > r.c && p < r.c_bar ? holder_kind::twice : holder_kind::dropped;  // min(P, ~P) against c
}

/// Column_h: what a half of the holding group is whose middle-column queen
/// lies on row `row`, `at_distance` being holder_kind_at_distance of its
/// row set: nearer the edge than the middle queen counts twice, farther
/// never.
NQUEENS_HD constexpr holder_kind holder_kind_of(const filter_rule& r, int row, holder_kind at_distance) noexcept {
  const auto distance = static_cast<int>(r.distance);
  return row < distance ? holder_kind::twice : row > distance ? holder_kind::dropped : at_distance;
}

/// Odd n: the quarter placements a group's joins skip before they form a
/// product, since no half made with one counts. One whose diagonals meet the
/// middle queen: a half's mask is the OR of its quarters', and a south
/// half's turn (odd_south_mask) leaves the queen's mask as it is. And in the
/// group that holds the middle column's queen under column_h, one that holds
/// it on a row the rule drops (past `distance`, holder_kind_of), read from
/// its row tag. Both engines' joins read it; for even n it skips nothing.
struct quarter_skip_rule {
  std::uint64_t queen = 0;
  std::uint64_t last_tag = column_h_row_bits;  ///< the highest row tag kept
  NQUEENS_HD constexpr bool skips(std::uint64_t mask) const noexcept {
    // `|`, not `||`: no branch on the data in a filter's loop.
    return ((mask & queen) != 0) | ((mask & column_h_row_bits) > last_tag);
  }
};

/// The skip of group `group` (0 north, 1 south) of the subproblem whose
/// middle queen is in column `middle` (-1: even n) under rule `r`.
NQUEENS_HD constexpr quarter_skip_rule quarter_skip_rule_of(const filter_rule& r, int middle, int group) noexcept {
  if (middle < 0) return {};
  const bool holds = r.kind == filter_rule::column_h && r.holder == static_cast<std::uint32_t>(group);
  return {middle_queen_mask(middle), holds ? column_h_row_tag(static_cast<int>(r.distance)) : column_h_row_bits};
}

/// Column_h: the tie tag of a holding half.
NQUEENS_HD constexpr std::uint64_t holder_tie_tags(holder_kind kind) noexcept {
  return kind == holder_kind::tie_c ? tie_tag_c : kind == holder_kind::tie_c_bar ? tie_tag_c_bar : 0;
}

/// Column_h: the tie tags of a half of the other group with west row set
/// `rows`.
NQUEENS_HD constexpr std::uint64_t other_tie_tags(const filter_rule& r, std::uint32_t rows) noexcept {
  return (rows < r.above ? tie_tag_c : 0) | (rows > r.a_bar || (rows == r.a_bar && !r.to_a_bar) ? tie_tag_c_bar : 0);
}

/// The pairs of row sets whose halves count once: slot k (where bit k of
/// `valid` is set) pairs the first group's set first[k] (the north's; under
/// column_h the holder's, P squeezed) with the second's second[k].
struct once_pairs {
  std::uint32_t first[4] = {};
  std::uint32_t second[4] = {};
  std::uint32_t valid = 0;
};

/// Row window: (c, a), (~c, ~a), and (a, c), (~a, ~c) where a or ~a lies
/// strictly inside (c, ~c). Column_h: (c, a) and (~c, ~a) where the tie's
/// beta matches. None otherwise.
NQUEENS_HD constexpr once_pairs once_pairs_of(const filter_rule& r) noexcept {
  once_pairs o{{r.c, r.c_bar, r.a, r.a_bar}, {r.a, r.a_bar, r.c, r.c_bar}, 0};
  if (r.kind == filter_rule::row_window) {
    o.valid = 3U | (r.a_inside ? 4U : 0U) | (r.a_bar_inside ? 8U : 0U);
  } else if (r.kind == filter_rule::column_h) {
    o.valid = (r.once_c ? 1U : 0U) | (r.once_c_bar ? 2U : 0U);
  }
  return o;
}

}  // namespace nqueens::detail
