// The quarter-board placements the quadrant engine joins into half boards:
// the whole tables, or each subproblem's lists. The memory they take is
// priced in quadrant_memory.cpp.

#include "engines/quadrant/quarter_tables.hpp"

#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <type_traits>
#include <vector>

#include "engines/quadrant/column_classes.hpp"
#include "kernels/bits.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/memory.hpp"

namespace nqueens::detail {

namespace {

// Signature bits of a queen at (row, column) of the north half: the
// diagonals the west and east quarters can share. With w = h west columns,
// anti-diagonals row + column in [w, w + h - 2] and diagonals column - row in
// [w - h + 1, w - 1] reach both quarters; each gets one bit (h - 1 of each).
std::uint32_t signature(int h, int row, int column) noexcept {
  const int w = h;
  std::uint32_t bits = 0;
  const int anti = row + column;
  if (anti >= w && anti <= w + h - 2) bits |= std::uint32_t{1} << (anti - w);
  const int diagonal = column - row;
  if (diagonal >= w - h + 1 && diagonal <= w - 1) bits |= std::uint32_t{1} << (h - 1 + diagonal - (w - h + 1));
  return bits;
}

// The queen's part of north_mask: its diagonals where they cross row h.
std::uint64_t crossing(int n, int h, int row, int column) noexcept {
  std::uint64_t bits = 0;
  const int left = column + (h - row), right = column - (h - row);
  // n <= 32, so left < n and right <= column are below 32: the masks change
  // nothing, and say so to the static analyzer.
  if (left < n) bits |= std::uint64_t{1} << (left & 31);
  if (right >= 0) bits |= std::uint64_t{1} << (32 + (right & 31));
  if (n % 2 != 0 && column == h) bits |= column_h_row_tag(row);  // the transposition filter reads it
  return bits;
}

// The one search over a quarter's rows, each row empty or holding a queen on
// an allowed column: leaf(rows, columns, mask, signature) for each placement
// that uses at least `queens` columns. The whole tables allow every column
// and want none (every placement, once); a subproblem's lists allow the
// columns of its set and want them all (sharing every prefix among the row
// sets, unlike a search per row set, which took 5x longer). A build that
// takes minutes (n = 28) looks at `cancel` (null for the lists) on row 3:
// often enough to stop within a fraction of a second, rarely enough to cost
// nothing; it then throws run_cancelled.
template <typename Leaf>
struct quarter_walker {
  int n, h, first_column, queens;
  std::uint32_t full, allowed;  // the quarter's columns; those a queen may take
  const std::atomic<bool>* cancel;
  Leaf& leaf;
  void walk(int row, std::uint32_t rows, int placed, std::uint32_t used, std::uint32_t left, std::uint32_t right,
            std::uint64_t mask, std::uint32_t sig) {
    if (h - row < queens - placed) return;  // too few rows left for the set
    if (cancel != nullptr && row == std::min(h, 3) && cancel->load(std::memory_order_relaxed)) throw run_cancelled();
    if (row == h) {
      leaf(rows, used, mask, sig);
      return;
    }
    walk(row + 1, rows, placed, used, (left << 1) & full, right >> 1, mask, sig);  // no queen on this row
    for (std::uint32_t free = allowed & ~(used | left | right); free != 0; free = clear_lowest_bit(free)) {
      const std::uint32_t bit = lowest_bit(free);
      const int column = first_column + column_of(bit);
      walk(row + 1, rows | (std::uint32_t{1} << row), placed + 1, used | bit, ((left | bit) << 1) & full,
           (right | bit) >> 1, mask | crossing(n, h, row, column), sig | signature(h, row, column));
    }
  }
};

// Every placement on the quarter (the whole tables).
template <typename Leaf>
void enumerate_quarter(int n, int h, int first_column, int width, const std::atomic<bool>* cancel, Leaf&& leaf) {
  const std::uint32_t full = low_bits(width);
  quarter_walker<std::remove_reference_t<Leaf>>{n, h, first_column, 0, full, full, cancel, leaf}.walk(0, 0, 0, 0, 0, 0,
                                                                                                      0, 0);
}

}  // namespace

quarter_table::quarter_table(int n, int first_column, int width, const std::atomic<bool>* cancel) : rows_(n / 2) {
  const int h = rows_;
  offsets_.assign((std::size_t{1} << (h + width)) + 1, 0);
  // Two passes (count, then fill) rather than holding every placement twice.
  enumerate_quarter(n, h, first_column, width, cancel,
                    [&](std::uint32_t rows, std::uint32_t columns, std::uint64_t, std::uint32_t) {
                      ++offsets_[((std::size_t{columns} << h) | rows) + 1];
                    });
  for (std::size_t k = 1; k < offsets_.size(); ++k) offsets_[k] += offsets_[k - 1];
  masks_.resize(offsets_.back());
  signatures_.resize(offsets_.back());
  std::vector<std::uint32_t> cursor(offsets_.begin(), offsets_.end() - 1);
  enumerate_quarter(n, h, first_column, width, cancel,
                    [&](std::uint32_t rows, std::uint32_t columns, std::uint64_t mask, std::uint32_t sig) {
                      const std::uint32_t at = cursor[(std::size_t{columns} << h) | rows]++;
                      masks_[at] = mask;
                      signatures_[at] = sig;
                    });
}

std::size_t quarter_table::bytes() const noexcept {
  return offsets_.capacity() * sizeof(std::uint32_t) + masks_.capacity() * sizeof(std::uint64_t) +
         signatures_.capacity() * sizeof(std::uint32_t);
}

half_board_tables::half_board_tables(int n, const std::atomic<bool>* cancel) : n_(n) {
  // The two quarters at once, on the calling thread's arena.
  tbb::parallel_invoke([&] { west_ = quarter_table(n, 0, n / 2, cancel); },
                       [&] { east_ = quarter_table(n, n / 2, n - n / 2, cancel); });
}

namespace {

// Makes `v` hold `size` elements with no more capacity than that when it
// must grow (a vector's own growth can double it, and holds old and new at once).
template <typename T>
void resize_exactly(std::vector<T>& v, std::size_t size) {
  if (size > v.capacity()) {
    std::vector<T>().swap(v);
    v.reserve(size);
  }
  v.resize(size);
}

}  // namespace

quarter_view quarter_list::build(int n, int first_column, int width, std::uint32_t columns, bool compact) {
  const int h = n / 2;
  const std::uint32_t full = low_bits(width);
  // Neighbouring subproblems of a plan share column sets (the east ones
  // change slowly): the last list is kept.
  const std::array<int, 4> key = {n, first_column, width, static_cast<int>(columns)};
  if (key == built_) return {offsets_.data(), masks_.data(), signatures_.data()};
  built_ = key;
  const auto search = [&](auto&& leaf) {
    quarter_walker<std::remove_reference_t<decltype(leaf)>>{
        n, h, first_column, std::popcount(columns), full, columns & full, nullptr, leaf}
        .walk(0, 0, 0, 0, 0, 0, 0, 0);
  };
  offsets_.assign((std::size_t{1} << h) + 1, 0);
  if (compact) {
    // Twice the search, to hold 12 bytes a placement and no scratch.
    search([&](std::uint32_t rows, std::uint32_t, std::uint64_t, std::uint32_t) { ++offsets_[rows + 1]; });
  } else {
    found_.clear();
    search([&](std::uint32_t rows, std::uint32_t, std::uint64_t mask, std::uint32_t sig) {
      found_.push_back({mask, sig, rows});
    });
    for (const placement& p : found_) ++offsets_[p.rows + 1];
  }
  for (std::size_t k = 1; k < offsets_.size(); ++k) offsets_[k] += offsets_[k - 1];
  resize_exactly(masks_, offsets_.back());
  resize_exactly(signatures_, offsets_.back());
  // offsets_[rows] ends as the end of the group: shifted back below.
  const auto place = [&](std::uint32_t rows, std::uint32_t, std::uint64_t mask, std::uint32_t sig) {
    const std::uint32_t at = offsets_[rows]++;
    masks_[at] = mask;
    signatures_[at] = sig;
  };
  if (compact) {
    search(place);
  } else {
    for (const placement& p : found_) place(p.rows, 0, p.mask, p.signature);
  }
  for (std::size_t k = offsets_.size() - 1; k > 0; --k) offsets_[k] = offsets_[k - 1];
  offsets_[0] = 0;
  return {offsets_.data(), masks_.data(), signatures_.data()};
}

std::size_t quarter_list::bytes() const noexcept {
  return offsets_.capacity() * sizeof(std::uint32_t) + masks_.capacity() * sizeof(std::uint64_t) +
         signatures_.capacity() * sizeof(std::uint32_t) + found_.capacity() * sizeof(placement);
}

std::array<quarter_view, 2> quarter_source::quarters(std::uint32_t columns, quarter_list& west,
                                                     quarter_list& east) const {
  const int h = n_ / 2;
  const std::uint32_t west_columns = columns & low_bits(h);
  const std::uint32_t east_columns = columns >> h;
  if (tables_ != nullptr) return {tables_->west().on(west_columns), tables_->east().on(east_columns)};
  return {west.build(n_, 0, h, west_columns, compact_lists_), east.build(n_, h, n_ - h, east_columns, compact_lists_)};
}

}  // namespace nqueens::detail
