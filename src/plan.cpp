#include "nqueens/plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "bits.hpp"
#include "fingerprint.hpp"
#include "kernel/backtrack.hpp"

namespace nqueens {
namespace {

// Bumped whenever the meaning of an index could change for the same options.
constexpr std::string_view plan_format = "nqueens-plan/1";

// Mirror plan, level by level. Row 0 takes the left half of the columns with
// weight 2 (each solution's mirror image starts in the right half). For odd n
// the middle column is its own mirror image, so there the mirror split moves to
// row 1: its queen cannot be in the middle column too, and the left half again
// stands for both halves. With a single fixed row that refinement is not
// available and the middle column counts once.
std::vector<subproblem> mirror_level_one(int n) {
  std::vector<subproblem> level;
  const int half = n / 2;
  for (int c = 0; c < half; ++c) {
    subproblem s;
    s.depth = 1;
    s.weight = 2;
    s.columns[0] = static_cast<std::uint8_t>(c);
    level.push_back(s);
  }
  if (n % 2 == 1) {
    subproblem s;
    s.depth = 1;
    s.weight = 2;  // reset to 1 below if the plan keeps a single row
    s.columns[0] = static_cast<std::uint8_t>(half);
    level.push_back(s);
  }
  return level;
}

// Extends every prefix by one row, keeping lexicographic order.
std::vector<subproblem> next_level(int n, const std::vector<subproblem>& level) {
  std::vector<subproblem> next;
  next.reserve(level.size() * static_cast<std::size_t>(n));
  const int middle = n / 2;
  for (const subproblem& s : level) {
    const auto prefix = std::span(s.columns).first(s.depth);
    const detail::board_state state = detail::place_prefix(n, prefix);
    std::uint32_t free = detail::low_bits(n) & ~(state.columns | state.left | state.right);
    // The refined middle split: row 1 below a middle queen uses the left half only.
    if (n % 2 == 1 && s.depth == 1 && s.columns[0] == middle) {
      free &= detail::low_bits(middle);
    }
    for (; free != 0; free = detail::clear_lowest_bit(free)) {
      subproblem child = s;
      child.columns[s.depth] = static_cast<std::uint8_t>(detail::column_of(free));
      child.depth = static_cast<std::uint8_t>(s.depth + 1);
      next.push_back(child);
    }
  }
  return next;
}

std::vector<subproblem> mirror_plan(int n, int depth_wanted, std::size_t target, int* depth_used) {
  const bool automatic = depth_wanted == 0;
  // Automatic splitting stops early on small boards: their whole search takes
  // microseconds, and a deep plan would cost more than it saves.
  const int max_depth = automatic ? std::clamp(n - 8, 1, max_split_depth) : std::min(depth_wanted, n);
  std::vector<subproblem> level = mirror_level_one(n);
  int depth = 1;
  while (depth < max_depth && (!automatic || level.size() < target)) {
    level = next_level(n, level);
    ++depth;
  }
  if (depth == 1 && n % 2 == 1) level.back().weight = 1;  // unrefined middle column
  *depth_used = depth;
  return level;
}

std::uint64_t fingerprint_of(int n, engine kind, const std::vector<subproblem>& subproblems) {
  detail::fnv1a hash;
  hash.add_text(plan_format);
  hash.add_u64(static_cast<std::uint64_t>(n));
  hash.add_text(to_string(kind));
  hash.add_u64(subproblems.size());
  for (const subproblem& s : subproblems) {
    hash.add_byte(s.depth);
    hash.add_byte(s.weight);
    for (int r = 0; r < s.depth; ++r) hash.add_byte(s.columns[static_cast<std::size_t>(r)]);
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
  switch (kind_) {
    case engine::mirror:
      subproblems_ = mirror_plan(n, options.split_depth, options.target_subproblems, &split_depth_);
      break;
  }
  // Prefixes that cannot take another row vanish while the plan is built; a
  // kept subproblem may still have no completions, and costs nothing to run.
  fingerprint_ = fingerprint_of(n, kind_, subproblems_);
}

}  // namespace nqueens
