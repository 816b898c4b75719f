#pragma once

// The allocation-free bitmask backtracker that counts completions of a prefix.

#include <cstdint>
#include <span>

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

/// Number of ways to fill rows state.row..n-1 with non-attacking queens.
/// Allocates nothing; the recursion depth is fixed at compile time (<= 32).
/// Precondition: 1 <= n <= 32 and 0 <= state.row <= n.
std::uint64_t count_completions(int n, const board_state& state) noexcept;

}  // namespace nqueens::detail
