#pragma once

/// \file
/// Step 2 of plan -> execute -> reduce -> verify: run subproblems through the
/// kernel on a oneTBB task_arena and report one count per subproblem.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <vector>

#include "nqueens/isa.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/threads.hpp"

namespace nqueens {

/// Weighted solution counts found under one subproblem.
///
/// 64 bits suffice per subproblem: a kernel counts at most ~10^10 solutions per
/// second per thread, so 2^64 would take decades for a single subproblem; all
/// sums across subproblems are 128-bit (see reduce.hpp).
struct subproblem_count {
  /// Solutions this subproblem stands for (its completions, weighted).
  std::uint64_t total = 0;
  /// Fundamental solutions (classes under the 8 symmetries) whose canonical
  /// member lies in this subproblem; 0 for engines that do not count them.
  std::uint64_t unique = 0;

  friend bool operator==(const subproblem_count&, const subproblem_count&) = default;
};

/// Counts the solutions under subproblem `index` of `p` on the calling thread.
/// Allocates nothing. Throws std::overflow_error rather than wrap past 2^64.
subproblem_count solve_subproblem(const plan& p, std::size_t index);

/// How to run a plan.
struct execute_options {
  /// Worker threads in the arena; 0 means hardware_threads().
  int threads = 0;
  /// Called once per finished subproblem, concurrently from worker threads.
  std::function<void(std::size_t index, const subproblem_count&)> on_finished;
  /// When set and true, no further subproblems are started; the ones already
  /// running finish and are reported.
  const std::atomic<bool>* cancel = nullptr;
  /// Record each subproblem's wall-clock time in execution::subproblem_seconds.
  bool time_subproblems = false;
  /// Bytes the quadrant engine may use for its tables; 0 means
  /// default_memory_limit(). A plan that needs more is refused up front.
  std::uint64_t max_memory = 0;
};

/// Per-subproblem results of one execution, indexed like the plan.
struct execution {
  std::vector<subproblem_count> counts;
  /// finished[i] != 0 when counts[i] holds the result of subproblem i.
  std::vector<std::uint8_t> finished;
  /// Seconds each subproblem took (when execute_options::time_subproblems).
  std::vector<double> subproblem_seconds;
  int threads = 0;
  double seconds = 0.0;
};

/// Runs the subproblems listed in `indices` on an arena of `options.threads`
/// threads. For a quadrant plan it first builds the quarter-board tables and
/// keeps them for the next call with the same board size (count()
/// releases them when it returns). More threads than the hardware has raise oneTBB's process-wide
/// worker limit for the duration of the call.
/// Throws std::invalid_argument for a thread count outside 0..max_threads, an
/// index outside the plan, or an index listed twice.
execution execute(const plan& p, std::span<const std::size_t> indices,
                  const execute_options& options = {});

/// Runs every subproblem of `p`.
execution execute(const plan& p, const execute_options& options = {});

}  // namespace nqueens
