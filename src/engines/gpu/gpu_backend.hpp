#pragma once

// Where the GPU engine's kernels run: on a CUDA device (gpu_device.cu) or,
// a block and a thread at a time, on the CPU (gpu_emulator.cpp); the engine
// (gpu_engine.cpp) and the rounds (gpu_rounds.hpp) see only this interface.
// A backend holds the quarter tables where its kernels read them; a stream
// holds one counting thread's memory, taken once when it opens, and runs
// rounds of jobs: one copy in, one launch per kernel, one copy back, one wait.

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "engines/gpu/gpu_job.hpp"
#include "engines/join_model/quadrant_task.hpp"
#include "engines/join_model/quarter_tables.hpp"
#include "engines/plain_number.hpp"
#include "nqueens/device_work.hpp"
#include "nqueens/subproblem_count.hpp"

namespace nqueens::detail::gpu {

/// What the kernels count for one subproblem (job_state's pairs and once).
struct pair_counts {
  std::uint64_t pairs = 0;
  std::uint64_t once = 0;
};

/// Whether streams time each kernel (device_work::kernel_nanoseconds):
/// NQUEENS_GPU_TIMES=1; 0 or unset, not, at no cost. Read when a stream
/// opens. Throws std::invalid_argument for another value.
inline bool kernel_times_asked() { return environment_integer("NQUEENS_GPU_TIMES", 0, 1).value_or(0) == 1; }

/// One counting thread's memory on a backend, and the rounds it runs.
class gpu_stream {
 public:
  virtual ~gpu_stream() = default;
  /// Jobs one round holds at most.
  virtual std::uint32_t max_jobs() const noexcept = 0;
  /// Whether the rounds may size a call's jobs on the host, by their
  /// group_bounds, where those fit the arena, rather than in a round of
  /// sizes (two launches, two copies and a wait fewer a call; a module
  /// built with NQUEENS_GPU_HOST_SIZES=0 says no, to compare on a device).
  virtual bool sizes_on_host() const noexcept = 0;
  /// The buffer every job's halves and codes are cut from, as the kernels
  /// address it, and its length in 64-bit words.
  virtual std::uint64_t* arena() const noexcept = 0;
  virtual std::uint64_t arena_words() const noexcept = 0;
  /// Where job k of a round keeps its state and result, as the kernels
  /// address them (k < max_jobs()).
  virtual job_state* state(std::uint32_t k) const noexcept = 0;
  virtual job_result* result(std::uint32_t k) const noexcept = 0;
  /// One round: `jobs` (at most max_jobs(), their pointers set) copied to
  /// the device, `round`'s kernels launched over them, the results copied
  /// back and waited for. Returns the host's copy of the results, valid
  /// until the next round. Throws std::runtime_error when a call fails.
  virtual std::span<const job_result> run(std::span<const gpu_job> jobs, round_kind round) = 0;
  /// The launches, stream operations and (where asked) kernel times of
  /// every round so far.
  virtual device_work work() const noexcept = 0;
  /// Copies `bytes` of host memory at `from` to `to` (in the arena, as the
  /// kernels address it) as the next round's first operation: how a job's
  /// own quarter lists reach the device. `from` must hold them until run()
  /// has returned.
  virtual void stage(const void* from, std::uint64_t bytes, std::uint64_t* to) = 0;
  /// The word the kernels read to stop a round early (gpu_job::stop), as
  /// they address it.
  virtual std::uint32_t* stop_word() const noexcept = 0;
  /// Sets the stop word, from any thread, while a round runs or not: the
  /// round's kernels that look for it take no further item, and the round
  /// is not taken (gpu_rounds throws subproblem_cancelled). clear_stop()
  /// clears it; stopped() says whether it is set.
  virtual void stop() noexcept = 0;
  virtual bool stopped() const noexcept = 0;
  virtual void clear_stop() noexcept = 0;
};

class gpu_backend {
 public:
  virtual ~gpu_backend() = default;
  /// A new stream, its memory taken now (once per counting thread, and
  /// from several threads at once: the stream pool opens them unlocked).
  /// Throws std::runtime_error when the device has not that much memory.
  virtual std::unique_ptr<gpu_stream> open_stream() = 0;
  /// Jobs a round of its streams holds at most (gpu_stream::max_jobs, the
  /// same for each): the engine hands a stream that many a call.
  virtual std::uint32_t round_jobs() const noexcept = 0;
  /// The whole tables as the kernels address them (empty arrays for a
  /// backend without tables, whose jobs bring their own quarters).
  virtual quarter_arrays west() const noexcept = 0;
  virtual quarter_arrays east() const noexcept = 0;
  /// What runs the kernels, for messages: "GPU 1 (NVIDIA H200)", or
  /// "emulated GPU 1 (NQUEENS_GPU=emulate)".
  virtual std::string where() const = 0;
};

/// A table's arrays where they lie (the host's, for a table the host holds).
inline quarter_arrays arrays_of(const quarter_table& table) noexcept {
  return {table.offsets().data(), table.masks().data(), table.signatures().data()};
}

/// The host-known part of a job for `task` of an n-board plan whose classes
/// are cut in `slices` slices of north row sets: columns, queens, row sets,
/// the slice and the filter's rule; both groups' quarters the whole tables
/// of `backend`. Its buffers, capacities and sequence are the rounds' to set.
gpu_job job_for(const quadrant_task& task, int n, int slices, const gpu_backend& backend);

/// The solutions `counts` stand for under the job's rule (2 * pairs + once
/// under the transposition filter), times `weight`. Throws
/// std::overflow_error past 2^64.
std::uint64_t solutions_of(const gpu_job& job, pair_counts counts, std::uint64_t weight);

/// Throws std::runtime_error naming the fault when `result` does not carry
/// `job`'s mark for `round` (a round that did not reach it, or a check that
/// failed).
void check_result(const job_result& result, const gpu_job& job, round_kind round);

}  // namespace nqueens::detail::gpu
