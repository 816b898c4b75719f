#include "engines/row_engine.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "engines/checked_count.hpp"
#include "engines/fingerprint.hpp"
#include "kernels/bits.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/memory_limit.hpp"

namespace nqueens::detail {

std::uint32_t row_rules::split_filter(int, const row_prefix&, int, std::uint32_t candidates) const noexcept {
  return candidates;
}

void row_rules::finish(int, int, std::vector<row_prefix>&) const {}

namespace {

// Free columns of `row` below `s`: attacked by none of its queens and allowed by the rules.
std::uint32_t candidate_columns(int n, const row_rules& rules, const row_prefix& s, int row) noexcept {
  std::uint32_t attacked = 0;
  for (int r = 0; r < n; ++r) {
    if (r != row && s.has_queen(r)) attacked |= attacked_columns(n, r, s.columns[static_cast<std::size_t>(r)], row);
  }
  return rules.allowed_columns(n, s, row) & ~attacked;
}

// A larger plan is a mistake (an explicit split depth far too deep for n), not
// a useful run: refuse it before it exhausts memory.
constexpr std::size_t max_row_plan_size = std::size_t{1} << 22;

// "the plan of n = 17 at split depth 6", or, for `depth` 0, "the automatic
// plan of n = 17" (whose deepest split is no depth anyone asked for).
std::string plan_name(int n, int depth) {
  return depth == 0 ? "the automatic plan of n = " + std::to_string(n)
                    : "the plan of n = " + std::to_string(n) + " at split depth " + std::to_string(depth);
}

// The refusal of a plan of split depth `depth` (0: automatic) whose list,
// at depth `reached` on the way, passes `max_bytes` with `bytes`.
memory_limit_error plan_past_bound(int n, int depth, int reached, std::uint64_t bytes, std::uint64_t max_bytes) {
  const int decimals = digits_to_tell(bytes, max_bytes);
  using remedy = memory_limit_error::remedy;
  return memory_limit_error(
      plan_name(n, depth) + " takes " + format_bytes(bytes, decimals, byte_rounding::up) + " already" +
          (reached != depth ? " at depth " + std::to_string(reached) : std::string()) + ", more than the " +
          format_bytes(max_bytes, decimals) + " allowed (--max-memory)",
      {{remedy::shallower_split,
        depth == 0 && reached > 1 ? "a --split-depth under " + std::to_string(reached) : "a smaller --split-depth"},
       {remedy::more_memory, "raise --max-memory"}},
      depth != 0 ? depth : reached, /*at_least=*/depth == 0);
}

// Fixes row `row` in every subproblem that leaves it open, keeping the order:
// children replace their parent, in column order. `depth` is the split depth
// asked for (0: automatic), named when the plan grows too large on the way.
// A level of 2^22 prefixes takes a fraction of a second: the cancel flag is
// looked at every 2^16 of them. A level whose list passes `max_bytes` (0: no
// bound) is refused as it grows past it, not once whole: n = 28 at depth 5
// took 144 MB before refusing a bound of 16 MiB.
std::vector<row_prefix> split_row(int n, const row_rules& rules, const std::vector<row_prefix>& level, int row,
                                  int depth, std::uint64_t max_bytes, const std::atomic<bool>* cancel) {
  std::vector<row_prefix> next;
  std::size_t reserved = std::min(level.size() * 4, max_row_plan_size);
  if (max_bytes != 0) reserved = std::min<std::uint64_t>(reserved, max_bytes / sizeof(row_prefix));
  next.reserve(reserved);
  std::size_t seen = 0;
  for (const row_prefix& s : level) {
    if (++seen % 65536 == 0) throw_if_cancelled(cancel);
    if (s.has_queen(row)) {
      next.push_back(s);
      continue;
    }
    for (std::uint32_t free = rules.split_filter(n, s, row, candidate_columns(n, rules, s, row)); free != 0;
         free = clear_lowest_bit(free)) {
      row_prefix child = s;
      child.columns[static_cast<std::size_t>(row)] = static_cast<std::uint8_t>(column_of(free));
      if (max_bytes != 0 && next.size() == next.capacity()) {
        // Grown by hand, never past the bound: a doubling would reach twice it.
        const std::uint64_t need = (next.size() + 1) * sizeof(row_prefix);
        if (need > max_bytes) throw plan_past_bound(n, depth, row + 1, need, max_bytes);
        next.reserve(std::min<std::uint64_t>(2 * next.size() + 1, max_bytes / sizeof(row_prefix)));
      }
      next.push_back(child);
      if (next.size() > max_row_plan_size) {
        if (depth == 0) {
          throw std::invalid_argument(plan_name(n, depth) + " gives more than " + std::to_string(max_row_plan_size) +
                                      " subproblems at depth " + std::to_string(row + 1) +
                                      ": choose a --split-depth under " + std::to_string(row + 1));
        }
        const std::string already = row + 1 != depth ? " (depth " + std::to_string(row + 1) + " already does)" : "";
        throw std::invalid_argument("split depth " + std::to_string(depth) + " gives more than " +
                                    std::to_string(max_row_plan_size) + " subproblems for n = " + std::to_string(n) +
                                    already + ": choose a smaller --split-depth");
      }
    }
  }
  return next;
}

// Every field: a split search must add up to the whole one, whatever it counts.
subproblem_count checked_sum(const subproblem_count& a, const subproblem_count& b) {
  return {detail::checked_sum(a.total, b.total), detail::checked_sum(a.unique, b.unique),
          detail::checked_sum(a.symmetric_180, b.symmetric_180), detail::checked_sum(a.symmetric_90, b.symmetric_90)};
}

// Counts each subproblem with the search; splits a search that leaves more
// than `rows_between_looks` rows open by its next rows and looks at the
// cancel flag, if any, before each part. 14 open rows take milliseconds
// (Q(16)'s whole search, 14 rows below two fixed ones, about 0.1 s), where
// 16 took up to 0.7 s of a thread at n = 17 (split depth 1) and n = 19 at
// split depth 1 leaves 17 or 18 and took up to 15 s a subproblem, which a
// stop had to wait for. The parts' counts are added with checked sums: a
// kernel's 64-bit tally then holds at most a 14-row search's (far below
// 2^64), where a whole subproblem of n = 32 at split depth 1 holds more
// than 2^64 solutions, so without a flag too.
class row_context final : public engine_context {
 public:
  row_context(int n, const row_rules& rules, const std::vector<row_prefix>& subproblems, isa kernels,
              int rows_between_looks)
      : n_(n),
        rules_(rules),
        subproblems_(subproblems),
        search_(search_kernels_for(kernels)),
        rows_between_looks_(rows_between_looks) {}

  subproblem_count solve(std::size_t index, const std::atomic<bool>* cancel) override {
    const row_prefix& s = subproblems_[index];
    const search_start start = prepare(n_, rules_, s);
    static const std::atomic<bool> never{false};
    return solve_looking(s, start, cancel != nullptr ? *cancel : never);
  }

 private:
  // The counts of `at`, below `s`: the search itself once at most
  // rows_between_looks rows are open, else the sum over the next row's
  // queens, the flag looked at before each search. A completion is counted
  // in the same subtree either way, so the sums are the search's.
  subproblem_count solve_looking(const row_prefix& s, const search_start& at, const std::atomic<bool>& cancel) const {
    const int row = at.state.row;
    if (n_ - row <= rows_between_looks_) {
      stop_if_cancelled(&cancel);
      return rules_.solve(n_, s, at, search_);
    }
    subproblem_count sum;
    search_start child = at;
    ++child.state.row;
    const board_state& from = at.state;
    for (std::uint32_t free = at.allowed[static_cast<std::size_t>(row)] & ~(from.columns | from.left | from.right);
         free != 0; free = clear_lowest_bit(free)) {
      const std::uint32_t bit = lowest_bit(free);
      child.state.columns = from.columns | bit;
      child.state.left = ((from.left | bit) << 1) & low_bits(n_);
      child.state.right = (from.right | bit) >> 1;
      child.queens[static_cast<std::size_t>(row)] = static_cast<std::uint8_t>(column_of(bit));
      sum = checked_sum(sum, solve_looking(s, child, cancel));
    }
    return sum;
  }

  int n_;
  const row_rules& rules_;
  const std::vector<row_prefix>& subproblems_;
  const search_kernels& search_;
  int rows_between_looks_;
};

class row_plan final : public engine_plan {
 public:
  row_plan(int n, int depth, std::vector<row_prefix> subproblems, const row_rules& rules)
      : n_(n), depth_(depth), subproblems_(std::move(subproblems)), rules_(rules) {}

  std::size_t size() const noexcept override { return subproblems_.size(); }
  int split_depth() const noexcept override { return depth_; }
  std::size_t bytes() const noexcept override { return subproblems_.capacity() * sizeof(row_prefix); }

  void add_to_fingerprint(fnv1a& hash, const std::atomic<bool>* cancel) const override {
    // At most 4 * 10^6 subproblems of ~40 bytes: a look per 2^16 of them.
    for (std::size_t k = 0; k < subproblems_.size(); ++k) {
      if (k % 65536 == 0) throw_if_cancelled(cancel);
      const row_prefix& s = subproblems_[k];
      for (int r = 0; r < n_; ++r) hash.add_byte(s.columns[static_cast<std::size_t>(r)]);
      hash.add_byte(s.weight);
      hash.add_byte(s.classify);
    }
  }

  // The number of ways to extend the subproblem by its next two open rows:
  // cheap (microseconds) and within a small factor of the real cost, which is
  // what a percentage and an ETA need.
  std::uint64_t estimated_work(std::size_t index) const override {
    const search_start start = prepare(n_, rules_, subproblems_[index]);
    const int row = start.state.row;
    if (row >= n_ - 1) return 1;
    std::uint64_t ways = 0;
    const auto& s = start.state;
    for (std::uint32_t free = start.allowed[static_cast<std::size_t>(row)] & ~(s.columns | s.left | s.right); free != 0;
         free = clear_lowest_bit(free)) {
      const std::uint32_t bit = lowest_bit(free);
      const std::uint32_t next = start.allowed[static_cast<std::size_t>(row) + 1] &
                                 ~((s.columns | bit) | ((s.left | bit) << 1) | ((s.right | bit) >> 1));
      ways += static_cast<std::uint64_t>(std::popcount(next));
    }
    return ways + 1;
  }

  std::unique_ptr<engine_context> make_context(isa kernels, int, std::uint64_t, const gpu_options&,
                                               const std::atomic<bool>*) const override {
    return make_context_splitting(kernels, rows_between_cancel_looks);
  }

  std::unique_ptr<engine_context> make_context_splitting(isa kernels, int rows_between_looks) const {
    return std::make_unique<row_context>(n_, rules_, subproblems_, kernels, rows_between_looks);
  }

  const std::vector<row_prefix>& subproblems() const noexcept { return subproblems_; }

  search_start start(std::size_t index) const { return prepare(n_, rules_, subproblems_[index]); }

  std::uint64_t nodes() const {
    std::uint64_t nodes = 0;
    for (const row_prefix& s : subproblems_) nodes += count_nodes(n_, prepare(n_, rules_, s));
    return nodes;
  }

 private:
  int n_;
  int depth_;
  std::vector<row_prefix> subproblems_;
  const row_rules& rules_;
};

}  // namespace

subproblem_count weighted_count(int n, const row_prefix& s, const search_start& start, const search_kernels& search,
                                bool completions_are_classes) {
  const std::uint64_t completions = search.count(n, start);
  return {checked_product(completions, std::uint64_t{s.weight}), completions_are_classes ? completions : 0};
}

search_start prepare(int n, const row_rules& rules, const row_prefix& s) noexcept {
  search_start start;
  start.queens = s.columns;
  int prefix = 0;
  while (prefix < n && s.has_queen(prefix)) ++prefix;
  start.state = place_prefix(n, std::span(s.columns).first(static_cast<std::size_t>(prefix)));
  // Queens below the prefix are not in the shifting masks: fold their
  // attacks into each row's allowed mask instead.
  std::array<int, max_board_size> pre_placed{};
  int count = 0;
  for (int r = prefix; r < n; ++r) {
    if (s.has_queen(r)) pre_placed[static_cast<std::size_t>(count++)] = r;
  }
  for (int row = prefix; row < n; ++row) {
    std::uint32_t allowed = rules.allowed_columns(n, s, row);
    for (int i = 0; i < count; ++i) {
      const int r = pre_placed[static_cast<std::size_t>(i)];
      const int c = s.columns[static_cast<std::size_t>(r)];
      allowed &= r == row ? std::uint32_t{1} << c : ~attacked_columns(n, r, c, row);
    }
    start.allowed[static_cast<std::size_t>(row)] = allowed;
  }
  return start;
}

std::unique_ptr<engine_plan> make_row_plan(int n, int split_depth, std::size_t target, const row_rules& rules,
                                           std::uint64_t max_bytes, const std::atomic<bool>* cancel) {
  const bool automatic = split_depth == 0;
  // Automatic splitting stops early on small boards: their whole search takes
  // microseconds, and a deep plan would cost more than it saves.
  const int max_depth = automatic ? std::clamp(n - 8, 1, max_split_depth) : std::min(split_depth, n);
  std::vector<row_prefix> level = rules.roots(n);
  int depth = 1;
  while (depth < max_depth && (!automatic || level.size() < target)) {
    // Row `depth` split, of `max_depth` (the names only look swapped).
    throw_if_cancelled(cancel);
    level =
        split_row(n, rules, level, depth, automatic ? 0 : max_depth,  // NOLINT(readability-suspicious-call-argument)
                  max_bytes, cancel);
    ++depth;
  }
  rules.finish(n, depth, level);
  // Prefixes that cannot take another row vanish while the plan is built; a
  // kept subproblem may still have no completions, and costs nothing to run.
  return std::make_unique<row_plan>(n, depth, std::move(level), rules);
}

std::optional<search_start> row_search_start(const engine_plan& p, std::size_t index) {
  const auto* row = dynamic_cast<const row_plan*>(&p);
  if (row == nullptr || index >= row->size()) return std::nullopt;
  return row->start(index);
}

std::unique_ptr<engine_context> make_row_context(const engine_plan& p, isa kernels, int rows_between_looks) {
  return static_cast<const row_plan&>(p).make_context_splitting(kernels, rows_between_looks);
}

std::uint64_t row_plan_nodes(const engine_plan& p) { return static_cast<const row_plan&>(p).nodes(); }

const std::vector<row_prefix>& row_subproblems(const engine_plan& p) noexcept {
  return static_cast<const row_plan&>(p).subproblems();
}

}  // namespace nqueens::detail
