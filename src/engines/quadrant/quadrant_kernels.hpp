#pragma once

// The quadrant engine's per-instruction-set kernels (quadrant_solve.inc,
// compiled once per set): one subproblem's solve, the half-board join and
// the pair counter, with the task and the per-thread buffers they take.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engines/quadrant/class_slicing.hpp"
#include "engines/quadrant/pair_counter.hpp"
#include "engines/quadrant/quarter_tables.hpp"
#include "nqueens/isa.hpp"

namespace nqueens::detail {

/// One subproblem: the solutions whose north half, rows 0..n/2-1, uses
/// exactly the columns `north` (bit c = column c), with the middle row's
/// queen (odd n) in column `middle`; slice `slice` of the plan's slices of
/// those north halves (class_slicing.hpp); `weight` column sets stand for it under the board's
/// symmetries. For n >= 4 it counts their share under the transposition
/// filter (transposition.hpp), not all of them.
struct quadrant_task {
  std::uint32_t north = 0;
  std::int8_t middle = -1;  ///< -1 for even n
  std::uint8_t weight = 1;
  std::uint8_t slice = 0;
};

/// A run of a group's halves that share their west row set: the halves
/// before `end` and from the previous run's end. A group's runs come in the
/// order of its joins (increasing row sets); under the transposition
/// filter's row window `rows` holds the set ranked (rank_rows), and the
/// ties counted apart first put the runs in its order (run_sorter); the
/// group holding an odd board's middle column is partitioned into its own
/// three runs (partition_by_column_h).
struct row_run {
  std::uint32_t rows = 0;
  std::size_t end = 0;
};

/// Room to put a group's runs in increasing order of `rows`, the halves
/// moving with them.
struct run_sorter {
  struct placed {
    std::uint32_t rows;
    std::size_t begin, end;
  };
  std::vector<placed> runs;
  std::vector<std::uint64_t> halves;
};

/// Odd n: the quarter placements a group's joins skip, and the buffers that
/// hold the others of one row set. A placement whose diagonals meet the
/// middle queen makes no half; nor, where the transposition filter drops
/// the halves whose middle column's queen lies on a row past `last_row`,
/// does one that holds that queen there (its row tag, column_h_row_tag).
struct quarter_skip {
  std::uint64_t queen = 0;
  std::uint64_t last_row = 14;                      // no row: a tag is at most 15
  std::array<std::vector<std::uint64_t>, 2> masks;  // of the join's outer list, of its inner one
  std::array<std::vector<std::uint32_t>, 2> signatures;
  bool skips(std::uint64_t mask) const noexcept {
    return (mask & queen) != 0 || (mask & column_h_row_bits) > column_h_row_tag(static_cast<int>(last_row));
  }
};

/// How the transposition filter keeps a subproblem's ties out of its main
/// count (transposition.inc): by tag bits, or counted apart; `by_cost`
/// takes tags unless they would cost every visit one more load. Tests force
/// each.
enum class tie_counting : std::uint8_t { by_cost, tags, apart };

/// Reusable buffers of one thread's solves.
struct quadrant_scratch {
  tie_counting ties = tie_counting::by_cost;
  quarter_skip north_skip, south_skip;  // odd n
  std::vector<std::uint64_t> north, south;
  std::vector<row_run> north_runs, south_runs;  // the groups by west row set (transposition.inc)
  std::vector<row_run> tail_runs;               // a piece's newest part (next_slice_piece)
  run_sorter sorter;
  // A subproblem's quarters, when the run keeps no tables: the north's, then
  // the south's (both at once when counted in slices).
  quarter_list west, east, south_west, south_east;
  pair_scratch pairs;
};

/// The quadrant kernels of one instruction set (quadrant_solve.inc).
struct quadrant_kernels {
  /// The solutions one task stands for (weight included), its slice of
  /// `slicing` (0 for a slot its class leaves empty). Allocates nothing once
  /// `scratch` has grown. Throws std::overflow_error past 2^64.
  std::uint64_t (*solve)(const quarter_source& quarters, const quadrant_task& task, const class_slicing& slicing,
                         quadrant_scratch& scratch);
  /// Writes to out[0..count) every placement of the north half (rows 0..h-1)
  /// joined from `west` and `east`, the quarters of one column set with
  /// `west_queens` queens in the west, as north_mask, and returns count.
  /// `out` only grows (its size is a capacity). The order is fixed for given
  /// n and columns.
  std::size_t (*north_halves)(const quarter_view& west, const quarter_view& east, int h, int west_queens,
                              std::vector<std::uint64_t>& out);
  /// count_disjoint_pairs (pair_counter.hpp) for this instruction set.
  std::uint64_t (*count_pairs)(std::span<const std::uint64_t> north, std::span<const std::uint64_t> south,
                               pair_scratch& scratch);
};

struct implementation;  // isa/implementation.hpp

/// The kernels for `kernels`: those of implementation_for(kernels) (the
/// AVX-512 ones use VPOPCNTDQ where the CPU has it; every compiled set is
/// in isa/implementation.hpp's list). Precondition: cpu_supports(kernels).
const quadrant_kernels& quadrant_kernels_for(isa kernels) noexcept;

/// The kernels compiled for implementation `i` (tests compare them).
const quadrant_kernels& quadrant_kernels_of(const implementation& i) noexcept;

}  // namespace nqueens::detail
