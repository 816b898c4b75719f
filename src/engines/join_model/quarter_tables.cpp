// The quarter-board placements the quadrant and GPU engines join into half
// boards: the whole tables (both), or each subproblem's lists (the quadrant
// engine's, under a memory bound). The memory they take is priced in
// quadrant_memory.cpp.

#include "engines/join_model/quarter_tables.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <type_traits>
#include <vector>

#include "engines/join_model/column_classes.hpp"
#include "engines/join_model/exact_growth.hpp"
#include "kernels/bits.hpp"
#include "nqueens/cancelled.hpp"

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

// The one search over a quarter, column by column from its highest column
// down, each column empty or holding a queen on a free row:
// leaf(rows, columns, mask, signature) for each placement whose columns hold
// every column of `required` and no column outside `allowed`. The whole
// tables allow every column and require none (every placement, once); a
// subproblem's lists allow and require the columns of its set (sharing every
// prefix among the row sets). Deciding the highest column first, an empty
// column before a queen, gives the placements in increasing order of their
// column sets, so the tables, keyed by column set first, are written front
// to back: a walk row by row wrote them at random, 80% of their build time
// at n = 20. A placement's rows are a column set's own business: within one
// (columns, rows) group the tables and the lists hold the same order. A build
// that takes minutes (the tables, n = 24) or seconds (a subproblem's lists,
// n = 28) looks at `cancel` three columns down (a walk that ends above that
// column, of three queens at most, has too few placements to need it):
// often enough to stop within a fraction of a second, rarely enough to cost
// nothing; `stop` then throws (run_cancelled for the tables,
// subproblem_cancelled for the lists).
template <typename Leaf>
struct quarter_walker {
  int n, h, first_column, width;
  std::uint32_t all_rows, allowed, required;
  const std::atomic<bool>* cancel;
  void (*stop)(const std::atomic<bool>*);
  Leaf& leaf;
  // A queen's crossing and signature bits by [column][row] of the quarter,
  // looked up at each placement rather than worked out (set by walk_all for
  // the allowed columns).
  static_assert(max_quadrant_board_size <= 32, "a quarter of at most 16 rows and 16 columns");
  std::array<std::array<std::uint64_t, 16>, 16> crossings;
  std::array<std::array<std::uint32_t, 16>, 16> signatures;

  void walk_all() {
    for (std::uint32_t open = allowed; open != 0; open = clear_lowest_bit(open)) {
      const int column = std::countr_zero(open);
      for (int row = 0; row < h; ++row) {
        crossings[column][row] = crossing(n, h, row, first_column + column);
        signatures[column][row] = signature(h, row, first_column + column);
      }
    }
    walk(width - 1, 0, 0, 0, 0, 0, 0, h, std::popcount(required));
  }

  // Column `column` (of the quarter) and those below it are open; `up` and
  // `down` are the rows its diagonals attack in this column; `free_rows` and
  // `still_required` count the rows without a queen and the required
  // columns without one. Below the lowest allowed column nothing is left to
  // place: the placement is a leaf there (no call per empty column, nor one
  // more per placement for the column past the last).
  void walk(int column, std::uint32_t columns, std::uint32_t rows, std::uint32_t up, std::uint32_t down,
            std::uint64_t mask, std::uint32_t sig, int free_rows, int still_required) {
    if (cancel != nullptr && column == width - 1 - std::min(width, 3)) stop(cancel);
    if (column < 0 || (allowed & low_bits(column + 1)) == 0) {
      leaf(rows, columns, mask, sig);
      return;
    }
    if (free_rows < still_required) return;  // too few rows left for the required columns
    const std::uint32_t bit = std::uint32_t{1} << column;
    if ((required & bit) == 0) {
      walk(column - 1, columns, rows, (up << 1) & all_rows, down >> 1, mask, sig, free_rows, still_required);
    }
    if ((allowed & bit) == 0) return;
    const int required_after = still_required - ((required & bit) != 0 ? 1 : 0);
    const bool last = (allowed & low_bits(column)) == 0;  // a queen here ends the placement
    const auto& crossing_of = crossings[static_cast<std::size_t>(column)];
    const auto& signature_of = signatures[static_cast<std::size_t>(column)];
    for (std::uint32_t open = all_rows & ~(rows | up | down); open != 0; open = clear_lowest_bit(open)) {
      const std::uint32_t row_bit = lowest_bit(open);
      const auto row = static_cast<std::size_t>(std::countr_zero(row_bit));
      if (last) {
        leaf(rows | row_bit, columns | bit, mask | crossing_of[row], sig | signature_of[row]);
      } else {
        walk(column - 1, columns | bit, rows | row_bit, ((up | row_bit) << 1) & all_rows, (down | row_bit) >> 1,
             mask | crossing_of[row], sig | signature_of[row], free_rows - 1, required_after);
      }
    }
  }
};

// The quarter's placements whose top `top_columns` columns are occupied as
// `pattern` says (a bit per column: a queen, or none), in increasing order
// of their column sets: the whole quarter's walk restricted to them. Every
// (columns, rows) group lies in one pattern, so the patterns' walks fill
// disjoint groups, each in the whole walk's order, and can run at once.
template <typename Leaf>
void enumerate_pattern(int n, int h, int first_column, int width, int top_columns, std::uint32_t pattern,
                       const std::atomic<bool>* cancel, Leaf&& leaf) {
  const std::uint32_t top = low_bits(width) & ~low_bits(width - top_columns);
  const std::uint32_t required = pattern << (width - top_columns);
  quarter_walker<std::remove_reference_t<Leaf>>{
      n,        h,      first_column,        width, low_bits(h), low_bits(width) & ~(top & ~required),
      required, cancel, &throw_if_cancelled, leaf}
      .walk_all();
}

// Calls walk(pattern) for every pattern of the top columns, on the calling
// thread's arena: 32 tasks per quarter, so that the build (15% of a one-
// thread count at n = 18, 2.4% at n = 20) no longer runs on two threads
// while the others wait.
template <typename Walk>
void for_each_pattern(int width, Walk&& walk) {
  const int top_columns = std::min(width, 5);
  tbb::parallel_for(std::uint32_t{0}, std::uint32_t{1} << top_columns,
                    [&](std::uint32_t pattern) { walk(top_columns, pattern); });
}

}  // namespace

quarter_table::quarter_table(int n, int first_column, int width, const std::atomic<bool>* cancel) : rows_(n / 2) {
  const int h = rows_;
  offsets_.assign((std::size_t{1} << (h + width)) + 1, 0);
  // Two passes (count, then fill) rather than holding every placement twice.
  for_each_pattern(width, [&](int top_columns, std::uint32_t pattern) {
    enumerate_pattern(n, h, first_column, width, top_columns, pattern, cancel,
                      [&](std::uint32_t rows, std::uint32_t columns, std::uint64_t, std::uint32_t) {
                        ++offsets_[((std::size_t{columns} << h) | rows) + 1];
                      });
  });
  for (std::size_t k = 1; k < offsets_.size(); ++k) offsets_[k] += offsets_[k - 1];
  masks_.resize(offsets_.back());
  signatures_.resize(offsets_.back());
  std::vector<std::uint32_t, table_allocator<std::uint32_t>> cursor(offsets_.begin(), offsets_.end() - 1);
  for_each_pattern(width, [&](int top_columns, std::uint32_t pattern) {
    enumerate_pattern(n, h, first_column, width, top_columns, pattern, cancel,
                      [&](std::uint32_t rows, std::uint32_t columns, std::uint64_t mask, std::uint32_t sig) {
                        const std::uint32_t at = cursor[(std::size_t{columns} << h) | rows]++;
                        masks_[at] = mask;
                        signatures_[at] = sig;
                      });
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

template <typename Leaf>
void quarter_list::search(int n, int first_column, int width, std::uint32_t columns, const std::atomic<bool>* cancel,
                          Leaf&& leaf) {
  const int h = n / 2;
  const std::uint32_t full = low_bits(width);
  quarter_walker<std::remove_reference_t<Leaf>>{
      n, h, first_column, width, low_bits(h), columns & full, columns & full, cancel, &stop_if_cancelled, leaf}
      .walk_all();
}

void quarter_list::count_compact(const std::array<int, 4>& key, const std::atomic<bool>* cancel) {
  const auto [n, first_column, width, columns] = key;
  built_ = counted_ = no_list;
  offsets_.assign((std::size_t{1} << (n / 2)) + 1, 0);
  search(n, first_column, width, static_cast<std::uint32_t>(columns), cancel,
         [&](std::uint32_t rows, std::uint32_t, std::uint64_t, std::uint32_t) { ++offsets_[rows + 1]; });
  for (std::size_t k = 1; k < offsets_.size(); ++k) offsets_[k] += offsets_[k - 1];
  counted_ = key;
}

std::size_t quarter_list::bytes_to_build(int n, int first_column, int width, std::uint32_t columns,
                                         const std::atomic<bool>* cancel) {
  const std::array<int, 4> key = {n, first_column, width, static_cast<int>(columns)};
  if (key != built_ && key != counted_) count_compact(key, cancel);
  const std::size_t placements = key == built_ ? masks_.size() : offsets_.back();
  return held_bytes(offsets_) + std::max(masks_.capacity(), placements) * sizeof(std::uint64_t) +
         std::max(signatures_.capacity(), placements) * sizeof(std::uint32_t) + held_bytes(found_);
}

quarter_view quarter_list::build(int n, int first_column, int width, std::uint32_t columns, bool compact,
                                 const std::atomic<bool>* cancel) {
  // Neighbouring subproblems of a plan share column sets (the east ones
  // change slowly): the last list is kept, once whole (a cancelled build
  // leaves none).
  const std::array<int, 4> key = {n, first_column, width, static_cast<int>(columns)};
  if (key == built_) return {offsets_.data(), masks_.data(), signatures_.data()};
  if (compact) {
    // Twice the search, to hold 12 bytes a placement and no scratch: the
    // first may have run already (bytes_to_build).
    if (key != counted_) count_compact(key, cancel);
  } else {
    built_ = counted_ = no_list;
    offsets_.assign((std::size_t{1} << (n / 2)) + 1, 0);
    found_.clear();
    search(n, first_column, width, columns, cancel,
           [&](std::uint32_t rows, std::uint32_t, std::uint64_t mask, std::uint32_t sig) {
             found_.push_back({mask, sig, rows});
           });
    for (const placement& p : found_) ++offsets_[p.rows + 1];
    for (std::size_t k = 1; k < offsets_.size(); ++k) offsets_[k] += offsets_[k - 1];
  }
  counted_ = no_list;
  resize_exactly(masks_, offsets_.back());
  resize_exactly(signatures_, offsets_.back());
  // offsets_[rows] ends as the end of the group: shifted back below.
  const auto place = [&](std::uint32_t rows, std::uint32_t, std::uint64_t mask, std::uint32_t sig) {
    const std::uint32_t at = offsets_[rows]++;
    masks_[at] = mask;
    signatures_[at] = sig;
  };
  if (compact) {
    search(n, first_column, width, columns, cancel, place);
  } else {
    for (const placement& p : found_) place(p.rows, 0, p.mask, p.signature);
  }
  for (std::size_t k = offsets_.size() - 1; k > 0; --k) offsets_[k] = offsets_[k - 1];
  offsets_[0] = 0;
  built_ = key;
  return {offsets_.data(), masks_.data(), signatures_.data()};
}

std::size_t quarter_list::bytes() const noexcept {
  return offsets_.capacity() * sizeof(std::uint32_t) + masks_.capacity() * sizeof(std::uint64_t) +
         signatures_.capacity() * sizeof(std::uint32_t) + found_.capacity() * sizeof(placement);
}

std::array<quarter_view, 2> quarter_source::quarters(std::uint32_t columns, quarter_list& west, quarter_list& east,
                                                     const std::atomic<bool>* cancel) const {
  return {quarter(false, columns, west, cancel), quarter(true, columns, east, cancel)};
}

quarter_view quarter_source::quarter(bool east, std::uint32_t columns, quarter_list& list,
                                     const std::atomic<bool>* cancel) const {
  const int h = n_ / 2;
  if (east) {
    const std::uint32_t east_columns = columns >> h;
    if (tables_ != nullptr) return tables_->east().on(east_columns);
    return list.build(n_, h, n_ - h, east_columns, layout_.compact_lists, cancel);
  }
  const std::uint32_t west_columns = columns & low_bits(h);
  if (tables_ != nullptr) return tables_->west().on(west_columns);
  return list.build(n_, 0, h, west_columns, layout_.compact_lists, cancel);
}

std::size_t quarter_source::bytes_to_build(std::uint32_t columns, quarter_list& west, quarter_list& east,
                                           const std::atomic<bool>* cancel) const {
  if (tables_ != nullptr || !layout_.compact_lists) return west.bytes() + east.bytes();
  const int h = n_ / 2;
  return west.bytes_to_build(n_, 0, h, columns & low_bits(h), cancel) +
         east.bytes_to_build(n_, h, n_ - h, columns >> h, cancel);
}

}  // namespace nqueens::detail
