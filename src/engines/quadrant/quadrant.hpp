#pragma once

// The quadrant engine: its tables and kernels. A solution splits into a north half (rows
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

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engines/quadrant/pair_counter.hpp"
#include "nqueens/isa.hpp"

namespace nqueens::detail {

/// Largest board the quadrant engine takes: its quarter tables are indexed by
/// row and column sets (2^n entries), 15 GiB at n = 24.
inline constexpr int max_quadrant_board_size = 24;

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
  /// Throws run_cancelled once `*cancel` is set (null: never).
  quarter_table(int n, int first_column, int width, const std::atomic<bool>* cancel = nullptr);

  /// Placements using exactly `rows` (bit r = row r) and `columns` (bit j =
  /// column first_column + j), as north_mask contributions and as
  /// signatures: the diagonals that can meet the other quarter of the half
  /// (see quarter_tables.cpp); the two spans are parallel.
  std::span<const std::uint64_t> masks(std::uint32_t rows, std::uint32_t columns) const noexcept {
    const std::size_t key = (std::size_t{columns} << rows_) | rows;
    return {masks_.data() + offsets_[key], masks_.data() + offsets_[key + 1]};
  }
  std::span<const std::uint32_t> signatures(std::uint32_t rows, std::uint32_t columns) const noexcept {
    const std::size_t key = (std::size_t{columns} << rows_) | rows;
    return {signatures_.data() + offsets_[key], signatures_.data() + offsets_[key + 1]};
  }
  std::size_t size() const noexcept { return masks_.size(); }
  std::size_t bytes() const noexcept;

 private:
  int rows_ = 0;  // h
  // 2^(h + width) + 1: group key is [offsets_[key], offsets_[key + 1]). Keyed
  // by columns, then rows: a half board's join reads every row set of one
  // column set, and so reads one contiguous stretch of the table.
  std::vector<std::uint32_t> offsets_ = {0, 0};
  std::vector<std::uint64_t> masks_;
  std::vector<std::uint32_t> signatures_;
};

/// The two quarter tables of the north half of an n-board, built on the
/// calling thread's oneTBB arena (the two at once).
class half_board_tables {
 public:
  explicit half_board_tables(int n, const std::atomic<bool>* cancel = nullptr);

  int board_size() const noexcept { return n_; }
  const quarter_table& west() const noexcept { return west_; }
  const quarter_table& east() const noexcept { return east_; }
  std::size_t bytes() const noexcept { return west_.bytes() + east_.bytes(); }

 private:
  int n_;
  quarter_table west_, east_;
};

/// Peak bytes of the quadrant engine for board n on `threads` threads: the
/// tables (from tabled quarter placement counts), the plan and each thread's
/// buffers.
std::uint64_t quadrant_memory_bytes(int n, int threads) noexcept;

/// One subproblem: the solutions whose north half, rows 0..n/2-1, uses
/// exactly the columns `north` (bit c = column c), with the middle row's
/// queen (odd n) in column `middle`; slice `slice` of the plan's slices of
/// those north halves; `weight` column sets stand for it under the board's
/// symmetries.
struct quadrant_task {
  std::uint32_t north = 0;
  std::int8_t middle = -1;  ///< -1 for even n
  std::uint8_t weight = 1;
  std::uint8_t slice = 0;
};

class engine_plan;

/// The tasks of a quadrant plan, in plan order. Precondition: `p` is the
/// quadrant engine's plan.
const std::vector<quadrant_task>& quadrant_tasks_of(const engine_plan& p) noexcept;

/// Reusable buffers of one thread's solves.
struct quadrant_scratch {
  std::vector<std::uint64_t> north, south;
  pair_scratch pairs;
};

/// The quadrant kernels of one instruction set (quadrant_kernel.inc).
struct quadrant_kernels {
  /// The solutions one task stands for (weight included), of `slices`.
  /// Allocates nothing once `scratch` has grown. Throws std::overflow_error
  /// past 2^64.
  std::uint64_t (*solve)(const half_board_tables& tables, const quadrant_task& task, int slices,
                         quadrant_scratch& scratch);
  /// Writes to out[0..count) every placement of the north half of the
  /// tables' board that uses exactly `columns` (h of them), as north_mask, and
  /// returns count. `out` only grows (its size is a capacity). The order is
  /// fixed for given n and columns.
  std::size_t (*north_halves)(const half_board_tables& tables, std::uint32_t columns, std::vector<std::uint64_t>& out);
  /// count_disjoint_pairs (pair_counter.hpp) for this instruction set.
  std::uint64_t (*count_pairs)(std::span<const std::uint64_t> north, std::span<const std::uint64_t> south,
                               pair_scratch& scratch);
};

/// One compiled set of quadrant kernels and what it needs from the CPU.
struct quadrant_kernel_variant {
  const char* name;
  isa needs;
  bool needs_vpopcntdq;
  const quadrant_kernels* kernels;
};

/// Every compiled variant, narrowest first (tests run each the CPU supports).
std::span<const quadrant_kernel_variant> quadrant_kernel_variants() noexcept;

/// True when this CPU can run `v`.
bool cpu_supports(const quadrant_kernel_variant& v) noexcept;

/// The kernels for `kernels`: the widest variant of that instruction set the
/// CPU supports (the AVX-512 ones use VPOPCNTDQ where the CPU has it).
/// Precondition: cpu_supports(kernels).
const quadrant_kernels& quadrant_kernels_for(isa kernels) noexcept;

}  // namespace nqueens::detail
