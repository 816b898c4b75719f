#pragma once

/// \file
/// Measurements over whole runs: thread scaling, and how evenly a plan's work
/// is spread over its subproblems (the speed-up it can allow at most).

#include <cstddef>
#include <span>
#include <vector>

#include "nqueens/count.hpp"
#include "nqueens/count_types.hpp"
#include "nqueens/plan.hpp"

namespace nqueens {

/// One row of a scaling measurement.
struct scaling_row {
  int threads = 0;
  /// Median wall-clock seconds over the repeats.
  double median_seconds = 0.0;
  /// Median seconds of the one-thread row divided by this row's.
  double speedup = 0.0;
  /// speedup / threads.
  double efficiency = 0.0;
  uint128 total = 0;
  std::vector<double> seconds;  ///< every repeat, in run order
};

/// Result of measure_scaling.
struct scaling_result {
  std::vector<scaling_row> rows;  ///< in increasing thread order, 1 first
  /// True when every run of every row counted the same total.
  bool consistent = true;
  verification check;  ///< of the common total (of the first run if inconsistent)
  /// False when options.cancel stopped the runs: `rows` then holds the rows
  /// finished before it.
  bool complete = true;
};

/// 1, 2, 4, ... below the hardware thread count, then the hardware count.
std::vector<int> default_thread_counts();

/// Counts Q(n) `repeat` times for each thread count (1 is added when missing:
/// speed-ups are relative to it). Once `options.cancel` is set, returns after
/// the count under way, with `complete` false. Throws std::invalid_argument
/// for a bad n, thread count or repeat < 1.
scaling_result measure_scaling(int n, std::span<const int> thread_counts, int repeat,
                               const count_options& options = {});

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
/// order, as a count would, timing each.
load_balance measure_load_balance(const plan& p, int threads);

}  // namespace nqueens
