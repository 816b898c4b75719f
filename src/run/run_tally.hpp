#pragma once

// The run's progress and its sums, as the workers report finished
// subproblems: the reduce step (accumulate, reduce.hpp) and the progress
// snapshots (progress.hpp) of one run. Work is weighed by each subproblem's
// estimate (plan::estimated_work; equal ones, the quadrant plan's, are
// counted without a sum over the plan), and the ETA is this run's pace: the
// subproblems taken from a journal count as done but not as paced.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>

#include "nqueens/plan.hpp"
#include "nqueens/progress.hpp"
#include "nqueens/reduce.hpp"
#include "run/shard/shard_members.hpp"

namespace nqueens::detail {

class run_tally {
 public:
  /// A run of the subproblems `todo` of shard `mine` of `p`, the others
  /// taken from a journal whose sums are `resumed`. `weigh`: measure work
  /// (only a run that reports progress needs it). Times count from `start`.
  run_tally(const plan& p, const shard_members& mine, std::span<const std::size_t> todo, const totals& resumed,
            bool weigh, int threads, std::chrono::steady_clock::time_point start);

  /// Adds subproblem `index`'s counts. Thread-safe (one lock a subproblem:
  /// noise next to its microseconds to seconds).
  void finished(std::size_t index, const subproblem_count& c);

  /// The sums so far (the journal's included).
  totals sums() const;

  /// The process was stopped (Ctrl-Z, SIGSTOP) for `gap`, seen as that much
  /// missing between two of the helper's ticks: left out of the pace behind
  /// the time left, which it stretched (an ETA of 2m49s for 38 s, just
  /// after `fg`). The elapsed time keeps it: that much time did pass.
  void paused(std::chrono::steady_clock::duration gap);

  /// A snapshot for count_options::on_progress.
  progress snapshot(bool last) const;

 private:
  const plan& plan_;
  bool weigh_;
  bool uniform_;
  std::size_t subproblems_;
  int threads_;
  std::chrono::steady_clock::time_point start_;
  uint128 total_resumed_;
  mutable std::mutex mutex_;
  std::uint64_t work_total_ = 0;
  std::uint64_t work_done_ = 0;
  std::uint64_t work_done_before_ = 0;  // from the journal
  // The first subproblem this run finished, and the work done then: the
  // rate behind the ETA is measured from it, not from `start_`, which the
  // plan and the tables' build (seconds to minutes) would otherwise slow.
  std::optional<std::chrono::steady_clock::time_point> first_finish_;
  std::chrono::steady_clock::duration paused_ = {};         // since first_finish_
  std::chrono::steady_clock::duration paused_in_all_ = {};  // since the start
  std::uint64_t work_done_at_first_ = 0;
  // The subproblems this run must finish before it gives an ETA, and those
  // it has: the first to finish are the cheap ones of those started, so a
  // few dozen of a run of days (whose subproblems take up to minutes) read
  // a time left many times too short.
  std::size_t least_paced_ = 0;
  std::size_t finished_here_ = 0;
  totals sums_;  // the journal's, then each report's
};

}  // namespace nqueens::detail
