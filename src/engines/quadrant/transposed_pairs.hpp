#pragma once

// The transposition filter's count (transposition.hpp): a subproblem's
// north and south groups, each kept to the west row sets in [c, ~c] and in
// runs by row set, counted as
//
//   2 * #{pairs that count twice} + #{pairs that count once}.
//
// The pairs that count twice are every kept pair but those a tie rules out.
// Two ways to rule them out: tag bits outside the board's diagonals, set on
// a tie's halves and on the halves of the other group it must not meet (a
// pair that shares a tag is not disjoint), all in the one count; or the
// ties counted apart, each tie run against its range of the other group,
// each such count preparing that range again. A tag is one more bit in
// play, at worst one more digit per visit, so tags serve unless that digit
// costs more than the preparations (tags_cost_a_load). As key bits instead
// (the lowest, or the highest, of the partition tree's key) tags cost more:
// n = 24 took 15% longer, n = 20 10-35% (Intel Xeon, 2026-11-25,
// nqueens_reach_sample on the same draws). The pairs that count once are
// between two single row sets, counted apart (a few small counts).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engines/join_model/filter_rule.hpp"
#include "engines/quadrant/quadrant_kernels.hpp"
#include "engines/quadrant/row_runs.hpp"

namespace nqueens::detail {

/// How the ties are kept out of a subproblem's main count: by tag bits, or
/// counted apart; `by_cost` takes tags unless they would cost every visit
/// one more load. Tests force each.
enum class tie_counting : std::uint8_t { by_cost, tags, apart };

/// The run partition_by_column_h gives the halves that count twice.
inline constexpr std::uint32_t twice_rows = UINT32_MAX;

/// 2 * (pairs counting twice) + (pairs counting once) of a north and a
/// south group (or slices of them) kept to [c, ~c], for the row window
/// `rule`. Sets tag bits in both lists (harmless to a later call: a list's
/// tags depend on its own row sets only); counting the ties apart, puts
/// both lists' runs in order first (the halves move with them).
std::uint64_t transposed_pairs(std::span<std::uint64_t> north, std::span<row_run> north_runs,
                               std::span<std::uint64_t> south, std::span<row_run> south_runs, const filter_rule& rule,
                               tie_counting ties, run_sorter& sorter, const pair_count& count);

/// Odd n, middle queen off the centre column (rule column_h): partitions
/// the group that holds the middle column's queen in place by holder_kind,
/// each half's row read from its row tag at `tag_shift`: first those that
/// count twice with every half of the other group, then the tie runs of
/// P = c and of P = ~c, the rest dropped; the row tags are cleared. `runs`
/// (by row set) becomes {twice_rows, c, ~c}; returns how many are kept.
std::size_t partition_by_column_h(std::uint64_t* list, std::vector<row_run>& runs, int tag_shift,
                                  const filter_rule& rule) noexcept;

/// 2 * (pairs counting twice) + (pairs counting once) of the group holding
/// the middle column's queen, partitioned by partition_by_column_h, and the
/// other group (or slices of them), for the column_h `rule`. Sets tag bits
/// in both.
std::uint64_t column_h_pairs(std::span<std::uint64_t> holder, std::span<const row_run> holder_runs,
                             std::span<std::uint64_t> other, std::span<const row_run> other_runs,
                             const filter_rule& rule, tie_counting ties, const pair_count& count);

}  // namespace nqueens::detail
