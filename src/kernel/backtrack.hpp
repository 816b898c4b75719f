#pragma once

// The allocation-free bitmask backtracker that counts (or visits) the
// completions of a subproblem.

#include <array>
#include <cstdint>
#include <span>

#include "nqueens/board.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/plan.hpp"

namespace nqueens::detail {

/// Attacked squares of the next free row, one bit per column.
/// `left` holds diagonals moving towards higher columns row by row (shifted
/// left each row), `right` those moving towards lower columns.
struct board_state {
  std::uint32_t columns = 0;
  std::uint32_t left = 0;
  std::uint32_t right = 0;
  int row = 0;  ///< rows 0..row-1 hold queens
};

/// The state after placing queens at `columns[r]` in rows r = 0, 1, ...
/// Precondition: the placement is non-attacking and every column < n <= 32.
board_state place_prefix(int n, std::span<const std::uint8_t> columns) noexcept;

/// True when the queens at `columns[r]` (row r) attack no one and fit on an n-board.
bool is_non_attacking_prefix(int n, std::span<const std::uint8_t> columns) noexcept;

/// Columns the engine allows in `row` for subproblems whose first rows are
/// those of `s` (the symmetric engine bounds the border queens; see plan.cpp).
std::uint32_t engine_constraint(int n, engine kind, const subproblem& s, int row) noexcept;

/// Columns of `row` attacked by none of the queens of `s` and allowed by the
/// engine (plan building).
std::uint32_t candidate_columns(int n, engine kind, const subproblem& s, int row) noexcept;

/// Where the search of one subproblem starts: the leading rows placed, and for
/// every later row the columns its queen may take given the engine's
/// constraints and the queens pre-placed below (a single bit for such a row).
struct search_start {
  board_state state;
  std::array<std::uint32_t, max_board_size> allowed{};
  /// Column per row: the subproblem's queens, filled in by a visiting search.
  std::array<std::uint8_t, max_board_size> queens{};
};

/// Prepares the search of `s` on an n-board. Precondition: `s` is non-attacking.
search_start prepare(int n, engine kind, const subproblem& s) noexcept;

/// Number of ways to fill the rows from start.state.row on. Allocates
/// nothing. Uses the lane-parallel search (kernel/batched.hpp) where the build
/// has it, else count_completions_scalar.
std::uint64_t count_completions(int n, const search_start& start) noexcept;

/// The scalar search: a fixed nest of loops (see backtrack.cpp).
std::uint64_t count_completions_scalar(int n, const search_start& start) noexcept;

/// Search-tree nodes (queens placed) below the start: the work measure the
/// benchmarks report. A plain recursion, not for the hot path.
std::uint64_t count_nodes(int n, const search_start& start) noexcept;

/// Leaf callback of visit_completions: gets the full placement (n entries)
/// and returns what the completion adds to the count.
using leaf_fn = std::uint64_t (*)(std::span<const std::uint8_t> queens, void* context) noexcept;

/// Calls `leaf` for every completion and sums what it returns. Allocates
/// nothing. A little slower than count_completions: every queen is recorded.
/// Uses the lane-parallel search where the build has it.
std::uint64_t visit_completions(int n, const search_start& start, leaf_fn leaf, void* context) noexcept;

/// The scalar recording search.
std::uint64_t visit_completions_scalar(int n, const search_start& start, leaf_fn leaf, void* context) noexcept;

}  // namespace nqueens::detail
