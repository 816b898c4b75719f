// The memory model of a quadrant run: what its tables, lists, groups and
// plan take, from tabled counts of quarter and half boards, and the layout
// (whole tables, per-subproblem lists, slices) that fits a bound. The GPU
// engine prices its host's share by the unbounded layout.

#include "engines/join_model/quadrant_memory.hpp"

#include <algorithm>
#include <cmath>

#include "engines/join_model/column_classes.hpp"
#include "engines/join_model/quadrant_task.hpp"
#include "engines/join_model/quarter_tables.hpp"
#include "nqueens/memory_limit.hpp"

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

// Bytes a quarter placement takes in a table or a list (its mask and
// signature), and a half board in a thread's groups and the pair counter's
// copies of them (see quadrant_memory_parts).
constexpr double bytes_per_placement = sizeof(std::uint64_t) + sizeof(std::uint32_t);
constexpr double bytes_per_half = 128.0;
// Where groups are counted in slices, their buffers grow exactly
// (exact_growth.hpp) to pieces of at most c halves each, and each buffer is
// priced per half of c (piece_budget_for): 8 bytes each in the north, the
// south and the run sorter's copy; 16 of table entries for the walked list
// (up to 8 digits of 2 bytes: 48 bits beside 16 key bits); 12 for the
// blocked list's sorted copy and 12 for its bit rows (up to 65 of 64 bytes
// per 512), both padded to whole blocks: 1.5 times a piece, where the
// padding measured 1.13 at n = 28 for pieces of 5e7 and 1.5 for 5e6. The
// per-key arrays are under 1 (about 58 bytes a key, a key per 64 halves or
// more).
constexpr double group_bytes_per_half = 8.0, entry_bytes_per_half = 16.0, blocked_bytes_per_half = 12.0,
                 row_bytes_per_half = 12.0;
constexpr double bytes_per_piece_half =
    3 * group_bytes_per_half + entry_bytes_per_half + blocked_bytes_per_half + row_bytes_per_half;
static_assert(bytes_per_piece_half == 64.0);
// What a buffer holds beyond its share of the halves: a join's slack, the
// entries' padding, a leaf's last block and rows.
constexpr std::size_t piece_buffer_slack = std::size_t{8} * 1024;
constexpr double small_buffers = 512 * 1024;  // the block table (up to 196 KiB of 8- and 9-bit digits) and the rest

struct memory_parts {
  double tables, lists_per_thread, compact_lists_per_thread, largest_group, groups_per_thread, kept_east_per_thread,
      plan;
};

}  // namespace

double largest_group_halves(int n) noexcept {
  return 3.0 * half_placements(n) / static_cast<double>(binomial(n, n / 2));
}

namespace {

memory_parts quadrant_memory_parts(int n) noexcept {
  const int h = n / 2;
  const auto quarter = [&](int w) {
    return bytes_per_placement * quarter_placements(h, w) + 4.0 * std::ldexp(1.0, h + w);  // and offsets
  };
  memory_parts m{};
  m.tables = quarter(h) + quarter(n - h);
  // Four lists (both quarters of both halves), sized exactly: 12 bytes a
  // placement of the largest column set, and 2^h offsets; 16 more for the
  // search's scratch records (grown by doubling, so up to 32) unless compact.
  const double largest = largest_quarter_list(h, n - h);
  m.compact_lists_per_thread = 4 * (bytes_per_placement * largest + 4.0 * std::ldexp(1.0, h));
  m.lists_per_thread = m.compact_lists_per_thread + 4 * 32.0 * largest;
  // Per thread: the two groups of one subproblem (grown with join slack),
  // the pair counter's sorted and bit-sliced copies of the south group and
  // its per-north entries, and room to reorder a group's runs (run_sorter):
  // about 128 bytes per half board of the largest
  // group, which is about 3 times the average (measured 2.7 at n = 18).
  const double sets = static_cast<double>(binomial(n, h));
  m.largest_group = largest_group_halves(n);
  m.groups_per_thread = bytes_per_half * m.largest_group + 1e6;
  // Odd n: the joins' copies of one row set's placements of each quarter, less
  // those they skip (quarter_skip).
  if (n % 2 != 0) m.groups_per_thread += 2 * bytes_per_placement * largest_row_set_group(h, n - h);
  // Odd n with the tables: each group's east quarter filtered for the middle
  // queen, kept from one subproblem to the next (keep_east), in buffers of
  // the whole quarter of one column set (the filter writes whole vectors).
  if (n % 2 != 0) m.kept_east_per_thread = 2 * (bytes_per_placement * largest + 4.0 * (std::ldexp(1.0, h) + 1));
  // The plan: about C(n, h)/4 classes for even n, n C(n-1, h)/4 = (h + 1)
  // C(n, h)/4 for odd n (970 288 at n = 21). The context lists each task of
  // a plan up to listed_plan_size (8 bytes); the ranked classes' block
  // table is 32 bytes per 1024 sets. (The run's own lists are priced by
  // run_lists_estimate, for the plan it really has.)
  const double subproblems = (n % 2 == 0 ? sets : (n - h) * sets) / 4.0;
  m.plan = (subproblems <= static_cast<double>(listed_plan_size) ? sizeof(quadrant_task) * subproblems : 0.0) +
           32.0 * (n % 2 == 0 ? sets : (n - h) * sets) / 1024;
  return m;
}

// 10% and 8 MiB of margin: measured 206 MiB at n = 20 on 2 threads (the
// whole process) against 192 MiB without it.
constexpr double margin_factor = 1.1, margin_bytes = 8.0 * 1024 * 1024;
std::uint64_t with_margin(double bytes) noexcept {
  const double total = margin_factor * bytes + margin_bytes;
  return total >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(total);
}

// What is left of `bytes` once with_margin's margin is taken out.
double without_margin(double bytes) noexcept { return (bytes - margin_bytes) / margin_factor; }

}  // namespace

quadrant_layout quadrant_layout_for(int n, int threads, std::uint64_t max_memory) noexcept {
  max_memory = memory_limit_or_default(max_memory);
  const memory_parts m = quadrant_memory_parts(n);
  const double t = std::max(threads, 1);
  // The pair counter takes groups of fewer than 2^31 halves: a larger one
  // (beyond n = 28, or a column set far above the estimate) is sliced.
  constexpr std::size_t pair_counter_limit = (std::size_t{1} << 31) - (std::size_t{1} << 20);
  quadrant_layout layout;
  layout.bytes = with_margin(m.tables + m.plan + t * (m.groups_per_thread + m.kept_east_per_thread));
  if (layout.bytes <= max_memory) return layout;
  layout.tables = false;
  layout.max_group = pair_counter_limit;
  layout.bytes = with_margin(m.plan + t * (m.lists_per_thread + m.groups_per_thread));
  if (layout.bytes <= max_memory && m.largest_group < pair_counter_limit) return layout;
  // Slices, with compact lists: each thread gets an equal share of what is
  // left, for its lists and its groups' pieces (group_capacity), enough at
  // least for the largest column sets' lists beside the fewest halves.
  layout.compact_lists = true;
  const double fewest = largest_row_set_group(n / 2, n - n / 2) + 4096;
  const double least = m.compact_lists_per_thread + bytes_per_piece_half * fewest + small_buffers;
  const double share = (without_margin(static_cast<double>(max_memory)) - m.plan) / t;
  const double thread_bytes = std::max(std::floor(share), least);
  layout.fewest_halves = static_cast<std::size_t>(fewest);
  layout.thread_bytes = thread_bytes >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(thread_bytes);
  layout.max_group = pair_counter_limit;
  layout.bytes = with_margin(m.plan + t * thread_bytes);
  return layout;
}

std::size_t group_capacity(const quadrant_layout& layout, std::uint64_t list_bytes) noexcept {
  const double left = static_cast<double>(layout.thread_bytes) - static_cast<double>(list_bytes) - small_buffers;
  const double halves = std::floor(left / bytes_per_piece_half);
  return static_cast<std::size_t>(
      std::clamp(halves, static_cast<double>(layout.fewest_halves), static_cast<double>(layout.max_group)));
}

piece_budget piece_budget_for(std::size_t capacity) noexcept {
  const auto part = [capacity](double per_half) {
    return static_cast<std::size_t>(per_half) * capacity + piece_buffer_slack;
  };
  return {.group_bytes = part(group_bytes_per_half),
          .entry_bytes = part(entry_bytes_per_half),
          .blocked_bytes = part(blocked_bytes_per_half),
          .row_bytes = part(row_bytes_per_half)};
}

std::uint64_t quarter_tables_bytes(int n) noexcept {
  const double bytes = quadrant_memory_parts(n).tables;
  return bytes >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(bytes);
}

std::uint64_t quarter_lists_bytes(int n, bool compact) noexcept {
  const memory_parts m = quadrant_memory_parts(n);
  const double bytes = compact ? m.compact_lists_per_thread : m.lists_per_thread;
  return bytes >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(bytes);
}

std::uint64_t quadrant_memory_bytes(int n, int threads, std::uint64_t max_memory) noexcept {
  return quadrant_layout_for(n, threads, max_memory).bytes;
}

}  // namespace nqueens::detail
