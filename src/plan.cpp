#include "nqueens/plan.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>
#include <string>

#include "bits.hpp"
#include "fingerprint.hpp"
#include "kernel/backtrack.hpp"

namespace nqueens {

int subproblem::queens() const noexcept {
  return static_cast<int>(std::count_if(columns.begin(), columns.end(), [](std::uint8_t c) { return c != no_queen; }));
}

namespace {


// Bumped whenever the meaning of an index could change for the same options.
constexpr std::string_view plan_format = "nqueens-plan/3";

// ---- mirror engine --------------------------------------------------------
//
// Row 0 takes the left half of the columns with weight 2: each solution's
// mirror image starts in the right half. For odd n the middle column is its own
// mirror image, so below it the mirror split moves to row 1, whose queen cannot
// be in the middle column too: the left half again stands for both halves.
// With a single fixed row that refinement is unavailable and the middle column
// counts once.
std::vector<subproblem> mirror_roots(int n) {
  std::vector<subproblem> roots;
  for (int c = 0; c < (n + 1) / 2; ++c) {
    subproblem s;
    s.columns[0] = static_cast<std::uint8_t>(c);
    s.weight = 2;  // the middle column's weight is settled once the depth is known
    roots.push_back(s);
  }
  return roots;
}

bool is_refined_middle(int n, const subproblem& s) { return n % 2 == 1 && s.columns[0] == n / 2; }

// ---- symmetric engine -----------------------------------------------------
//
// One member of every class under the 8 board symmetries is searched (the
// method of Takaken's solver, see README). Every solution has exactly one queen
// in row 0, row n-1, column 0 and column n-1; each of these border queens has a
// distance to the two corners of its line, 8 "slots" that the symmetries
// permute without fixed points. A class has a member whose row-0 queen holds
// the smallest slot value t, measured from the left corner.
// - t = 0, a corner queen: a solution has at most one, so no symmetry fixes it
//   and its class has 8 members, of which two (a member and its transpose)
//   have the queen at (0, 0). Of the two, the one whose row-1 queen lies left
//   of the column-1 queen's row is kept: weight 8, no leaf check.
// - t >= 1: the other border queens keep distance >= t from every corner. When
//   no other slot equals t the member is unique and the class has 8; ties are
//   resolved at the leaf by comparing the images that also start at t.
// The bounds themselves are applied per row in kernel/backtrack.cpp.
std::vector<subproblem> symmetric_roots(int n) {
  std::vector<subproblem> roots;
  if (n == 1) {  // the lone queen is its own image under every symmetry
    subproblem s;
    s.columns[0] = 0;
    s.classify = 1;
    roots.push_back(s);
    return roots;
  }
  for (int c1 = 2; c1 < n; ++c1) {
    subproblem s;
    s.columns[0] = 0;
    s.columns[1] = static_cast<std::uint8_t>(c1);
    s.weight = 8;
    roots.push_back(s);
  }
  for (int t = 1; t <= (n - 1) / 2; ++t) {
    subproblem s;
    s.columns[0] = static_cast<std::uint8_t>(t);
    s.classify = 1;
    roots.push_back(s);
  }
  return roots;
}

// ---- shared ----------------------------------------------------------------

// A larger plan is a mistake (an explicit split depth far too deep for n), not
// a useful run: refuse it before it exhausts memory.
constexpr std::size_t max_plan_size = std::size_t{1} << 22;

// Fixes row `row` in every subproblem that leaves it open, keeping the order:
// children replace their parent, in column order.
std::vector<subproblem> split_row(int n, engine kind, const std::vector<subproblem>& level, int row) {
  std::vector<subproblem> next;
  next.reserve(std::min(level.size() * 4, max_plan_size));
  for (const subproblem& s : level) {
    if (s.has_queen(row)) {
      next.push_back(s);
      continue;
    }
    std::uint32_t free = detail::candidate_columns(n, kind, s, row);
    if (kind == engine::mirror && row == 1 && is_refined_middle(n, s)) free &= detail::low_bits(n / 2);
    for (; free != 0; free = detail::clear_lowest_bit(free)) {
      subproblem child = s;
      child.columns[static_cast<std::size_t>(row)] = static_cast<std::uint8_t>(detail::column_of(free));
      next.push_back(child);
      if (next.size() > max_plan_size) {
        throw std::invalid_argument("split depth " + std::to_string(row + 1) + " gives more than " +
                                    std::to_string(max_plan_size) + " subproblems for n = " + std::to_string(n) +
                                    ": choose a smaller --split-depth");
      }
    }
  }
  return next;
}

// ---- quadrant engine ------------------------------------------------------
//
// North half: rows 0..h-1, h = n/2; south half: the last h rows; for odd n
// the middle row between them holds one queen, fixed per subproblem. A
// subproblem stands for the solutions whose north half uses exactly the
// columns north_columns (and whose middle queen is the one given). The
// left-right mirror and the upside-down flip map such a set of solutions onto
// another with as many members (the flip swaps the halves: the north columns
// become the south's, the complement); one subproblem per class, weighted by
// the class size.

std::uint32_t mirror_columns(std::uint32_t set, int n) noexcept {
  std::uint32_t image = 0;
  for (int c = 0; c < n; ++c) {
    if ((set >> c) & 1U) image |= std::uint32_t{1} << (n - 1 - c);
  }
  return image;
}

// Calls visit(set) for every subset of `universe` with `size` members, in increasing order.
template <typename Visit>
void for_each_subset(std::uint32_t universe, int size, Visit&& visit) {
  // Gosper's hack over the ranks 0..popcount(universe)-1, mapped onto the universe.
  const int members = std::popcount(universe);
  if (size > members) return;
  std::array<int, 32> column{};
  int k = 0;
  for (int c = 0; c < 32; ++c) {
    if ((universe >> c) & 1U) column[static_cast<std::size_t>(k++)] = c;
  }
  std::uint64_t ranks = (std::uint64_t{1} << size) - 1;
  const std::uint64_t end = std::uint64_t{1} << members;
  while (ranks < end) {
    std::uint32_t set = 0;
    for (std::uint64_t bits = ranks; bits != 0; bits &= bits - 1) {
      set |= std::uint32_t{1} << column[static_cast<std::size_t>(std::countr_zero(bits))];
    }
    visit(set);
    if (ranks == 0) break;
    const std::uint64_t low = ranks & (0 - ranks);
    const std::uint64_t ripple = ranks + low;
    ranks = ripple | (((ranks ^ ripple) >> 2) / low);
  }
}

std::vector<subproblem> quadrant_tasks(int n, int slices) {
  const int half = n / 2;
  const std::uint32_t full = detail::low_bits(n);
  std::vector<subproblem> tasks;
  const auto add = [&](int middle, std::uint32_t north, std::uint8_t weight) {
    if (tasks.size() + static_cast<std::size_t>(slices) > max_plan_size) {
      throw std::invalid_argument("the quadrant plan for n = " + std::to_string(n) + " would exceed " +
                                  std::to_string(max_plan_size) + " subproblems: choose fewer slices");
    }
    for (int k = 0; k < slices; ++k) {
      subproblem s;
      if (middle >= 0) s.columns[static_cast<std::size_t>(half)] = static_cast<std::uint8_t>(middle);
      s.weight = weight;
      s.north_columns = north;
      s.slice = static_cast<std::uint8_t>(k);
      tasks.push_back(s);
    }
  };
  // (middle column, north set) pairs; -1: no middle row (even n).
  const auto consider = [&](int middle, std::uint32_t north) {
    const std::uint32_t rest = full & ~north & (middle >= 0 ? ~(std::uint32_t{1} << middle) : full);
    const int mirrored_middle = middle >= 0 ? n - 1 - middle : -1;
    std::array<std::pair<int, std::uint32_t>, 4> orbit = {{{middle, north},
                                                           {middle, rest},
                                                           {mirrored_middle, mirror_columns(north, n)},
                                                           {mirrored_middle, mirror_columns(rest, n)}}};
    std::sort(orbit.begin(), orbit.end());
    if (orbit[0] != std::pair{middle, north}) return;
    add(middle, north, static_cast<std::uint8_t>(std::unique(orbit.begin(), orbit.end()) - orbit.begin()));
  };
  if (n % 2 == 0) {
    for_each_subset(full, half, [&](std::uint32_t north) { consider(-1, north); });
  } else {
    for (int middle = 0; middle < n; ++middle) {
      for_each_subset(full & ~(std::uint32_t{1} << middle), half,
                      [&](std::uint32_t north) { consider(middle, north); });
    }
  }
  return tasks;
}

std::uint64_t fingerprint_of(int n, engine kind, int depth, const std::vector<subproblem>& subproblems) {
  detail::fnv1a hash;
  hash.add_text(plan_format);
  hash.add_u64(static_cast<std::uint64_t>(n));
  hash.add_text(to_string(kind));
  hash.add_u64(static_cast<std::uint64_t>(depth));
  hash.add_u64(subproblems.size());
  for (const subproblem& s : subproblems) {
    for (int r = 0; r < n; ++r) hash.add_byte(s.columns[static_cast<std::size_t>(r)]);
    hash.add_byte(s.weight);
    hash.add_byte(s.classify);
    if (kind == engine::quadrant) {  // (other engines' fingerprints stay as they were)
      hash.add_u64(s.north_columns);
      hash.add_byte(s.slice);
    }
  }
  return hash.value();
}

}  // namespace

plan::plan(int n, const plan_options& options) : n_(n), kind_(options.kind) {
  require_valid_board_size(n);
  if (options.split_depth < 0 || options.split_depth > max_split_depth) {
    throw std::invalid_argument("split depth " + std::to_string(options.split_depth) +
                                " is out of range: expected 0 (automatic) to " +
                                std::to_string(max_split_depth));
  }
  const bool automatic = options.split_depth == 0;
  const std::size_t target = options.target_subproblems != 0 ? options.target_subproblems : automatic_target(n);
  if (kind_ == engine::quadrant) {
    if (n > max_quadrant_board_size) {
      throw std::invalid_argument("the quadrant engine handles n up to " + std::to_string(max_quadrant_board_size) +
                                  ": its quarter-board tables grow about 9-fold per 2 rows (15 GiB at n = 24)");
    }
    // Slices only matter where there are few column sets (n < 14): every
    // slice builds both groups again (n = 16 took 0.43 s in 2 slices per
    // class against 0.25 s in one), so only enough for a few hundred tasks.
    int slices = options.split_depth;
    if (automatic) {
      constexpr std::size_t enough_tasks = 256;
      const std::size_t sets = quadrant_tasks(n, 1).size();
      slices = static_cast<int>(std::clamp<std::size_t>((enough_tasks + sets - 1) / sets, 1, max_split_depth));
    }
    split_depth_ = slices;
    subproblems_ = quadrant_tasks(n, slices);
    fingerprint_ = fingerprint_of(n, kind_, split_depth_, subproblems_);
    return;
  }
  // Automatic splitting stops early on small boards: their whole search takes
  // microseconds, and a deep plan would cost more than it saves.
  const int max_depth =
      automatic ? std::clamp(n - 8, 1, max_split_depth) : std::min(options.split_depth, n);

  std::vector<subproblem> level = kind_ == engine::mirror ? mirror_roots(n) : symmetric_roots(n);
  int depth = 1;
  while (depth < max_depth && (!automatic || level.size() < target)) {
    level = split_row(n, kind_, level, depth);
    ++depth;
  }
  if (kind_ == engine::mirror && depth == 1 && n % 2 == 1) level.back().weight = 1;  // unrefined middle
  // Prefixes that cannot take another row vanish while the plan is built; a
  // kept subproblem may still have no completions, and costs nothing to run.
  split_depth_ = depth;
  subproblems_ = std::move(level);
  fingerprint_ = fingerprint_of(n, kind_, split_depth_, subproblems_);
}

}  // namespace nqueens
