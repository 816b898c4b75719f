#pragma once

/// \file
/// Board-size limits shared by every engine.

#include <stdexcept>
#include <string>

namespace nqueens {

/// Largest board the counting engines accept: rows, columns and diagonals are
/// held in 32-bit masks, one bit per column. (scripts/scaling.sh refuses a
/// larger N before it builds, with this number written out.)
inline constexpr int max_board_size = 32;

/// True when `n` is a board size the counting engines accept (1..max_board_size).
constexpr bool is_valid_board_size(long long n) noexcept { return n >= 1 && n <= max_board_size; }

/// Throws std::invalid_argument naming the valid range unless is_valid_board_size(n).
inline void require_valid_board_size(long long n) {
  if (!is_valid_board_size(n)) {
    throw std::invalid_argument("board size " + std::to_string(n) + " is out of range: expected 1 to " +
                                std::to_string(max_board_size));
  }
}

}  // namespace nqueens
