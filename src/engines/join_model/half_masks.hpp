#pragma once

// A half board's 64-bit mask: its attack masks where it meets the other
// half, the row tag an odd board's filter reads, and how a half built as a
// north half is turned into a south one. NQUEENS_HD: the quadrant engine's
// joins and the GPU engine's kernels read the same definitions.

#include <cstdint>

#include "kernels/host_device.hpp"

namespace nqueens::detail {

/// The mask of a north half from its attack masks for row h.
NQUEENS_HD constexpr std::uint64_t north_mask(std::uint32_t left, std::uint32_t right) noexcept {
  return std::uint64_t{left} | (std::uint64_t{right} << 32);
}

/// The four bits above every left diagonal (bits 0..n-1, n <= 28): the
/// transposition filter's marks live there, an odd board's row tag while
/// a group is built, the tie tags (filter_rule.hpp) once it is counted.
inline constexpr int free_bits_shift = 28;
inline constexpr std::uint64_t free_bits = std::uint64_t{15} << free_bits_shift;

/// Odd n: a half that holds the middle column's queen (column h = n/2)
/// carries that queen's row in its own search (0..h-1) plus one in the free
/// bits, for the transposition filter; a south half's, turned (a rotation
/// by 32), 32 bits higher. No other half sets them, so they never meet and
/// never count.
inline constexpr int north_row_tag_shift = free_bits_shift;
inline constexpr int south_row_tag_shift = north_row_tag_shift + 32;
/// The most a row tag holds: row 14 (a tag of 15).
inline constexpr int max_tagged_row = 14;
NQUEENS_HD constexpr std::uint64_t column_h_row_tag(int row) noexcept {
  return std::uint64_t(row + 1) << north_row_tag_shift;
}
inline constexpr std::uint64_t column_h_row_bits = free_bits;
/// The tag bits at `shift` (north_ or south_row_tag_shift).
NQUEENS_HD constexpr std::uint64_t row_tag_bits(int shift) noexcept { return std::uint64_t{15} << shift; }
/// The row a half's tag at `shift` holds (-1: none).
NQUEENS_HD constexpr int column_h_row_of(std::uint64_t mask, int shift) noexcept {
  return static_cast<int>((mask & row_tag_bits(shift)) >> shift) - 1;
}
static_assert(column_h_row_tag(max_tagged_row) <= column_h_row_bits, "a row tag holds rows 0 .. max_tagged_row");
static_assert(12 <= max_tagged_row, "n = 27 has h - 1 = 12 rows to tag");

/// The mask of a south half from the attack masks for row h-1 of its
/// upside-down search (left = up-right diagonals, right = up-left ones),
/// shifted one row down so that equal bits mean the same diagonal as in
/// north_mask. Precondition: full = low_bits(n).
NQUEENS_HD constexpr std::uint64_t south_mask(std::uint32_t left, std::uint32_t right, std::uint32_t full) noexcept {
  return std::uint64_t{(right << 1) & full} | (std::uint64_t{left >> 1} << 32);
}

/// Odd n: a north half serves as a south half turned upside down with its
/// left and right masks swapped (the middle row lies between the halves).
NQUEENS_HD constexpr std::uint64_t odd_south_mask(std::uint64_t north) noexcept {
  return (north << 32) | (north >> 32);
}

/// Odd n: the diagonals of the middle row's queen in column `middle`, as a
/// half's mask; a half that meets them makes no solution.
NQUEENS_HD constexpr std::uint64_t middle_queen_mask(int middle) noexcept {
  return north_mask(std::uint32_t{1} << middle, std::uint32_t{1} << middle);
}

}  // namespace nqueens::detail
