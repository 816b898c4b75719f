#pragma once

// One quadrant subproblem counted: its north and south groups joined from
// the quarter tables, kept to the transposition filter's share, and their
// disjoint pairs counted, in slices where the plan or the memory bound
// asks. Compiled once; the per-instruction-set work, the joins and the pair
// counts, goes through quadrant_kernels, a call per group.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engines/join_model/class_slicing.hpp"
#include "engines/join_model/quadrant_memory.hpp"
#include "engines/join_model/quadrant_task.hpp"
#include "engines/join_model/quarter_tables.hpp"
#include "engines/quadrant/group_join.hpp"
#include "engines/quadrant/pair_counter.hpp"
#include "engines/quadrant/quadrant_kernels.hpp"
#include "engines/quadrant/row_runs.hpp"
#include "engines/quadrant/transposed_pairs.hpp"

namespace nqueens::detail {

/// Reusable buffers of one thread's solves.
struct quadrant_scratch {
  tie_counting ties = tie_counting::by_cost;
  quarter_skip north_skip, south_skip;  // odd n
  std::vector<std::uint64_t> north, south;
  std::vector<row_run> north_runs, south_runs;  // the groups by west row set (transposed_pairs.hpp)
  std::vector<row_run> tail_runs;               // a piece's newest part (next_slice_piece)
  run_sorter sorter;
  // A subproblem's quarters, when the run keeps no tables: the north's, then
  // the south's (both at once when counted in slices).
  quarter_list west, east, south_west, south_east;
  pair_scratch pairs;
  // Samples of a subproblem's groups counted in pieces (group_pieces.hpp).
  std::vector<std::uint64_t> outer_samples, inner_samples;

  /// Lets go each buffer that grows with the groups where it holds more than
  /// its part of `budget`: a bounded run's subproblem does so before its
  /// quarter lists and its groups grow (quadrant_memory.hpp, piece_budget).
  void keep_within(const piece_budget& budget) noexcept;
};

/// The solutions `task` stands for (weight included), its slice of
/// `slicing` (0 for a slot its class leaves empty), counted with `kernels`.
/// Allocates nothing once `scratch` has grown. Throws std::overflow_error
/// past 2^64, subproblem_cancelled once scratch.pairs.cancel is set.
std::uint64_t solve_task(const quadrant_kernels& kernels, const quarter_source& quarters, const quadrant_task& task,
                         const class_slicing& slicing, quadrant_scratch& scratch);

/// Writes to out[0..count) every placement of the north half (rows 0..h-1)
/// joined from `west` and `east`, the quarters of one column set with
/// `west_queens` queens in the west, as north_mask, and returns count.
/// `out` only grows (its size is a capacity). The order is fixed for given
/// n and columns, the same for every instruction set's join.
std::size_t north_halves(const quadrant_kernels& kernels, const quarter_view& west, const quarter_view& east, int h,
                         int west_queens, std::vector<std::uint64_t>& out);

}  // namespace nqueens::detail
