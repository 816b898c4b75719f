#pragma once

/// \file
/// Thread scaling: a whole count timed on 1, 2, 4, ... threads.

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "nqueens/count.hpp"
#include "nqueens/count_types.hpp"
#include "nqueens/plan.hpp"

namespace nqueens {

/// One row of a scaling measurement.
struct scaling_row {
  /// Threads the row's counts ran on: those asked, unless oneTBB allowed
  /// fewer (count_result::threads).
  int threads = 0;
  /// Median wall-clock seconds over the repeats.
  double median_seconds = 0.0;
  /// Median seconds of the one-thread row divided by this row's.
  double speedup = 0.0;
  /// speedup / threads, or on the GPU engine speedup / gpus: per what the
  /// row scales over.
  double efficiency = 0.0;
  uint128 total = 0;
  std::vector<double> seconds{};  ///< every repeat, in run order
  /// Median over the repeats of count_result::cpu_seconds / seconds: how
  /// many hardware threads the count kept busy. Well below `threads`, the
  /// runs shared the cores with another process or the work did not spread,
  /// and the speed-up is not the hardware's.
  double busy_threads = 0.0;
  /// The GPUs the row's counts took (the GPU engine; 0 on the CPU): as many
  /// as its threads, up to those the most threads take, each GPU being
  /// driven by a thread of its own. The rows then scale over GPUs.
  int gpus = 0;
};

/// Result of measure_scaling.
struct scaling_result {
  std::vector<scaling_row> rows{};  ///< in increasing thread order, 1 first
  /// True when every run of every row counted the same total.
  bool consistent = true;
  verification check{};  ///< of the common total (of the first run if inconsistent)
  /// False when options.cancel stopped the runs: `rows` then holds the
  /// thread counts with a finished run, their medians over those runs.
  bool complete = true;
  /// The engine every row counted on: the options' own, or what
  /// engine::automatic chose for the most threads (automatic where a cancel
  /// came while it chose).
  engine kind = engine::automatic;
  /// The plan every row counted, as its first timed run built it: its split
  /// depth (never 0, the automatic split's request) and its subproblems; 0
  /// where no run finished.
  int split_depth = 0;
  std::size_t subproblems = 0;
};

/// A count measure_scaling is about to run, for a display of where it is.
struct scaling_step {
  std::size_t run = 0;   ///< 1-based among the timed runs; 0: the untimed first count
  std::size_t runs = 0;  ///< timed runs in all (thread counts x repeat)
  int threads = 0;
};

/// 1, 2, 4, ... below the hardware thread count, the physical core count
/// where cores run several threads, then the hardware count.
std::vector<int> default_thread_counts();

/// Counts Q(n) `repeat` times for each thread count (1 is added when missing:
/// speed-ups are relative to it), after one untimed count on the most
/// threads; the repeats go in rounds over every thread count, alternately
/// up and down, so that a drifting machine skews no row alone. A run's time
/// is the whole count's wall time (count_result::seconds). engine::automatic
/// is chosen once, for the most threads (choose_engine), and every row
/// counts on that engine and split. On the GPU
/// engine a row of fewer threads than the GPUs the count would take counts
/// on the first of them, one a thread (count() alone refuses it). Once
/// `options.cancel` is set, returns after the count under way, with
/// `complete` false. `on_step`, where set, is called before each count
/// (options.on_progress then reports that count). Throws
/// std::invalid_argument for a bad n, thread count or repeat < 1, or a
/// checkpoint or a shard in `options`.
scaling_result measure_scaling(int n, std::span<const int> thread_counts, int repeat, const count_options& options = {},
                               const std::function<void(const scaling_step&)>& on_step = {});

}  // namespace nqueens
