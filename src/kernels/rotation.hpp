#pragma once

// Placements unchanged by a half turn or a quarter turn of the board: the
// state and moves shared by their planner (baseline code) and their search
// kernels (compiled per instruction set, kernels/search_<isa>.cpp).
//
// A solution unchanged by a rotation is a union of orbits: with every queen
// (r, c) it holds (m - r, m - c) for a half turn, and also (c, m - r) and
// (m - c, r) for a quarter turn (m = n - 1). Placing whole orbits, and for odd
// n the centre queen (m/2, m/2) first (the only queen a rotation can fix),
// enumerates exactly those solutions. Diagonals are held as absolute 64-bit
// masks (2n - 1 <= 63 lines each), so that any square can be tested.

#include <bit>
#include <cstdint>

#include "kernels/bits.hpp"

namespace nqueens::detail {

struct rotation_state {
  std::uint32_t rows = 0;
  std::uint32_t columns = 0;
  std::uint64_t anti = 0;      ///< bit r + c
  std::uint64_t diagonal = 0;  ///< bit c - r + n - 1
};

/// Places a queen at (r, c) when its row, column and diagonals are free.
/// Returns false, leaving `s` partly changed, when they are not (callers
/// work on a copy).
constexpr bool place_queen(rotation_state& s, int n, int r, int c) noexcept {
  // 0 <= r, c < n <= 32: every shift is in range (the masks say so to the analyzer).
  const std::uint32_t row = std::uint32_t{1} << (r & 31), column = std::uint32_t{1} << (c & 31);
  const std::uint64_t anti = std::uint64_t{1} << ((r + c) & 63), diagonal = std::uint64_t{1} << ((c - r + n - 1) & 63);
  if (((s.rows & row) | (s.columns & column)) != 0 || ((s.anti & anti) | (s.diagonal & diagonal)) != 0) return false;
  s.rows |= row;
  s.columns |= column;
  s.anti |= anti;
  s.diagonal |= diagonal;
  return true;
}

/// Places the orbit of (r, c) under the rotation of order `order` (2: half
/// turn, 4: quarter turn). False when an image is taken, attacked, or
/// coincides with another (each would need a row to itself).
constexpr bool place_orbit(rotation_state& s, int n, int order, int r, int c) noexcept {
  const int m = n - 1;
  if (order == 2) return place_queen(s, n, r, c) && place_queen(s, n, m - r, m - c);
  return place_queen(s, n, r, c) && place_queen(s, n, c, m - r) && place_queen(s, n, m - r, m - c) &&
         place_queen(s, n, m - c, r);
}

/// The empty board, with the centre queen for odd n (a rotation-symmetric
/// solution of odd n has it: the middle row's queen is its own image).
constexpr rotation_state rotation_start(int n) noexcept {
  rotation_state s;
  if (n % 2 == 1) place_queen(s, n, n / 2, n / 2);
  return s;
}

/// Columns of `row` free in `s` (column and both diagonals).
constexpr std::uint32_t free_columns(const rotation_state& s, int n, int row) noexcept {
  const auto anti = static_cast<std::uint32_t>(s.anti >> row);
  const auto diagonal = static_cast<std::uint32_t>(s.diagonal >> (n - 1 - row));
  return low_bits(n) & ~(s.columns | anti | diagonal);
}

/// Columns of `row` (in the top half) where a half-turn pair fits in `s`: free,
/// and not on either main diagonal, where the queen would attack its own image.
constexpr std::uint32_t half_turn_columns(const rotation_state& s, int n, int row) noexcept {
  return free_columns(s, n, row) & ~(std::uint32_t{1} << row) & ~(std::uint32_t{1} << (n - 1 - row));
}

/// The first row with no queen. Precondition: s.rows != low_bits(n).
constexpr int first_empty_row(const rotation_state& s) noexcept { return std::countr_zero(~s.rows); }

/// The row a half-turn search fills next, or -1 when the top half is full:
/// the top half from its last row up, since the queens nearest the centre
/// constrain their images most (3 times fewer nodes than top-down at n = 22).
constexpr int next_half_turn_row(const rotation_state& s, int n) noexcept {
  return n / 2 - 1 - std::popcount(s.rows & low_bits(n / 2));
}

}  // namespace nqueens::detail
