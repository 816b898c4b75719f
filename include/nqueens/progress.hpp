#pragma once

/// \file
/// Progress of a running count, weighted by estimated work.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "nqueens/count_types.hpp"
#include "nqueens/plan.hpp"

namespace nqueens {

/// A snapshot handed to count_options::on_progress.
struct progress {
  /// The run's subproblems: a shard's own (count_result::shard_subproblems).
  std::size_t subproblems = 0;
  /// Finished subproblems, those taken from a checkpoint journal included.
  std::size_t finished = 0;
  /// Share of the estimated work done, 0..1 (journal work included).
  double fraction = 0.0;
  /// Seconds since this run started.
  double elapsed_seconds = 0.0;
  /// Of those, the seconds the process was stopped (Ctrl-Z, SIGSTOP), seen
  /// as time missing between the ticks of the thread that reports: left out
  /// of eta_seconds' pace, and of a rate of solutions a second.
  double stopped_seconds = 0.0;
  /// Estimated seconds left, from this run's pace; empty until work is done.
  std::optional<double> eta_seconds{};
  /// Solutions counted so far (journal included).
  uint128 total_so_far = 0;
  /// The part of total_so_far taken from the journal: what this run counted
  /// is the difference (its pace in solutions per second).
  uint128 total_resumed = 0;
  int threads = 0;
  /// True for the last snapshot of the run.
  bool last = false;
};

/// plan::estimated_work of every subproblem of `p`, in index order.
std::vector<std::uint64_t> estimate_work(const plan& p);

}  // namespace nqueens
