#pragma once

/// \file
/// Step 1 of plan -> execute -> reduce -> verify: a deterministic, ordered list
/// of indexed subproblems. Progress, checkpoints, shards and MPI address work
/// by subproblem index, so the same (n, engine, split depth) always yields the
/// same plan, with the same fingerprint, on every machine. What a subproblem
/// holds is the engine's business (src/engines/<name>/).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nqueens/board.hpp"
#include "nqueens/engine.hpp"

namespace nqueens {

namespace detail {
class engine_plan;
struct plan_access;
struct rotation_task;
}  // namespace detail

/// What a plan counts.
enum class plan_scope {
  /// Every solution (the engine's subproblems), then the solutions unchanged
  /// by a half or a quarter turn (a small extra search), from which the
  /// fundamental count follows for every engine (Burnside's lemma).
  all,
  /// Only the solutions unchanged by a half or a quarter turn (`nqueens rotational`).
  rotational,
};

/// How to build a plan.
struct plan_options {
  engine kind = default_engine;
  /// How finely to split: for the row-by-row engines the leading rows fixed in
  /// every subproblem (at most n: a deeper split is built as n, the same plan),
  /// for the quadrant and GPU engines the slices per class of
  /// column sets. 0 chooses automatically: the row-by-row engines aim at
  /// `target_subproblems`, fixing at most n - 8 rows (1 to 12); the quadrant and GPU engines take enough slices
  /// for about 256 subproblems where the classes are fewer, one otherwise
  /// (and the quadrant engine, from n = 28, slices by each class's size).
  int split_depth = 0;
  /// Subproblem count the automatic depth aims at (the row-by-row engines fix
  /// rows until their plan holds as many, or n - 8 rows are fixed: a smaller
  /// board's whole search takes microseconds): enough that work stealing
  /// keeps many threads busy to the end, few enough that bookkeeping is noise.
  /// 0 picks automatic_target(n).
  std::size_t target_subproblems = 0;
  plan_scope scope = plan_scope::all;
  /// Looked at while the plan is built (2 * 10^8 quadrant subproblems take
  /// seconds to fingerprint): once it is set, the constructor throws
  /// run_cancelled. Null: never. Not part of the plan.
  const std::atomic<bool>* cancel = nullptr;
  /// Bytes the plan's own list may take while it is built (0: no bound but
  /// its size cap): a row-by-row plan that passes it throws
  /// memory_limit_error at once. Not part of the plan.
  std::uint64_t max_memory = 0;
};

/// The subproblem count automatic splitting aims for on an n-board: 4096, and
/// 8192 from n = 18 on, where a run takes seconds, a finer split costs nothing
/// measurable, and the longest subproblem stays under 1/1000 of the work (so
/// the same plan keeps a 128-core machine busy; see `nqueens plan N --stats`).
constexpr std::size_t automatic_target(int n) noexcept { return n >= 18 ? 8192 : 4096; }

/// An immutable, ordered list of subproblems for one board size and engine.
/// Copies share the subproblems.
class plan {
 public:
  /// Builds the plan for board size `n`.
  /// Throws std::invalid_argument if `n` is outside 1..engine_max_board_size,
  /// `options.split_depth` is outside 0..max_split_depth, or the plan would
  /// be unreasonably large; run_cancelled once `options.cancel` is set.
  explicit plan(int n, const plan_options& options = {});
  /// A plan moved from is copied (two shared pointers): it stays the same
  /// whole plan, never one that names subproblems it no longer holds.
  plan(const plan&) = default;
  plan& operator=(const plan&) = default;
  ~plan() = default;

  int board_size() const noexcept { return n_; }
  engine kind() const noexcept { return kind_; }
  plan_scope scope() const noexcept { return scope_; }
  /// The split depth actually used (resolved when options asked for auto);
  /// 0 for a rotational plan.
  int split_depth() const noexcept;
  /// Subproblems in all: the engine's (indices 0..engine_subproblems()-1),
  /// then the rotation-symmetric search's.
  std::size_t size() const noexcept { return engine_size_ + rotation_size_; }
  std::size_t engine_subproblems() const noexcept { return engine_size_; }
  bool empty() const noexcept { return size() == 0; }

  /// 64-bit FNV-1a hash of the format version, n, engine, split depth and
  /// every subproblem: equal fingerprints mean the same indices name the same work.
  std::uint64_t fingerprint() const noexcept { return fingerprint_; }

  /// Estimated relative work of subproblem `index` (at least 1): within a
  /// small factor of its real cost, which is what a percentage, an ETA and a
  /// balanced shard need. Throws std::out_of_range unless index < size().
  std::uint64_t estimated_work(std::size_t index) const;
  /// True when the plan's engine gives every subproblem an estimated_work
  /// of 1 (the quadrant and GPU plans, and a rotational plan): what its
  /// shards and progress can go by without a list. A row-by-row plan whose
  /// estimates only happen to be 1 (n <= 3) is not uniform.
  bool uniform_work() const noexcept;

 private:
  friend struct detail::plan_access;  // the library's view of what a subproblem is
  // The plan of an engine plan already built (null: built here), so that
  // what is priced from it is refused before the fingerprint.
  plan(int n, const plan_options& options, std::shared_ptr<const detail::engine_plan> built);
  int n_;
  engine kind_;
  plan_scope scope_;
  std::shared_ptr<const detail::engine_plan> impl_;
  std::size_t engine_size_ = 0;
  std::size_t rotation_size_ = 0;
  std::shared_ptr<const std::vector<detail::rotation_task>> rotation_;
  std::uint64_t fingerprint_;
};

/// The fingerprint as 16 lower-case hex digits, as journals, JSON and
/// messages write it.
std::string format_fingerprint(std::uint64_t fingerprint);

}  // namespace nqueens
