#pragma once

// Where the GPU engine's kernels run: on a CUDA device (gpu_device.cu) or,
// a block and a thread at a time, on the CPU (gpu_emulator.cpp); the engine
// (gpu_engine.cpp) sees only this interface. A backend holds the quarter
// tables where its kernels read them; a stream, one per counting thread,
// holds that thread's buffers and counts one subproblem at a time.

#include <cstdint>
#include <memory>
#include <string>

#include "engines/gpu/gpu_job.hpp"
#include "engines/quadrant/quadrant_kernels.hpp"
#include "engines/quadrant/quarter_tables.hpp"

namespace nqueens::detail::gpu {

/// What the kernels count for one subproblem (job_state's pairs and once).
struct pair_counts {
  std::uint64_t pairs = 0;
  std::uint64_t once = 0;
};

/// One counting thread's buffers on a backend.
class gpu_stream {
 public:
  virtual ~gpu_stream() = default;
  /// The counts of `job` (its host-known fields set; the stream sets the
  /// buffers and state). Throws std::runtime_error when a launch fails or
  /// the kernels' own checks do not all hold.
  virtual pair_counts pairs(gpu_job job) = 0;
};

class gpu_backend {
 public:
  virtual ~gpu_backend() = default;
  /// A new stream with its own buffers (called once per counting thread).
  virtual std::unique_ptr<gpu_stream> open_stream() = 0;
  /// The tables as the kernels address them.
  virtual quarter_arrays west() const noexcept = 0;
  virtual quarter_arrays east() const noexcept = 0;
  /// What runs the kernels, for messages ("emulated on the CPU", a GPU's name).
  virtual std::string where() const = 0;
};

/// The host-known part of a job for `task` of an n-board plan in `slices`
/// slices: columns, queens, row sets and the groups' bounds, read from the
/// host's copy of the tables; the quarter arrays from `backend`.
gpu_job job_for(const quadrant_task& task, int slices, const half_board_tables& tables, const gpu_backend& backend);

/// The solutions `counts` stand for under the job's rule (2 * pairs + once
/// under the transposition filter), times `weight`. Throws
/// std::overflow_error past 2^64.
std::uint64_t solutions_of(const gpu_job& job, pair_counts counts, std::uint64_t weight);

/// Throws std::runtime_error naming the fault when the state the kernels
/// left does not carry the finished mark.
void check_finished(const job_state& state, const gpu_job& job);

}  // namespace nqueens::detail::gpu
