#pragma once

// The allocation-free bitmask backtracking search that counts (or visits) the
// completions of a partial placement, compiled for every instruction set
// (search_<isa>.cpp) and chosen once per run. It knows nothing of engines: an
// engine states which columns each row may take (search_start::allowed).

#include <array>
#include <cstdint>
#include <span>

#include "nqueens/board.hpp"
#include "nqueens/isa.hpp"

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

/// True when the queens at `columns[r]` (row r) attack no one and fit on an
/// n-board: the tests' check of the prefixes a plan makes.
bool is_non_attacking_prefix(int n, std::span<const std::uint8_t> columns) noexcept;

/// Columns of `row` that the queen at (queen_row, queen_col) attacks on an n-board.
std::uint32_t attacked_columns(int n, int queen_row, int queen_col, int row) noexcept;

/// Where the search of one subproblem starts: the leading rows placed, and for
/// every later row the columns its queen may take (the engine's constraints,
/// and a single bit for a row whose queen is placed in advance).
struct search_start {
  board_state state;
  std::array<std::uint32_t, max_board_size> allowed{};
  /// Column per row: the placed queens, filled in by a visiting search.
  std::array<std::uint8_t, max_board_size> queens{};
};

/// Leaf callback of a visiting search: gets the full placement (n entries)
/// and returns what the completion adds to the count.
using leaf_fn = std::uint64_t (*)(std::span<const std::uint8_t> queens, void* context) noexcept;

struct rotation_state;

/// The searches of one instruction set. None allocates.
struct search_kernels {
  /// Number of ways to fill the rows from start.state.row on.
  std::uint64_t (*count)(int n, const search_start& start) noexcept;
  /// Calls `leaf` for every completion and sums what it returns; a little
  /// slower than `count`, as every queen is recorded.
  std::uint64_t (*visit)(int n, const search_start& start, leaf_fn leaf, void* context) noexcept;
  /// Solutions unchanged by a half turn that extend `s`, whose queens are
  /// whole half-turn orbits filling rows of the top half in the order of
  /// next_half_turn_row (and the centre for odd n; kernels/rotation.hpp).
  std::uint64_t (*count_half_turn)(int n, const rotation_state& s) noexcept;
  /// Solutions unchanged by a quarter turn that extend `s`, whose queens are
  /// whole quarter-turn orbits (and the centre for odd n).
  std::uint64_t (*count_quarter_turn)(int n, const rotation_state& s) noexcept;
};

/// The searches compiled for `kernels`. Precondition: cpu_supports(kernels).
const search_kernels& search_kernels_for(isa kernels) noexcept;

/// Search-tree nodes (queens placed) below the start: the work measure the
/// benchmarks report. A plain recursion, not for the hot path.
std::uint64_t count_nodes(int n, const search_start& start) noexcept;

}  // namespace nqueens::detail
