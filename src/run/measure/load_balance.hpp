#pragma once

// How evenly a plan's work is spread over its subproblems (the speed-up it
// can allow at most), from one timed run: `nqueens plan N --stats`. Tooling
// of the CLI's, not the library's API.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "nqueens/count_types.hpp"
#include "nqueens/gpu_options.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/progress.hpp"
#include "nqueens/verify.hpp"

namespace nqueens::detail {

/// How a plan's work is spread over its subproblems, from one timed run.
struct load_balance {
  std::size_t subproblems = 0;
  int split_depth = 0;
  int threads = 0;
  double wall_seconds = 0.0;
  /// Sum of the per-subproblem times: the work.
  double total_seconds = 0.0;
  double longest_seconds = 0.0;
  double median_seconds = 0.0;
  /// longest / total.
  double longest_share = 0.0;
  /// total / longest: no thread count can finish faster than the longest
  /// subproblem, so this bounds the speed-up of any run of this plan.
  double bound = 0.0;
  /// dispatch_order's ETA replayed on these times (replayed_eta_error):
  /// the worst relative error between 10% and 90% of the estimated work.
  double eta_worst_error = 0.0;
  uint128 total = 0;
  /// The fundamental count, (Q + P + 2R) / 8 from the run's own counts.
  uint128 unique = 0;
  verification check;
};

/// Runs every subproblem of `p` on `threads` threads (0: all) in dispatch
/// order, as a count would, timing each, its engine within `engine_memory`
/// bytes (0: default_memory_limit(); a count's is what check_plan_memory
/// leaves it, and so the layout it times). `on_progress`, where set, is
/// called as count_options::on_progress is: about every
/// `progress_interval_seconds` from a thread of its own, and once at the
/// end; what it throws ends the run and is rethrown. Throws run_cancelled
/// when `*cancel` (null: never) is set before every subproblem was timed: a
/// part of the times would not describe the plan.
load_balance measure_load_balance(const plan& p, int threads, std::uint64_t engine_memory = 0,
                                  const std::atomic<bool>* cancel = nullptr, const gpu_options& gpu = {},
                                  const std::function<void(const progress&)>& on_progress = {},
                                  double progress_interval_seconds = 0.25);

}  // namespace nqueens::detail
