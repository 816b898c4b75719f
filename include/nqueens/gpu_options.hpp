#pragma once

/// \file
/// Which GPUs a count on the GPU engine takes, and how much memory of each.

#include <cstdint>
#include <string>
#include <vector>

namespace nqueens {

/// The GPUs the GPU engine counts on and the memory it takes on each; the
/// defaults suit a process alone on its node. Every other engine counts on
/// the CPU and refuses anything but the defaults (check_runnable).
struct gpu_options {
  /// Empty: those the node's launcher deals this process (every GPU it sees
  /// where it is alone on its node); "all"; or GPU indices and UUIDs
  /// ("GPU-...") separated by commas. A list that names a GPU not visible
  /// is refused.
  std::string devices{};
  /// The most bytes taken on each GPU: the quarter tables where they are
  /// copied there, and each counting thread's stream (its fixed buffers and
  /// its arena, where a job too large is counted in slices); 0: a share of
  /// what the GPU has free. Where the tables and the streams' least do not
  /// fit, the tables stay on the host and each subproblem brings its own
  /// quarter lists; where even those streams do not fit, the count is
  /// refused (memory_limit_error) before it starts.
  std::uint64_t memory = 0;

  /// Neither set: all an engine that counts on the CPU accepts.
  bool is_default() const noexcept { return devices.empty() && memory == 0; }
};

/// A GPU a count on the GPU engine takes.
struct gpu_taken {
  int index = 0;       ///< among the GPUs this process sees (CUDA_VISIBLE_DEVICES decides which)
  std::string uuid{};  ///< as nvidia-smi -L prints it
  std::string name{};
  int sharers = 1;  ///< processes of the node counting on it, this one included
};

/// The GPUs a count on the GPU engine with `gpu` on `threads` threads (0:
/// the hardware's) takes here, in the order it deals them: as count()
/// chooses them (by --devices, else as the node's launcher deals them).
/// Throws std::invalid_argument where count() would refuse the choice (a
/// listed GPU not visible, fewer threads than the GPUs it would take
/// alone), std::runtime_error where no GPU is usable.
std::vector<gpu_taken> gpus_taken(const gpu_options& gpu, int threads = 0);

}  // namespace nqueens
