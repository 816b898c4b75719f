#pragma once

// How a group's halves are joined from the quarters of its columns, row set
// by row set: the cursor that walks the row sets (where a join stopped, so
// that a group can be built a piece at a time), and the quarter placements
// an odd board's joins skip. Inline: the orchestration (quadrant_solve.cpp)
// and every instruction set's join (quadrant_join.inc) step the cursor.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engines/join_model/filter_rule.hpp"
#include "engines/join_model/quarter_tables.hpp"
#include "engines/join_model/set_ranks.hpp"
#include "kernels/bits.hpp"
#include "kernels/subsets.hpp"

namespace nqueens::detail {

/// How many entries past the last one it keeps a join may write.
inline constexpr std::size_t join_slack = 16;

/// Where a sliced join stopped: its row set and outer placement. A join
/// walks the sets of its queens' rows in increasing order, the order of the
/// quarter tables (walking them in the filter's ranked order read the tables
/// out of order: Q(18) 4% slower), and skips those whose rank_rows lies
/// outside [lowest, highest] when `ranked` (the filter's row window); the
/// runs it records hold the ranked sets then, the row sets otherwise.
struct join_cursor {
  std::uint32_t rows = 0;
  std::size_t outer = 0;
  bool done = false;
  bool ranked = false;
  std::uint32_t lowest = 0, highest = UINT32_MAX;
};

/// Whether the cursor's row set is one its join makes halves of.
inline bool joins_rows(const join_cursor& at, int h) noexcept {
  if (!at.ranked) return true;
  const std::uint32_t ranked = rank_rows(at.rows, h);
  return ranked >= at.lowest && ranked <= at.highest;
}

/// The row set a run of the cursor's halves is recorded under.
inline std::uint32_t run_rows(const join_cursor& at, int h) noexcept {
  return at.ranked ? rank_rows(at.rows, h) : at.rows;
}

/// Moves the cursor to its next row set that joins_rows, or marks it done.
inline void next_rows(join_cursor& at, int h) noexcept {
  do {
    at.outer = 0;
    if (at.rows == 0) {
      at.done = true;
      return;
    }
    at.rows = static_cast<std::uint32_t>(next_subset(at.rows));
    at.done = at.rows > low_bits(h);
  } while (!at.done && !joins_rows(at, h));
}

/// A cursor at the first set of `queens` rows (of h) that joins_rows, with
/// the ranked window [lowest, highest] when `ranked`; done at once when there
/// is none.
inline join_cursor cursor_from(int h, int queens, bool ranked = false, std::uint32_t lowest = 0,
                               std::uint32_t highest = UINT32_MAX) noexcept {
  join_cursor at{low_bits(queens), 0, false, ranked, lowest, highest};
  if (!joins_rows(at, h)) next_rows(at, h);
  return at;
}

/// What an n-board's east quarter table holds for a half on `columns` (bit c
/// = column c, h = n/2): the key under which keep_east keeps its filter.
constexpr std::uint64_t east_contents(int n, std::uint32_t columns) noexcept {
  return (std::uint64_t(n) << 32) | (columns >> (n / 2));
}

/// Odd n: the quarter placements a group's joins skip (quarter_skip_rule,
/// filter_rule.hpp), and the buffers that hold the others of one row set.
struct quarter_skip {
  quarter_skip_rule rule;
  std::array<std::vector<std::uint64_t>, 2> masks;  // of the join's outer list, of its inner one
  std::array<std::vector<std::uint32_t>, 2> signatures;
  /// Where the join's east quarter holds only the placements the rule keeps
  /// (quadrant_kernels::keep_east), the east quarter as the tables hold it:
  /// its lists' sizes still choose each row set's outer list, so that a
  /// group's halves keep their order (a plan's slices take them by
  /// position). Null offsets: the joins filter both lists.
  quarter_view east_whole;
  bool east_kept() const noexcept { return east_whole.offsets != nullptr; }
  /// The east quarter keep_east last filtered, and what it kept: the plan's
  /// neighbours share their east columns and middle queen, so that one filter
  /// serves hundreds of subproblems.
  struct kept_quarter {
    std::uint64_t contents = 0;  // which placements: east_contents
    quarter_skip_rule rule;
    std::vector<std::uint32_t> offsets;
    std::vector<std::uint64_t> masks;
    std::vector<std::uint32_t> signatures;
  } east;
  bool skips(std::uint64_t mask) const noexcept { return rule.skips(mask); }
};

}  // namespace nqueens::detail
