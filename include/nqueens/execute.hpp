#pragma once

/// \file
/// Step 2 of plan -> execute -> reduce -> verify: run subproblems through the
/// engine's kernels on a oneTBB task_arena and report one count per subproblem.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "nqueens/cancelled.hpp"
#include "nqueens/device_work.hpp"
#include "nqueens/gpu_options.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/subproblem_count.hpp"

namespace nqueens {

/// What running a plan needs beyond the plan: the engine's tables (the
/// quadrant engine's quarter-board tables, gigabytes at n = 24) and each
/// thread's buffers. Built for one plan and one instruction set, freed with
/// this object: hold one to reuse it across execute() calls on the same plan
/// (nqueens-mpi does, chunk after chunk).
class run_context {
 public:
  /// Builds the context of `p` with `kernels` (default: active_isa()) for
  /// runs on `threads` threads (0: all), which also build its tables, within
  /// `max_memory` bytes (0: default_memory_limit(); an engine may then choose
  /// a slower layout that fits, as memory_estimate says; the bound is not
  /// checked here, see check_memory), on the GPUs `gpu` chooses (the GPU
  /// engine's). Throws std::invalid_argument, as check_runnable does, for a
  /// `gpu` other than the default where the engine counts on the CPU (a
  /// rotational plan, which runs no engine, takes any); isa_error when the
  /// CPU lacks `kernels`; run_cancelled when `*cancel` is set (null: never)
  /// before the tables are built.
  explicit run_context(const plan& p, std::optional<isa> kernels = std::nullopt, int threads = 0,
                       const std::atomic<bool>* cancel = nullptr, std::uint64_t max_memory = 0,
                       const gpu_options& gpu = {});
  ~run_context();
  /// A context moved from holds nothing: it may only be destroyed or
  /// assigned to.
  run_context(run_context&&) noexcept;
  run_context& operator=(run_context&&) noexcept;

  /// The kernels this context runs.
  isa kernels() const noexcept;
  /// Fingerprint of the plan it was built for.
  std::uint64_t plan_fingerprint() const noexcept;

  /// Counts subproblem `index` on the calling thread. Thread-safe; allocates
  /// nothing once this thread's buffers have grown. Throws std::overflow_error
  /// rather than wrap past 2^64, std::out_of_range for an index outside the
  /// plan, subproblem_cancelled once `*cancel` is set (null: never) before
  /// the count ends.
  subproblem_count solve(std::size_t index, const std::atomic<bool>* cancel = nullptr) const;
  /// Counts `indices` into `counts` (as long) on the calling thread, as
  /// solve() each, in one call to the engine: how the GPU engine takes a
  /// round of subproblems. Throws std::invalid_argument when the lengths
  /// differ, else as solve(); when cancelled, none of `counts` is meant.
  void solve(std::span<const std::size_t> indices, std::span<subproblem_count> counts,
             const std::atomic<bool>* cancel = nullptr) const;
  /// Subproblems the engine counts best in one call (1 but for the GPU engine).
  std::size_t batch_size() const noexcept;
  /// What the engine has asked of a device so far (see device_work).
  device_work device() const noexcept;
  /// Whether solve waits while a device counts (the GPU engine on a GPU,
  /// not emulated): a thread's CPU time then says nothing of the cost.
  bool waits_on_a_device() const noexcept;

 private:
  struct state;                   // the plan's parts it reads, the engine's tables, the kernels
  std::unique_ptr<state> state_;  // never null but moved from
};

/// How to run a plan.
struct execute_options {
  /// Worker threads in the arena; 0 means hardware_threads().
  int threads = 0;
  /// Called once per finished subproblem, concurrently from worker threads.
  /// An exception it throws stops the run as a cancel does and comes out of
  /// execute() (of several at once, the first oneTBB caught).
  std::function<void(std::size_t index, const subproblem_count&)> on_finished{};
  /// When set and true, no further subproblems are started and the ones
  /// running stop within a fraction of a second, unfinished (their counts
  /// are lost, never partial); a table build in progress stops too.
  const std::atomic<bool>* cancel = nullptr;
  /// Record each subproblem's wall-clock time in execution::subproblem_seconds
  /// (for an engine that counts several in one call, their mean).
  bool time_subproblems = false;
  /// Bytes the engine may use; 0 means default_memory_limit(). A plan that
  /// needs more is refused up front (memory_limit_error). Not checked when a
  /// context is passed to execute(): its memory is already taken.
  std::uint64_t max_memory = 0;
  /// Kernels for a context execute() builds; empty for active_isa().
  std::optional<isa> kernels{};
  /// GPUs for a context execute() builds (count_options::gpu).
  gpu_options gpu{};
  /// Keep each subproblem's counts in the execution. False: only report
  /// them to on_finished, so that a run of 10^8 subproblems (the run driver's)
  /// holds no per-subproblem results.
  bool keep_results = true;
};

/// Per-subproblem results of one execution, in the order the subproblems
/// were listed: counts[k] is subproblem indices[k]'s.
struct execution {
  /// The subproblems listed (empty when execute_options::keep_results is false).
  std::vector<std::size_t> indices{};
  std::vector<subproblem_count> counts{};
  /// finished[k] != 0 when counts[k] holds the result of subproblem indices[k]
  /// (a cancelled run leaves some unfinished).
  std::vector<std::uint8_t> finished{};
  /// Seconds each subproblem took (when execute_options::time_subproblems).
  std::vector<double> subproblem_seconds{};
  /// Subproblems in the plan (all of them, listed or not).
  std::size_t plan_size = 0;
  /// Threads the call counted on: execute_options::threads, or fewer where
  /// oneTBB allows fewer: the program's own limit (a tbb::global_control) is
  /// lower, or more than max(256, 4 x the hardware threads) are asked in a
  /// program that used oneTBB before (its first use fixes that ceiling;
  /// count() raises its limit before then where it is the first).
  int threads = 0;
  isa kernels = isa::portable;
  double seconds = 0.0;
  /// Of those, building the engine's context (tables, devices) and
  /// releasing it, where this call built its own; the rest counted.
  double start_seconds = 0.0;
  double release_seconds = 0.0;
  /// CPU seconds the call took, every thread's: the calling thread's and
  /// those of its oneTBB arenas' workers (building its own context,
  /// counting); not what other threads of the process used meanwhile.
  double cpu_seconds = 0.0;
  /// What this call asked of a device (see device_work).
  device_work device{};
  /// Whether counting began: false where nothing ran, for a cancel that came
  /// before the context was built (the checks of `indices`, the tables) or
  /// for `indices` empty.
  bool counting_began = false;
};

/// Runs the subproblems listed in `indices` on an arena of `options.threads`
/// threads, with `context` when given (it must be `p`'s), else with one built
/// for this call (and freed before it returns). More threads than the
/// hardware has raise oneTBB's process-wide worker limit for the duration of
/// the call (to the most that any call alive asks for: calls at once never
/// cap one another); a lower limit of the program's own, a
/// tbb::global_control, caps the arena instead (execution::threads says
/// so). Throws std::invalid_argument for a thread count outside
/// 0..max_threads, an index outside the plan, an index listed twice, a
/// context of another plan, or (building a context) GPU options for an
/// engine that counts on the CPU, as run_context does.
execution execute(const plan& p, std::span<const std::size_t> indices, const execute_options& options = {},
                  const run_context* context = nullptr);

/// Runs every subproblem of `p`.
execution execute(const plan& p, const execute_options& options = {});

}  // namespace nqueens
