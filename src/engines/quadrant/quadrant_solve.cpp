#include "engines/quadrant/quadrant_solve.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "engines/checked_count.hpp"
#include "engines/join_model/column_classes.hpp"
#include "engines/join_model/exact_growth.hpp"
#include "engines/join_model/filter_rule.hpp"
#include "engines/join_model/half_masks.hpp"
#include "engines/quadrant/group_pieces.hpp"
#include "kernels/bits.hpp"
#include "nqueens/cancelled.hpp"

namespace nqueens::detail {

namespace {

// The south halves of a subproblem are north halves of the other columns,
// turned: upside down for even n (south_mask, which their joins apply:
// south_turn); for odd n the middle queen's column is neither half's, both
// halves' diagonals must miss it, and a north half serves as a south half
// turned upside down with its left and right masks swapped (a rotation by
// 32). Turns out[0..count) in place for odd n and returns how many are kept
// (their runs with them). Where the joins had a `skip`, it dropped every
// quarter that meets the middle queen, so no half does: turned only (this
// and the same step in keep_north made Q(19) 7% faster).
std::size_t turn_south(int middle, const quarter_skip* skip, std::uint64_t* out, std::size_t count,
                       std::vector<row_run>* runs = nullptr) noexcept {
  if (middle < 0) return count;  // turned by the join
  if (skip != nullptr) {
    for (std::size_t i = 0; i < count; ++i) out[i] = odd_south_mask(out[i]);
    return count;
  }
  const std::uint64_t queen = middle_queen_mask(middle);
  return keep_halves(out, count, runs, [queen](std::uint64_t& mask) {
    mask = odd_south_mask(mask);
    return (mask & queen) == 0;
  });
}

// What the joins of a south group turn (join's `turn`): even n, all of it.
std::uint32_t south_turn(int n) noexcept { return n % 2 == 0 ? low_bits(n) : 0; }

// Keeps the north halves whose diagonals miss the middle queen (odd n):
// all of them where the joins' `skip` dropped the quarters that meet it.
std::size_t keep_north(int middle, const quarter_skip* skip, std::uint64_t* out, std::size_t count,
                       std::vector<row_run>* runs = nullptr) noexcept {
  if (middle < 0 || skip != nullptr) return count;
  const std::uint64_t queen = middle_queen_mask(middle);
  return keep_halves(out, count, runs, [queen](const std::uint64_t& mask) { return (mask & queen) == 0; });
}

// Upper bound of the halves a join from `at` makes: every west-east pair of
// the row sets it visits.
std::size_t joined_at_most(const quarter_view& west, const quarter_view& east, int h, join_cursor at) noexcept {
  const std::uint32_t all_rows = low_bits(h);
  std::size_t most = 0;
  for (; !at.done; next_rows(at, h)) most += west.masks_on(at.rows).size() * east.masks_on(all_rows & ~at.rows).size();
  return most;
}

// How many halves the joins from `at` make (before any skip): a group's
// size, known before it is built, and the same for any memory bound. Tests
// signature pairs only: at n = 28 a small share of the join, whose cost is
// writing the halves.
std::size_t joined_count(const quarter_view& west, const quarter_view& east, int h, join_cursor at) noexcept {
  const std::uint32_t all_rows = low_bits(h);
  std::size_t count = 0;
  for (; !at.done; next_rows(at, h)) {
    const std::span<const std::uint32_t> inner = east.signatures_on(all_rows & ~at.rows);
    for (const std::uint32_t sig : west.signatures_on(at.rows)) {
      std::size_t fitting = 0;
      for (const std::uint32_t other : inner) fitting += signatures_fit(sig, other) ? 1 : 0;
      count += fitting;
    }
  }
  return count;
}

// Where the joins of a group of `queens` west rows (of h) start: under the
// row window they skip the sets whose rank_rows lies outside [c, ~c].
join_cursor first_rows(const filter_rule& rule, int h, int queens) noexcept {
  return ranks_rows(rule) ? cursor_from(h, queens, true, rule.c, rule.c_bar) : cursor_from(h, queens);
}

// Whether the groups are built with their runs by row set.
bool with_runs(const filter_rule& rule) noexcept { return rule.kind != filter_rule::every_pair; }

// Odd n: sets which quarter placements the joins of each group skip
// (quarter_skip) and returns them, north then south; even n: none.
std::array<quarter_skip*, 2> quarter_skips(const filter_rule& rule, int middle, quadrant_scratch& scratch) noexcept {
  if (middle < 0 || rule.kind == filter_rule::every_pair) return {nullptr, nullptr};
  scratch.north_skip.rule = quarter_skip_rule_of(rule, middle, 0);
  scratch.south_skip.rule = quarter_skip_rule_of(rule, middle, 1);
  scratch.north_skip.east_whole = scratch.south_skip.east_whole = {};
  return {&scratch.north_skip, &scratch.south_skip};
}

// A north group (or a slice or piece of one), `count` halves
// whose diagonals miss the middle queen (keep_north), as the rule counts
// it: partitioned where the north holds the middle column's queen; returns
// how many are kept. A plan's slices are taken (keep_slice) from the group
// before this partition, so that a group built whole and one built in
// pieces (another memory bound: another shard, rank or resumed run) give
// each slice the same halves; a south group's slices before settle_south.
std::size_t partition_north(const filter_rule& rule, std::uint64_t* list, std::size_t count,
                            std::vector<row_run>* runs) noexcept {
  if (rule.kind == filter_rule::column_h && rule.holder == 0) {
    count = partition_by_column_h(list, *runs, north_row_tag_shift, rule);
  }
  return count;
}

// Keeps the halves of slice `slice` of `slices` (class_slicing.hpp) of
// out[0..count), a piece of a group whose first half is the group's `first`:
// those at the group's positions slice, slice + slices, ...; their runs
// follow.
std::size_t keep_slice(std::uint64_t* out, std::size_t count, std::vector<row_run>* runs, std::size_t first,
                       unsigned slice, unsigned slices) noexcept {
  if (slices == 1) return count;
  std::size_t at = first % slices;  // the position's residue, stepped along in keep_halves' order
  return keep_halves(out, count, runs, [&at, slice, slices](const std::uint64_t&) {
    const bool mine = at == slice;
    at = at + 1 == slices ? 0 : at + 1;
    return mine;
  });
}

// A south group (or piece) as the rule counts it: turned (turn_south, odd n), then
// partitioned where the south holds the middle column's queen.
std::size_t settle_south(const filter_rule& rule, int middle, const quarter_skip* skip, std::uint64_t* list,
                         std::size_t count, std::vector<row_run>* runs) noexcept {
  count = turn_south(middle, skip, list, count, runs);
  if (rule.kind == filter_rule::column_h && rule.holder == 1) {
    count = partition_by_column_h(list, *runs, south_row_tag_shift, rule);
  }
  return count;
}

// The pairs of a north and a south group (or of slices of them), as the rule
// counts them; may set tag bits in both, and reorder both with their runs
// (order_runs).
std::uint64_t group_pairs(const filter_rule& rule, std::span<std::uint64_t> north, std::span<row_run> north_runs,
                          std::span<std::uint64_t> south, std::span<row_run> south_runs, tie_counting ties,
                          run_sorter& sorter, const pair_count& count) {
  switch (rule.kind) {
    case filter_rule::row_window:
      return transposed_pairs(north, north_runs, south, south_runs, rule, ties, sorter, count);
    case filter_rule::column_h:
      return rule.holder == 0 ? column_h_pairs(north, north_runs, south, south_runs, rule, ties, count)
                              : column_h_pairs(south, south_runs, north, north_runs, rule, ties, count);
    case filter_rule::every_pair:
      break;
  }
  return count(north, south);
}

// The next piece of slice `slice` of `slices` of a group (keep_slice), from
// `at` on, of the halves `filter` takes: joined piece by piece and kept to
// the slice and the filter until about `capacity` halves are kept, so that
// a piece is as full as a whole group (the pair count skips more of larger
// lists). `middle` >= 0 drops the halves whose diagonals meet the middle
// queen first (a north group); `first` counts the group's positions passed
// (the filter does not change them); `turn` is join's (a south group).
// Returns how many are kept in out[0..), their runs in `runs`.
std::size_t next_slice_piece(const quadrant_kernels& k, const quarter_view& west, const quarter_view& east, int h,
                             std::vector<std::uint64_t>& out, join_cursor& at, std::size_t capacity,
                             std::vector<row_run>* runs, quarter_skip* skip, int middle, std::size_t& first,
                             unsigned slice, unsigned slices, const piece_filter& filter,
                             std::vector<row_run>& tail_runs, std::uint32_t turn = 0) {
  std::size_t kept = 0;
  do {
    const std::size_t runs_before = runs != nullptr && kept > 0 ? runs->size() : 0;
    const std::size_t end = k.join_group(west, east, h, out, at, capacity, runs, skip, kept, turn);
    if (end == kept) break;  // full
    // The new halves out[kept..end) and their runs, as a list of their own.
    std::vector<row_run>* part_runs = nullptr;
    if (runs != nullptr) {
      tail_runs.clear();
      for (std::size_t r = runs_before; r < runs->size(); ++r)
        tail_runs.push_back({(*runs)[r].rows, (*runs)[r].end - kept});
      runs->resize(runs_before);
      part_runs = &tail_runs;
    }
    std::size_t count = keep_north(middle, skip, out.data() + kept, end - kept, part_runs);
    std::size_t mine = keep_slice(out.data() + kept, count, part_runs, first, slice, slices);
    first += count;
    if (filter.cuts()) {
      mine = keep_halves(out.data() + kept, mine, part_runs,
                         [&filter](const std::uint64_t& m) { return filter.takes(m); });
    }
    if (runs != nullptr) {
      for (const row_run& r : tail_runs) {
        if (!runs->empty() && runs->back().rows == r.rows) {
          runs->back().end = kept + r.end;  // a row set the last part left unfinished
        } else {
          runs->push_back({r.rows, kept + r.end});
        }
      }
    }
    kept += mine;
  } while (!at.done && (slices > 1 || filter.cuts()));
  return kept;
}

// One group of a subproblem counted in pieces: its quarters, where its joins
// start, and how its pieces are taken and settled for the count.
struct group_side {
  quarter_view west, east;
  join_cursor start;
  std::vector<std::uint64_t>* out;
  std::vector<row_run>* runs;
  quarter_skip* skip;
  int middle;          // the north's (keep_north), -1 for the south
  std::uint32_t turn;  // join's
  bool turned;         // odd n's south: its masks are turned once joined (settle_south)
  unsigned slices;     // the plan's slices of this group (1: not sliced)
};

// Samples `samples` (emptied first) with every step-th half of a group, as
// the count sees it, joined into the side's buffer a capacity at a time.
void sample_group(const quadrant_kernels& k, const group_side& g, int h, std::size_t capacity, std::size_t step,
                  std::vector<std::uint64_t>& samples, const std::atomic<bool>* cancel) {
  samples.clear();
  join_cursor at = g.start;
  std::size_t next = 0;  // the next sample's position in the group
  std::size_t passed = 0;
  while (!at.done) {
    stop_if_cancelled(cancel);  // a whole group's joins: a second at n = 28
    const std::size_t end = k.join_group(g.west, g.east, h, *g.out, at, capacity, nullptr, g.skip, 0, g.turn);
    for (; next < passed + end; next += step) {
      const std::uint64_t mask = (*g.out)[next - passed];
      samples.push_back(g.turned ? odd_south_mask(mask) : mask);
    }
    passed += end;
  }
}

// A subproblem whose groups would pass the thread's share: the larger group
// (outer) is built a piece at a time, cut by shared bits (group_pieces.hpp),
// and each of its pieces meets the inner group's halves that can pair with
// it, themselves in pieces, built again for each outer piece: slower, in
// bounded memory. Counts the plan's slice s.slice of `slices` of the south
// group (`slice_south`) or of the north one.
std::uint64_t solve_in_slices(const quadrant_kernels& k, const quarter_source& source, const quadrant_task& s,
                              std::size_t capacity, unsigned slices, bool slice_south,
                              const std::array<quarter_view, 2>& north_quarters, int north_queens,
                              const std::array<quarter_view, 2>& south_quarters, int south_queens,
                              quadrant_scratch& scratch) {
  const int n = source.board_size();
  const int h = n / 2;
  const int middle = static_cast<int>(s.middle);
  const filter_rule rule = filter_rule_of(n, s.north, s.middle);
  const auto [north_skip, south_skip] = quarter_skips(rule, middle, scratch);
  reserve_exactly(scratch.north, capacity + join_slack);  // exactly: the bound is the point
  reserve_exactly(scratch.south, capacity + join_slack);
  reserve_exactly(scratch.sorter.halves, capacity + join_slack);
  group_side north{north_quarters[0],
                   north_quarters[1],
                   first_rows(rule, h, north_queens),
                   &scratch.north,
                   with_runs(rule) ? &scratch.north_runs : nullptr,
                   north_skip,
                   middle,
                   0,
                   false,
                   slice_south ? 1 : slices};
  group_side south{south_quarters[0],
                   south_quarters[1],
                   first_rows(rule, h, south_queens),
                   &scratch.south,
                   with_runs(rule) ? &scratch.south_runs : nullptr,
                   south_skip,
                   -1,
                   south_turn(n),
                   middle >= 0,
                   slice_south ? slices : 1};
  // The outer group: the larger, cut by the bits chosen from samples of both.
  stop_if_cancelled(scratch.pairs.cancel);  // each count below scans a whole group's joins
  const double north_halves = static_cast<double>(joined_count(north.west, north.east, h, north.start));
  const double south_halves = static_cast<double>(joined_count(south.west, south.east, h, south.start));
  const bool outer_is_south = south_halves >= north_halves;
  group_side& outer = outer_is_south ? south : north;
  group_side& inner = outer_is_south ? north : south;
  const double outer_halves = outer_is_south ? south_halves : north_halves;
  const double inner_halves = outer_is_south ? north_halves : south_halves;
  constexpr std::size_t samples_per_group = 4096;
  const auto step = [](double halves) {
    return std::max<std::size_t>(1, static_cast<std::size_t>(halves / samples_per_group));
  };
  sample_group(k, outer, h, capacity, step(outer_halves), scratch.outer_samples, scratch.pairs.cancel);
  sample_group(k, inner, h, capacity, step(inner_halves), scratch.inner_samples, scratch.pairs.cancel);
  // Pieces filled to 90% of the estimate: the samples' shares are estimates.
  const double fill = 0.9 * static_cast<double>(capacity);
  const std::uint64_t bits = choose_piece_bits(scratch.outer_samples, scratch.inner_samples, outer_halves, fill);
  const int cut = std::popcount(bits);
  const std::array<double, 64> outer_sizes = pattern_sizes(scratch.outer_samples, bits, outer_halves);
  const std::array<double, 64> inner_sizes = pattern_sizes(scratch.inner_samples, bits, inner_halves);
  const std::uint64_t every_pattern = cut == max_piece_bits ? ~std::uint64_t{0} : (std::uint64_t{1} << (1 << cut)) - 1;

  // Builds the next piece of `g` that `filter` takes from `at`, as the
  // count takes it: settled (the south) or partitioned (the north).
  const auto next_piece = [&](group_side& g, join_cursor& at, std::size_t& first, const piece_filter& filter) {
    const bool is_south = &g == &south;
    const std::size_t count = next_slice_piece(k, g.west, g.east, h, *g.out, at, capacity, g.runs, g.skip, g.middle,
                                               first, s.slice, g.slices, filter, scratch.tail_runs, g.turn);
    return is_south ? settle_south(rule, middle, g.skip, g.out->data(), count, g.runs)
                    : partition_north(rule, g.out->data(), count, g.runs);
  };
  std::uint64_t pairs = 0;
  for (int outer_from = 0; outer_from < (1 << cut);) {
    const piece_filter outer_filter{bits, next_patterns(outer_sizes, every_pattern, cut, outer_from, fill),
                                    outer.turned};
    const std::uint64_t pairing = pairing_patterns(outer_filter.patterns(), cut);
    join_cursor outer_at = outer.start;
    std::size_t outer_first = 0;
    while (!outer_at.done) {
      stop_if_cancelled(scratch.pairs.cancel);
      const std::size_t outer_count = next_piece(outer, outer_at, outer_first, outer_filter);
      if (outer_count == 0) continue;
      for (int inner_from = 0; inner_from < (1 << cut);) {
        const piece_filter inner_filter{bits, next_patterns(inner_sizes, pairing, cut, inner_from, fill), inner.turned};
        if (inner_filter.patterns() == 0) break;
        join_cursor inner_at = inner.start;
        std::size_t inner_first = 0;
        while (!inner_at.done) {
          stop_if_cancelled(scratch.pairs.cancel);  // pieces are rebuilt per outer piece: seconds at n = 28
          const std::size_t inner_count = next_piece(inner, inner_at, inner_first, inner_filter);
          if (inner_count == 0) continue;
          const std::size_t north_count = outer_is_south ? inner_count : outer_count;
          const std::size_t south_count = outer_is_south ? outer_count : inner_count;
          pairs = checked_sum(
              pairs, group_pairs(rule, std::span<std::uint64_t>(scratch.north.data(), north_count), scratch.north_runs,
                                 std::span<std::uint64_t>(scratch.south.data(), south_count), scratch.south_runs,
                                 scratch.ties, scratch.sorter, {k, scratch.pairs}));
        }
      }
    }
  }
  return checked_product(pairs, s.weight);
}

}  // namespace

void quadrant_scratch::keep_within(const piece_budget& budget) noexcept {
  release_beyond(north, budget.group_bytes);
  release_beyond(south, budget.group_bytes);
  release_beyond(sorter.halves, budget.group_bytes);
  release_beyond(pairs.entries, budget.entry_bytes);
  release_beyond(pairs.south_sorted, budget.blocked_bytes);
  release_beyond(pairs.rows, budget.row_bytes);
}

std::size_t north_halves(const quadrant_kernels& k, const quarter_view& west, const quarter_view& east, int h,
                         int west_queens, std::vector<std::uint64_t>& out) {
  join_cursor at = cursor_from(h, west_queens);  // row sets of west_queens rows, in increasing order
  return k.join_group(west, east, h, out, at, SIZE_MAX, nullptr, nullptr, 0, 0);
}

std::uint64_t solve_task(const quadrant_kernels& kernels, const quarter_source& quarters, const quadrant_task& task,
                         const class_slicing& slicing, quadrant_scratch& scratch) {
  const quadrant_kernels& k = kernels;
  const quarter_source& source = quarters;
  const quadrant_task& s = task;
  const int n = source.board_size();
  const int h = n / 2;
  const int middle = static_cast<int>(s.middle);
  const std::uint32_t south_columns = south_columns_of(n, s.north, middle);
  // A bounded run first makes room for the quarter lists it is about to
  // build and for the pieces they leave room for: each group buffer an
  // earlier subproblem left larger than its part of those pieces is let go
  // (a sorted copy kept large from one subproblem beside entries grown large
  // in the next could pass the share).
  if (source.thread_bytes() != 0) {
    const std::uint64_t lists =
        source.bytes_to_build(s.north, scratch.west, scratch.east, scratch.pairs.cancel) +
        source.bytes_to_build(south_columns, scratch.south_west, scratch.south_east, scratch.pairs.cancel);
    scratch.keep_within(piece_budget_for(source.max_group(lists)));
  }
  // A run without tables builds the quarters here: seconds at n = 28.
  const std::array<quarter_view, 2> north_quarters =
      source.quarters(s.north, scratch.west, scratch.east, scratch.pairs.cancel);
  const std::array<quarter_view, 2> south_quarters =
      source.quarters(south_columns, scratch.south_west, scratch.south_east, scratch.pairs.cancel);
  const int north_queens = west_queens_of(s.north, h);
  const int south_queens = west_queens_of(south_columns, h);
  const filter_rule rule = filter_rule_of(n, s.north, s.middle);
  // The groups' bounds (only the row sets the filter keeps are joined), for
  // slices by size and for the memory bound.
  std::size_t north_most = 0, south_most = 0;
  if (slicing.by_size() || slicing.slices > 1 || source.bounded()) {
    north_most = joined_at_most(north_quarters[0], north_quarters[1], h, first_rows(rule, h, north_queens));
    south_most = joined_at_most(south_quarters[0], south_quarters[1], h, first_rows(rule, h, south_queens));
  }
  const int used = slicing.slices_used(static_cast<double>(north_most) * static_cast<double>(south_most));
  if (s.slice >= used) return 0;  // a slot its class's size leaves empty
  const auto slices = static_cast<unsigned>(used);
  // Which group is sliced (class_slicing.hpp), from their sizes.
  const bool slice_south =
      slices > 1 &&
      slicing.slices_south(
          static_cast<double>(joined_count(north_quarters[0], north_quarters[1], h, first_rows(rule, h, north_queens))),
          static_cast<double>(
              joined_count(south_quarters[0], south_quarters[1], h, first_rows(rule, h, south_queens))));
  // Bounded memory: groups that would not fit at once are counted in
  // pieces, as large as the quarter lists leave room for.
  const std::size_t capacity = source.max_group(scratch.west.bytes() + scratch.east.bytes() +
                                                scratch.south_west.bytes() + scratch.south_east.bytes());
  if (source.bounded() && (north_most > capacity || south_most > capacity)) {
    return solve_in_slices(k, source, s, capacity, slices, slice_south, north_quarters, north_queens, south_quarters,
                           south_queens, scratch);
  }
  if (source.thread_bytes() != 0) {  // grown once, exactly, within the capacity (the join's own growth may double)
    reserve_exactly(scratch.north, north_most + join_slack);
    reserve_exactly(scratch.south, south_most + join_slack);
  }
  std::vector<row_run>* const north_runs = with_runs(rule) ? &scratch.north_runs : nullptr;
  std::vector<row_run>* const south_runs = with_runs(rule) ? &scratch.south_runs : nullptr;
  const auto [north_skip, south_skip] = quarter_skips(rule, middle, scratch);
  // With the tables, each group's east quarter is filtered once for the
  // subproblems that share it (keep_east).
  quarter_view north_east = north_quarters[1], south_east = south_quarters[1];
  if (north_skip != nullptr && source.has_tables()) {
    north_east = k.keep_east(north_east, east_contents(n, s.north), h, *north_skip);
    south_east = k.keep_east(south_east, east_contents(n, south_columns), h, *south_skip);
    north_skip->east_whole = north_quarters[1];
    south_skip->east_whole = south_quarters[1];
  }
  join_cursor north_at = first_rows(rule, h, north_queens);
  std::size_t north_count =
      k.join_group(north_quarters[0], north_east, h, scratch.north, north_at, SIZE_MAX, north_runs, north_skip, 0, 0);
  north_count = keep_north(middle, north_skip, scratch.north.data(), north_count, north_runs);
  north_count = keep_slice(scratch.north.data(), north_count, north_runs, 0, s.slice, slice_south ? 1 : slices);
  join_cursor south_at = first_rows(rule, h, south_queens);
  std::size_t south_count = k.join_group(south_quarters[0], south_east, h, scratch.south, south_at, SIZE_MAX,
                                         south_runs, south_skip, 0, south_turn(n));
  south_count = keep_slice(scratch.south.data(), south_count, south_runs, 0, s.slice, slice_south ? slices : 1);
  south_count = settle_south(rule, middle, south_skip, scratch.south.data(), south_count, south_runs);
  const std::size_t kept = partition_north(rule, scratch.north.data(), north_count, north_runs);
  const std::uint64_t pairs =
      group_pairs(rule, std::span<std::uint64_t>(scratch.north.data(), kept), scratch.north_runs,
                  std::span<std::uint64_t>(scratch.south.data(), south_count), scratch.south_runs, scratch.ties,
                  scratch.sorter, {k, scratch.pairs});
  return checked_product(pairs, s.weight);
}

}  // namespace nqueens::detail
