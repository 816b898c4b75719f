#pragma once

// The draws behind `plan N --estimate` (estimate_cost): random runs of a
// plan's subproblems counted on several threads at once, in two strata
// drawn and projected apart: the engine's subproblems, and the rotation
// search's tasks at the plan's end. Drawn together they mislead where the
// tasks are most of the plan and the engine's are heavy (a row engine past
// n = 26: at n = 30, 175 000 light tasks beside 4 000 subproblems of hours,
// and a 2 s sample projected Q(30) at ten minutes).

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <exception>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "nqueens/estimate.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/plan.hpp"
#include "run/estimate/block_order.hpp"
#include "run/estimate/precision_stop.hpp"
#include "run/estimate/running_mean.hpp"

namespace nqueens::detail {

/// How the draws of the engine's subproblems are cut and timed.
struct draw_shape {
  std::size_t run_length = 1;   ///< consecutive subproblems a block holds
  std::size_t batch = 1;        ///< blocks a draw holds
  std::size_t call_length = 1;  ///< subproblems the context takes in one call
  bool by_wall_clock = false;   ///< timed by the wall clock: a device counts meanwhile
};

class stratified_sample {
 public:
  /// A sample of `p` through `context` (which must outlive it), as
  /// `options` asks, its time counted from `start`.
  stratified_sample(const plan& p, const run_context& context, const estimate_options& options, draw_shape shape,
                    std::chrono::steady_clock::time_point start);

  /// Draws on `threads` threads until a stop rule says so; rethrows a
  /// draw's failure, and throws run_cancelled once the caller cancelled.
  void run(int threads);

  /// The stretch of run() while every thread drew, from its start until
  /// the first thread found no draw left: its wall seconds and the
  /// process's CPU seconds in them ({0, 0} where none ran out: a failure or
  /// a cancel ended the draws).
  std::pair<double, double> busy_stretch() const noexcept { return busy_; }

  /// The sample's figures into `e`: runs, sampled, rotation_runs,
  /// rotation_sampled, draws_cut, thread_seconds, total, their errors and
  /// why sampling ended. Throws std::runtime_error where every draw of a
  /// stratum was cut at the last call.
  void project(cost_estimate& e) const;

 private:
  struct stratum {
    std::size_t first = 0, size = 0, run_length = 1, batch = 1;
    std::size_t blocks = 0, draws = 0;  // draws: the population the errors correct for
    std::size_t drawn = 0;
    std::optional<block_order> order;
    running_mean seconds;  // as the runs finish: for the stop once precise enough
    // Each run's seconds and solutions, in the order drawn, empty for a run
    // cut at the last call: the figures are summed in that order after
    // sampling, so that the same seed gives the same estimate to the last
    // bit on any number of threads (summed as the runs finished, two
    // threads' totals differed in the 15th digit).
    std::vector<std::optional<std::pair<double, double>>> per_run;
    double all_seconds = 0, all_solutions = 0;
    std::size_t sampled = 0, cut = 0;
    bool left() const noexcept { return drawn < draws; }
    // What a draw's figures are multiplied by to project the stratum: its
    // blocks over the blocks a draw holds. Every draw but the stratum's
    // last holds `batch` blocks drawn without replacement, so the mean of
    // draws' totals, times this, is unbiased however many subproblems each
    // block holds (the stratum's last block may hold fewer: a mean per
    // subproblem times the size weighed it as a full one).
    double whole() const noexcept { return static_cast<double>(blocks) / static_cast<double>(batch); }
  };
  // A draw taken: its stratum, its number there, its subproblems.
  struct draw {
    stratum* from = nullptr;
    std::size_t run = 0;
  };

  // Under the mutex: why sampling ended, or none yet.
  std::optional<estimate_end> ended(std::chrono::steady_clock::time_point now);
  // Under the mutex: the stratum of the next draw, of those with draws left.
  std::size_t pick_stratum() const;
  // Under the mutex: the next draw, its subproblems into `indices`.
  draw take(std::vector<std::size_t>& indices);
  // Counts `indices` as a count would; {seconds, solutions}, or none where
  // the draw was stopped (the caller's cancel, or the last call).
  std::optional<std::pair<double, double>> count(const draw& d, const std::vector<std::size_t>& indices,
                                                 std::vector<subproblem_count>& counts) const;
  // One thread's draws, until a stop rule or a failure.
  void draw_until_done();
  // Under the mutex: keeps the first failure and stops every draw.
  void fail(std::exception_ptr error);
  bool cancelled() const noexcept { return options_.cancel != nullptr && options_.cancel->load(); }

  const run_context& context_;
  const estimate_options& options_;
  const draw_shape shape_;
  const std::chrono::steady_clock::time_point deadline_;
  // A draw begun before the deadline ends at its own pace, but for a plan
  // whose subproblems take hours (a row engine's past n = 26) that is
  // hours: a draw still counting at twice the sampling time is stopped and
  // left out (draws_cut).
  const std::chrono::steady_clock::time_point last_call_;
  // What each CPU-timed draw's interval holds of the clock itself, taken off.
  const double clock_cost_;
  std::array<stratum, 2> strata_;
  std::mutex mutex_;  // the draws and the results: once a run, noise next to its subproblems
  std::size_t drawn_ = 0;
  precision_stop precision_;  // ended(): precise once the error held while the draws doubled
  std::optional<estimate_end> end_reason_;
  // busy_stretch(): where it began, and its figures once a thread ran out.
  std::chrono::steady_clock::time_point busy_from_{};
  double busy_cpu_from_ = 0;
  bool ran_out_ = false;
  std::pair<double, double> busy_{0.0, 0.0};
  std::exception_ptr failure_;
  // What the draws look at: the caller's cancel, passed on, or the last call.
  std::atomic<bool> stop_draws_{false};
};

}  // namespace nqueens::detail
