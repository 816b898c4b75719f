#pragma once

// A resumable depth-first search that yields placements in lexicographic
// order of their column tuples: the source of `nqueens list` and of
// solutions(n). Slower per node than the counting kernels (it stops at every
// leaf), but ordered, and each call returns after one result.

#include <array>
#include <atomic>
#include <cstdint>
#include <span>

#include "kernels/bits.hpp"
#include "kernels/search.hpp"
#include "nqueens/board.hpp"

namespace nqueens::detail {

class lexicographic_search {
 public:
  /// Searches the non-attacking placements of rows 0..depth-1 on an n-board
  /// whose first rows are `prefix` (itself non-attacking), with the queen of
  /// row 0 in a column <= `max_first_column` when the prefix leaves row 0 free.
  /// Preconditions: 1 <= n <= max_board_size, prefix.size() <= depth <= n.
  lexicographic_search(int n, std::span<const std::uint8_t> prefix, int depth, int max_first_column) noexcept
      : n_(n), base_(static_cast<int>(prefix.size())), depth_(depth), row_(base_) {
    const std::uint32_t full = low_bits(n);
    for (int r = 0; r < base_; ++r) queens_[static_cast<std::size_t>(r)] = prefix[static_cast<std::size_t>(r)];
    const board_state placed = place_prefix(n, prefix);
    columns_[base_] = placed.columns;
    left_[base_] = placed.left;
    right_[base_] = placed.right;
    std::uint32_t free = full & ~(placed.columns | placed.left | placed.right);
    if (base_ == 0) free &= low_bits(max_first_column + 1);
    remaining_[base_] = free;
  }

  /// Advances to the next placement; false when there is none left or `stop`
  /// became true (checked every few thousand nodes).
  bool next(const std::atomic<bool>* stop = nullptr) noexcept {
    if (base_ == depth_) {  // nothing to search: the prefix is the one result
      if (finished_) return false;
      finished_ = true;
      return true;
    }
    const std::uint32_t full = low_bits(n_);
    int row = row_;
    unsigned budget = 4096;
    for (;;) {
      const std::uint32_t free = remaining_[row];
      if (free == 0) {
        if (row == base_) {
          row_ = row;
          return false;
        }
        --row;
        continue;
      }
      if (--budget == 0) {
        budget = 4096;
        if (stop != nullptr && stop->load(std::memory_order_relaxed)) {
          row_ = row;
          return false;
        }
      }
      const std::uint32_t bit = lowest_bit(free);  // lowest column first: lexicographic order
      remaining_[row] = clear_lowest_bit(free);
      queens_[static_cast<std::size_t>(row)] = static_cast<std::uint8_t>(column_of(bit));
      if (row + 1 == depth_) {
        row_ = row;  // the next call resumes with this row's other columns
        return true;
      }
      const std::uint32_t columns = columns_[row] | bit;
      const std::uint32_t left = ((left_[row] | bit) << 1) & full;
      const std::uint32_t right = (right_[row] | bit) >> 1;
      ++row;
      columns_[row] = columns;
      left_[row] = left;
      right_[row] = right;
      remaining_[row] = full & ~(columns | left | right);
    }
  }

  /// The current placement: rows 0..depth-1. Valid after next() returned true.
  std::span<const std::uint8_t> queens() const noexcept { return {queens_.data(), static_cast<std::size_t>(depth_)}; }

 private:
  int n_;
  int base_;
  int depth_;
  int row_;
  bool finished_ = false;
  std::array<std::uint32_t, max_board_size + 1> columns_{};
  std::array<std::uint32_t, max_board_size + 1> left_{};
  std::array<std::uint32_t, max_board_size + 1> right_{};
  std::array<std::uint32_t, max_board_size + 1> remaining_{};
  std::array<std::uint8_t, max_board_size> queens_{};
};

}  // namespace nqueens::detail
