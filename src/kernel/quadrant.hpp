#pragma once

// The quadrant engine's kernel. A solution splits into a north half (rows
// 0..h-1, h = n/2) and a south half (the last h rows; for odd n the middle
// row between them holds one queen, fixed per subproblem). A half is reduced
// to the diagonals it sends across the middle, read where they cross: for the
// north half its attack masks for row h (left = moving to higher columns,
// right = to lower ones), for the south half those of its upside-down image.
// A north and a south half with complementary columns form a solution exactly
// when no north diagonal meets a south one: with both packed into 64-bit
// masks (north_mask, south_mask), when `north & south == 0`.
//
// The halves of one column set are not stored for the whole board: each
// subproblem builds its two groups on the fly by joining quarter boards. A
// north half using columns X is a west quarter (columns 0..h-1) on some rows
// R with the columns of X there, joined with an east quarter on the other
// rows with the rest of X, when no diagonal of one meets the other. The
// quarter tables, every placement of each quarter indexed by (rows,
// columns), are small (915,442 placements per quarter at n = 18), so memory
// no longer grows with the number of half boards.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "kernel/disjoint_pairs.hpp"
#include "nqueens/plan.hpp"

namespace nqueens::detail {

/// The mask of a north half from its attack masks for row h.
constexpr std::uint64_t north_mask(std::uint32_t left, std::uint32_t right) noexcept {
  return std::uint64_t{left} | (std::uint64_t{right} << 32);
}

/// The mask of a south half from the attack masks for row h-1 of its
/// upside-down search (left = up-right diagonals, right = up-left ones),
/// shifted one row down so that equal bits mean the same diagonal as in
/// north_mask. Precondition: full = low_bits(n).
constexpr std::uint64_t south_mask(std::uint32_t left, std::uint32_t right, std::uint32_t full) noexcept {
  return std::uint64_t{(right << 1) & full} | (std::uint64_t{left >> 1} << 32);
}

/// Every placement of non-attacking queens, any number, at most one per row
/// and column, on rows 0..h-1 and `width` columns from `first_column` of an
/// n-board; grouped by the rows and columns it uses.
class quarter_table {
 public:
  quarter_table() = default;
  quarter_table(int n, int first_column, int width);

  /// Placements using exactly `rows` (bit r = row r) and `columns` (bit j =
  /// column first_column + j), as north_mask contributions and as
  /// signatures: the diagonals that can meet the other quarter of the half
  /// (see quadrant.cpp); the two spans are parallel.
  std::span<const std::uint64_t> masks(std::uint32_t rows, std::uint32_t columns) const noexcept {
    const std::size_t key = (std::size_t{rows} << width_) | columns;
    return {masks_.data() + offsets_[key], masks_.data() + offsets_[key + 1]};
  }
  std::span<const std::uint32_t> signatures(std::uint32_t rows, std::uint32_t columns) const noexcept {
    const std::size_t key = (std::size_t{rows} << width_) | columns;
    return {signatures_.data() + offsets_[key], signatures_.data() + offsets_[key + 1]};
  }
  std::size_t size() const noexcept { return masks_.size(); }
  std::size_t bytes() const noexcept;

 private:
  int width_ = 0;
  std::vector<std::uint32_t> offsets_ = {0, 0};  // 2^(h + width) + 1: group key is [offsets_[key], offsets_[key + 1])
  std::vector<std::uint64_t> masks_;
  std::vector<std::uint32_t> signatures_;
};

/// The two quarter tables of the north half of an n-board.
class half_board_tables {
 public:
  explicit half_board_tables(int n);

  int board_size() const noexcept { return n_; }
  /// Writes to out[0..count) every placement of the north half that uses
  /// exactly `columns` (h of them), as north_mask, and returns count. `out`
  /// only grows (its size is a capacity), so a reused buffer stops
  /// allocating. The order is fixed for given n and columns.
  std::size_t north_halves(std::uint32_t columns, std::vector<std::uint64_t>& out) const;
  std::size_t bytes() const noexcept { return west_.bytes() + east_.bytes(); }

 private:
  int n_;
  quarter_table west_, east_;
};

/// Peak bytes of the quadrant engine for board n on `threads` threads: the
/// tables (from tabled quarter placement counts) plus each thread's buffers.
std::uint64_t quadrant_memory_bytes(int n, int threads) noexcept;

/// The tables for board n, shared: built on first use (on the calling
/// thread's oneTBB arena), kept for the next call
/// with the same n (execute() is called once per chunk by nqueens-mpi and per
/// thread count by `scale`), replaced for another n.
std::shared_ptr<const half_board_tables> shared_half_board_tables(int n);

/// Drops the shared tables (count() calls it when done).
void release_shared_half_board_tables() noexcept;

/// Reusable buffers of solve_quadrant (one per thread).
struct quadrant_scratch {
  std::vector<std::uint64_t> north, south;
  pair_scratch pairs;
};

/// The solutions one quadrant subproblem stands for (weight included).
std::uint64_t solve_quadrant(const half_board_tables& tables, const subproblem& s, int slices,
                             quadrant_scratch& scratch);

}  // namespace nqueens::detail
