// The quarter-board tables the quadrant engine joins into half boards, and
// its memory estimate.

#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <type_traits>
#include <vector>

#include "engines/quadrant/column_classes.hpp"
#include "engines/quadrant/quadrant.hpp"
#include "kernels/bits.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/memory.hpp"

namespace nqueens::detail {

namespace {

// Placements of any number of non-attacking queens on an h x w board (rows
// and columns used at most once), counted once with a plain enumeration:
// the size of a quarter table, used to size memory before allocating.
struct quarter_count {
  int h, w;
  std::uint64_t placements;
};
constexpr quarter_count tabled_quarters[] = {
    {0, 0, 1},         {0, 1, 1},          {1, 1, 2},          {1, 2, 3},           {2, 2, 5},
    {2, 3, 9},         {3, 3, 18},         {3, 4, 37},         {4, 4, 87},          {4, 5, 185},
    {5, 5, 462},       {5, 6, 1039},       {6, 6, 2635},       {6, 7, 6335},        {7, 7, 16870},
    {7, 8, 42807},     {8, 8, 118969},     {8, 9, 316395},     {9, 9, 915442},      {9, 10, 2524999},
    {10, 10, 7535369}, {10, 11, 21637115}, {11, 11, 66807234}, {11, 12, 198770307}, {12, 12, 633443407},
};

// The most placements of an h x w quarter on any one column set (one queen
// per column, any rows), counted once by enumeration up to h = 12; beyond,
// extrapolated: each row more multiplies it by about 5.5, a factor itself
// growing by about 0.15 (measured 4.6, 5.0, 5.4, 5.5 for h = 9..12).
struct largest_column_set {
  int h, w;
  std::uint64_t placements;
};
constexpr largest_column_set tabled_largest[] = {
    {0, 0, 1},        {0, 1, 1},         {1, 1, 1},       {1, 2, 2},       {2, 2, 2},        {2, 3, 3},
    {3, 3, 4},        {3, 4, 6},         {4, 4, 10},      {4, 5, 12},      {5, 5, 26},       {5, 6, 34},
    {6, 6, 92},       {6, 7, 120},       {7, 7, 296},     {7, 8, 408},     {8, 8, 1174},     {8, 9, 1660},
    {9, 9, 5366},     {9, 10, 7444},     {10, 10, 26548}, {10, 11, 37108}, {11, 11, 143140}, {11, 12, 208654},
    {12, 12, 788698}, {12, 13, 1187854},
};

double largest_quarter_list(int h, int w) noexcept {
  for (const largest_column_set& q : tabled_largest) {
    if (q.h == h && q.w == w) return static_cast<double>(q.placements);
  }
  if (h <= 12) return 1e30;  // not a quarter of any board the engine takes
  return largest_quarter_list(h - 1, w - 1) * (5.7 + 0.15 * (h - 13));
}

// The most placements of a quarter on one column set and one row set: the
// longest stretch a join's inner loop reads, so the least a slice must hold.
// Counted once by enumeration (quarter lists of every column set) up to
// h = 12; beyond, extrapolated by 5 a row (measured 3.8 to 4.2 for h = 10..12).
constexpr largest_column_set tabled_largest_row_set[] = {
    {1, 1, 1},     {1, 2, 1},      {2, 2, 1},      {2, 3, 2},      {3, 3, 2},       {3, 4, 2},
    {4, 4, 2},     {4, 5, 4},      {5, 5, 10},     {5, 6, 10},     {6, 6, 10},      {6, 7, 22},
    {7, 7, 40},    {7, 8, 62},     {8, 8, 92},     {8, 9, 146},    {9, 9, 352},     {9, 10, 540},
    {10, 10, 946}, {10, 11, 2020}, {11, 11, 3571}, {11, 12, 7714}, {12, 12, 15003},
};

double largest_row_set_group(int h, int w) noexcept {
  for (const largest_column_set& q : tabled_largest_row_set) {
    if (q.h == h && q.w == w) return static_cast<double>(q.placements);
  }
  if (h <= 12 && !(h == 12 && w == 13)) return largest_quarter_list(h, w);  // small boards: the whole list bounds it
  return 5.0 * largest_row_set_group(h - 1, w - 1);
}

double quarter_placements(int h, int w) noexcept {
  for (const quarter_count& q : tabled_quarters) {
    if (q.h == h && q.w == w) return static_cast<double>(q.placements);
  }
  return 1e30;  // beyond the engine's range: no memory would do
}

// Placements of the first k rows of an n-board (one queen per row): the
// half boards of all column sets together, to size each thread's buffers.
struct half_count {
  int n;
  std::uint64_t placements;
};
constexpr half_count tabled_halves[] = {
    {1, 1},        {2, 2},         {3, 3},         {4, 6},          {5, 12},         {6, 36},          {7, 76},
    {8, 344},      {9, 732},       {10, 3916},     {11, 8492},      {12, 52856},     {13, 117694},     {14, 835056},
    {15, 1897702}, {16, 15324708}, {17, 35312064}, {18, 318853768}, {19, 742665978}, {20, 7415187482},
};

// Tabled, or extrapolated: each two rows more multiply the count by a factor
// that itself grows by about 2.5.
double half_placements(int n) noexcept {
  if (n < 1) return 1;  // guards the recursion below for any argument
  for (const half_count& t : tabled_halves) {
    if (t.n == n) return static_cast<double>(t.placements);
  }
  const double last = half_placements(n - 2);
  const double before = half_placements(n - 4);
  return last * (last / before + 2.5);
}

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
  return bits;
}

// Calls leaf(rows, columns, mask, signature) for every placement on the
// quarter, row by row: each row empty or with one queen. Throws run_cancelled
// once `*cancel` is set, looked at on row 3: often enough that a build of
// minutes (n = 28) stops within a fraction of a second, rarely enough to cost
// nothing.
template <typename Leaf>
void enumerate_quarter(int n, int h, int first_column, int width, const std::atomic<bool>* cancel, Leaf&& leaf) {
  const std::uint32_t full = low_bits(width);
  struct walker {
    int n, h, first_column;
    std::uint32_t full;
    const std::atomic<bool>* cancel;
    Leaf& leaf;
    void walk(int row, std::uint32_t rows, std::uint32_t columns, std::uint32_t left, std::uint32_t right,
              std::uint64_t mask, std::uint32_t sig) {
      if (row == std::min(h, 3) && cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
        throw run_cancelled();
      }
      if (row == h) {
        leaf(rows, columns, mask, sig);
        return;
      }
      walk(row + 1, rows, columns, (left << 1) & full, right >> 1, mask, sig);  // no queen on this row
      for (std::uint32_t free = full & ~(columns | left | right); free != 0; free = clear_lowest_bit(free)) {
        const std::uint32_t bit = lowest_bit(free);
        const int column = first_column + column_of(bit);
        walk(row + 1, rows | (std::uint32_t{1} << row), columns | bit, ((left | bit) << 1) & full, (right | bit) >> 1,
             mask | crossing(n, h, row, column), sig | signature(h, row, column));
      }
    }
  };
  walker{n, h, first_column, full, cancel, leaf}.walk(0, 0, 0, 0, 0, 0, 0);
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

// One search over a quarter's rows, each empty or holding a queen on a
// column of the set (sharing every prefix among the row sets, unlike a
// search per row set, which took 5x longer): leaf(mask, signature, rows)
// for each placement using every column of the set.
template <typename Leaf>
struct quarter_walker {
  int n, h, first_column, queens;
  std::uint32_t full, allowed;  // the quarter's columns; the set's
  Leaf& leaf;
  void walk(int row, std::uint32_t rows, int placed, std::uint32_t used, std::uint32_t left, std::uint32_t right,
            std::uint64_t mask, std::uint32_t sig) {
    if (h - row < queens - placed) return;  // too few rows left for the set
    if (row == h) {
      leaf(mask, sig, rows);
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
        n, h, first_column, std::popcount(columns), full, columns & full, leaf}
        .walk(0, 0, 0, 0, 0, 0, 0, 0);
  };
  offsets_.assign((std::size_t{1} << h) + 1, 0);
  if (compact) {
    // Twice the search, to hold 12 bytes a placement and no scratch.
    search([&](std::uint64_t, std::uint32_t, std::uint32_t rows) { ++offsets_[rows + 1]; });
  } else {
    found_.clear();
    search([&](std::uint64_t mask, std::uint32_t sig, std::uint32_t rows) { found_.push_back({mask, sig, rows}); });
    for (const placement& p : found_) ++offsets_[p.rows + 1];
  }
  for (std::size_t k = 1; k < offsets_.size(); ++k) offsets_[k] += offsets_[k - 1];
  resize_exactly(masks_, offsets_.back());
  resize_exactly(signatures_, offsets_.back());
  // offsets_[rows] ends as the end of the group: shifted back below.
  const auto place = [&](std::uint64_t mask, std::uint32_t sig, std::uint32_t rows) {
    const std::uint32_t at = offsets_[rows]++;
    masks_[at] = mask;
    signatures_[at] = sig;
  };
  if (compact) {
    search(place);
  } else {
    for (const placement& p : found_) place(p.mask, p.signature, p.rows);
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

namespace {

struct memory_parts {
  double tables, lists_per_thread, compact_lists_per_thread, largest_group, groups_per_thread, plan;
};

memory_parts quadrant_memory_parts(int n) noexcept {
  const int h = n / 2;
  const auto quarter = [&](int w) {
    return 12.0 * quarter_placements(h, w) + 4.0 * std::ldexp(1.0, h + w);  // masks and signatures, offsets
  };
  memory_parts m{};
  m.tables = quarter(h) + quarter(n - h);
  // Four lists (both quarters of both halves), sized exactly: 12 bytes a
  // placement of the largest column set, and 2^h offsets; 16 more for the
  // search's scratch records (grown by doubling, so up to 32) unless compact.
  const double largest = largest_quarter_list(h, n - h);
  m.compact_lists_per_thread = 4 * (12.0 * largest + 4.0 * std::ldexp(1.0, h));
  m.lists_per_thread = m.compact_lists_per_thread + 4 * 32.0 * largest;
  // Per thread: the two groups of one subproblem (grown with join slack),
  // the pair counter's sorted and bit-sliced copies of the south group and
  // its per-north entries: about 120 bytes per half board of the largest
  // group, which is about 3 times the average (measured 2.7 at n = 18).
  const double sets = static_cast<double>(binomial(n, h));
  m.largest_group = 3.0 * half_placements(n) / sets;
  m.groups_per_thread = 120.0 * m.largest_group + 1e6;
  // The plan: about C(n, h)/4 classes for even n, n C(n-1, h)/4 = (h + 1)
  // C(n, h)/4 for odd n (970 288 at n = 21). A run holds 16 bytes for
  // each subproblem of its shard (the list of those left, and its dispatch
  // order), a bit or three per subproblem of the plan (journal, checks),
  // and, for plans up to 2^22, each task listed (8 bytes); the ranked
  // classes' block table is 32 bytes per 1024 sets.
  const double subproblems = (n % 2 == 0 ? sets : (n - h) * sets) / 4.0;
  m.plan = 16.5 * subproblems + (subproblems <= 4194304.0 ? 8.0 * subproblems : 0.0) +
           32.0 * (n % 2 == 0 ? sets : (n - h) * sets) / 1024;
  return m;
}

// 10% and 8 MiB of margin: measured 206 MiB at n = 20 on 2 threads (the
// whole process) against 192 MiB without it.
std::uint64_t with_margin(double bytes) noexcept {
  const double total = 1.1 * bytes + 8.0 * 1024 * 1024;
  return total >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(total);
}

}  // namespace

quadrant_layout quadrant_layout_for(int n, int threads, std::uint64_t max_memory) noexcept {
  if (max_memory == 0) max_memory = default_memory_limit();
  const memory_parts m = quadrant_memory_parts(n);
  const double t = std::max(threads, 1);
  // The pair counter takes groups of fewer than 2^31 halves: a larger one
  // (beyond n = 28, or a column set far above the estimate) is sliced.
  constexpr std::size_t pair_counter_limit = (std::size_t{1} << 31) - (std::size_t{1} << 20);
  quadrant_layout layout;
  layout.bytes = with_margin(m.tables + m.plan + t * m.groups_per_thread);
  if (layout.bytes <= max_memory) return layout;
  layout.tables = false;
  layout.max_group = pair_counter_limit;
  layout.bytes = with_margin(m.plan + t * (m.lists_per_thread + m.groups_per_thread));
  if (layout.bytes <= max_memory && m.largest_group < pair_counter_limit) return layout;
  // Slices, with compact lists: each thread's groups get what is left, at
  // 120 bytes per half board of a group (see quadrant_memory_parts); at
  // least one row set's placements of a quarter, so that a slice can always
  // take one more outer placement's joins.
  layout.compact_lists = true;
  const double fixed = m.plan + t * m.compact_lists_per_thread;
  constexpr double small_buffers = 256 * 1024;  // the pair counter's per-key arrays and block table
  const double left = (static_cast<double>(max_memory) - 8.0 * 1024 * 1024) / 1.1 - fixed;
  const double fewest = largest_row_set_group(n / 2, n - n / 2) + 4096;
  const double halves =
      std::clamp(std::floor((left / t - small_buffers) / 120.0), fewest, static_cast<double>(pair_counter_limit));
  layout.max_group = static_cast<std::size_t>(halves);
  layout.bytes = with_margin(fixed + t * (120.0 * halves + small_buffers));
  return layout;
}

std::uint64_t quadrant_memory_bytes(int n, int threads, std::uint64_t max_memory) noexcept {
  return quadrant_layout_for(n, threads, max_memory).bytes;
}

}  // namespace nqueens::detail
