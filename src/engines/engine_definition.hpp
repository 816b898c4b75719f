#pragma once

// The seam every engine implements. An engine lives in src/engines/<name>/,
// is listed once in registry.cpp, and is reached only through these types:
//
//   engine_definition  what it is: name, capabilities, estimates, make_plan
//   engine_plan        its subproblems for (n, split depth), in a fixed order
//   engine_context     what running them needs (tables, per-thread buffers)
//
// The rest of the library (plan, execute, the run driver, journals, shards,
// MPI) speaks only in subproblem indices and these interfaces; but for one
// seam of the GPU engine's own: nqueens-mpi's ranks on one node agree which
// of its GPUs each takes (src/mpi/gpu_sharers.cpp, gpu/gpu_node_deal.hpp).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "nqueens/device_work.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/subproblem_count.hpp"

namespace nqueens::detail {

class fnv1a;

/// What running one plan needs beyond the plan: an engine's tables and its
/// per-thread buffers, freed with the context. Built once per run, or held by
/// a caller across runs of the same plan.
class engine_context {
 public:
  virtual ~engine_context() = default;
  /// The counts of subproblem `index`, on the calling thread. Called from
  /// many threads at once; allocates nothing once per-thread buffers grew.
  /// Looks at `cancel` (null: never) often enough that the longest
  /// subproblem stops within a fraction of a second, and then throws
  /// subproblem_cancelled.
  virtual subproblem_count solve(std::size_t index, const std::atomic<bool>* cancel) = 0;
  /// Subproblems the engine counts best in one call of solve_batch (a
  /// device's round); executors hand it runs of up to this many. 1: one at
  /// a time, as the CPU engines count.
  virtual std::size_t batch_size() const noexcept { return 1; }
  /// The counts of `indices` into `counts` (as long), on the calling
  /// thread; as solve, one after another, unless the engine does better.
  virtual void solve_batch(std::span<const std::size_t> indices, std::span<subproblem_count> counts,
                           const std::atomic<bool>* cancel) {
    for (std::size_t k = 0; k < indices.size(); ++k) counts[k] = solve(indices[k], cancel);
  }
  /// What the engine has asked of a device so far (zero for the CPU
  /// engines). Thread-safe.
  virtual device_work device() const noexcept { return {}; }
  /// Whether solve waits while a device counts (the GPU engine on a GPU,
  /// not emulated): the calling thread's CPU time is then not the cost.
  virtual bool waits_on_a_device() const noexcept { return false; }
};

/// An engine's plan: its subproblems for one (n, split depth), in an order
/// that is the same on every machine.
class engine_plan {
 public:
  virtual ~engine_plan() = default;
  virtual std::size_t size() const noexcept = 0;
  /// The split depth used (resolved when the caller asked for automatic).
  virtual int split_depth() const noexcept = 0;
  /// Adds every subproblem, in order, to the plan's fingerprint; throws
  /// run_cancelled once `*cancel` is set (null: never), looked at often
  /// enough that a plan of 10^9 subproblems stops within milliseconds.
  virtual void add_to_fingerprint(fnv1a& hash, const std::atomic<bool>* cancel) const = 0;
  /// Bytes the plan holds (its list of subproblems, or its block table).
  virtual std::size_t bytes() const noexcept = 0;
  /// Relative work of subproblem `index`, at least 1: progress and shards
  /// weigh subproblems by it.
  virtual std::uint64_t estimated_work(std::size_t index) const = 0;
  /// True when estimated_work is 1 for every subproblem: shards then need
  /// no sort of the estimates.
  virtual bool uniform_work() const noexcept { return false; }
  /// Builds what running this plan with `kernels` on `threads` threads
  /// needs, within `max_memory` bytes (resolved, never 0: the engine picks
  /// the layout its memory_estimate priced for that bound), on the GPUs
  /// `gpu` chooses (count_options::gpu; an engine that counts on the CPU is
  /// only given the defaults), on the calling thread's oneTBB arena.
  /// Precondition: cpu_supports(kernels). A build that takes long (tables)
  /// looks at `cancel` (may be null) and throws run_cancelled once it is set.
  virtual std::unique_ptr<engine_context> make_context(isa kernels, int threads, std::uint64_t max_memory,
                                                       const gpu_options& gpu,
                                                       const std::atomic<bool>* cancel) const = 0;
};

/// One engine, as the registry lists it.
struct engine_definition {
  engine id;
  std::string_view name;
  /// One line for help text.
  std::string_view summary;
  /// Whether it classifies each solution itself (counts_unique in
  /// nqueens/engine.hpp): every count has the fundamental count anyway, by
  /// Burnside's lemma; a classifying engine's is checked against it.
  bool counts_unique;
  int max_board_size;
  /// `--engine auto` picks, among the engines that take n and fit in memory,
  /// the one with the largest auto_from <= n: the board size from which it
  /// was measured fastest (0: never picked automatically).
  int auto_from;
  /// Builds the plan. split_depth 0 is automatic: about `target_subproblems`
  /// for an engine that follows it (the row-by-row ones; the quadrant and GPU
  /// engines slice by their classes instead). Throws std::invalid_argument for a plan it cannot build.
  /// A plan whose own list would pass `max_bytes` (0: no bound) throws
  /// memory_limit_error as soon as it does, not once it is whole, and
  /// run_cancelled once `*cancel` is set (null: never) while it is built.
  /// Plans that are ranked, not listed (the quadrant and GPU engines': a few
  /// MiB, about 0.2 s at n = 28) may take neither.
  std::unique_ptr<engine_plan> (*make_plan)(int n, int split_depth, std::size_t target_subproblems,
                                            std::uint64_t max_bytes, const std::atomic<bool>* cancel);
  /// Peak bytes for an n-board on `threads` threads within `max_memory` (0 =
  /// default_memory_limit()): an engine may trade speed for memory and price
  /// the layout it would choose for that bound; null for next to nothing.
  std::uint64_t (*memory_estimate)(int n, int threads, std::uint64_t max_memory) noexcept = nullptr;
  /// Throws std::invalid_argument, saying why, when this machine cannot run
  /// the engine as `gpu` asks (the GPU engine where no GPU is usable, or
  /// none of those gpu.devices names), memory_limit_error when gpu.memory
  /// cannot hold an n-board count on `threads` threads (resolved, never 0;
  /// n = 0: not priced);
  /// null: any machine can, and the engine counts on no GPU (anything but
  /// the default gpu_options is refused).
  void (*check_runnable)(int n, int threads, const gpu_options& gpu) = nullptr;
  /// Its threads drive GPUs, which do the counting (counts_on_gpus()).
  bool counts_on_gpus = false;
};

}  // namespace nqueens::detail
