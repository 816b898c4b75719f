#pragma once

// What the engines that search row by row share (mirror, symmetric): a plan
// of partial placements whose first rows are fixed, split row by row until
// there are enough, and a context that counts each one's completions with the
// backtracking search. An engine of this kind states only its rules.

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engines/engine_definition.hpp"
#include "kernels/search.hpp"
#include "nqueens/board.hpp"
#include "nqueens/engine.hpp"

namespace nqueens::detail {

/// Marks a row with no queen in row_prefix::columns.
inline constexpr std::uint8_t no_queen = 0xFF;

/// A partial placement whose completions one subproblem counts.
struct row_prefix {
  /// Column of the queen in each row, or no_queen; rows >= n are no_queen.
  std::array<std::uint8_t, max_board_size> columns;
  /// How many solutions each completion stands for (symmetry images the plan
  /// leaves out), when the engine does not classify at the leaf.
  std::uint8_t weight = 1;
  /// Non-zero when the engine classifies each completion at the leaf.
  std::uint8_t classify = 0;

  row_prefix() { columns.fill(no_queen); }
  bool has_queen(int row) const noexcept { return columns[static_cast<std::size_t>(row)] != no_queen; }
  friend bool operator==(const row_prefix&, const row_prefix&) = default;
};

/// The rules of one row-by-row engine.
class row_rules {
 public:
  virtual ~row_rules() = default;
  /// The subproblems before any split, in plan order.
  virtual std::vector<row_prefix> roots(int n) const = 0;
  /// Columns the engine allows in `row` below `s`, in planning and search.
  virtual std::uint32_t allowed_columns(int n, const row_prefix& s, int row) const noexcept = 0;
  /// Planning only: which of `candidates` (the free columns of `row`) become
  /// children when `row` is fixed below `s`.
  virtual std::uint32_t split_filter(int n, const row_prefix& s, int row, std::uint32_t candidates) const noexcept;
  /// Adjusts a finished plan whose first `depth` rows are fixed.
  virtual void finish(int n, int depth, std::vector<row_prefix>& plan) const;
  /// The counts of one subproblem, searched with `search` from `start`.
  virtual subproblem_count solve(int n, const row_prefix& s, const search_start& start,
                                 const search_kernels& search) const = 0;
};

/// The plan of a row-by-row engine (see engine_plan). Throws
/// std::invalid_argument for a split giving too many subproblems,
/// memory_limit_error once its list passes `max_bytes` (0: no bound),
/// run_cancelled once `*cancel` is set (null: never).
/// Precondition: 0 <= split_depth <= max_split_depth.
std::unique_ptr<engine_plan> make_row_plan(int n, int split_depth, std::size_t target_subproblems,
                                           const row_rules& rules, std::uint64_t max_bytes,
                                           const std::atomic<bool>* cancel);

/// make_row_plan for one engine's `Rules`, in the shape of
/// engine_definition::make_plan, so that a row engine's registry entry names
/// it directly.
template <const auto& Rules>
std::unique_ptr<engine_plan> make_row_plan_with(int n, int split_depth, std::size_t target_subproblems,
                                                std::uint64_t max_bytes, const std::atomic<bool>* cancel) {
  return make_row_plan(n, split_depth, target_subproblems, Rules, max_bytes, cancel);
}

/// Open rows above which a row context's search is split by its next row,
/// with a look at the cancel flag before each part.
inline constexpr int rows_between_cancel_looks = 14;

/// The context make_context builds for a row plan, its searches split while
/// more than `rows_between_looks` rows are open and a cancel flag is given
/// (tests split small boards to check that the parts add up).
/// Precondition: `p` came from make_row_plan.
std::unique_ptr<engine_context> make_row_context(const engine_plan& p, isa kernels,
                                                 int rows_between_looks = rows_between_cancel_looks);

/// The subproblems of a row plan, for the tests that check their prefixes.
/// Precondition: `p` came from make_row_plan.
const std::vector<row_prefix>& row_subproblems(const engine_plan& p) noexcept;

/// Search-tree nodes (queens placed) below every subproblem of a row plan:
/// the work measure the benchmarks report. Not for the hot path.
/// Precondition: `p` came from make_row_plan.
std::uint64_t row_plan_nodes(const engine_plan& p);

/// The counts of a subproblem that needs no leaf check: its completions times
/// its weight (std::overflow_error past 2^64), and as many classes when
/// `completions_are_classes` (each completion the one member of its class
/// that the plan reaches).
subproblem_count weighted_count(int n, const row_prefix& s, const search_start& start, const search_kernels& search,
                                bool completions_are_classes);

/// Where the search of subproblem `index` of `p` starts, when `p` is a row
/// plan; nullopt for another engine's plan (tests compare kernels with it).
std::optional<search_start> row_search_start(const engine_plan& p, std::size_t index);

/// Where the search of `s` starts. Precondition: `s` is non-attacking.
search_start prepare(int n, const row_rules& rules, const row_prefix& s) noexcept;

}  // namespace nqueens::detail
