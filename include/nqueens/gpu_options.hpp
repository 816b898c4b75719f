#pragma once

/// \file
/// Which GPUs a count on the GPU engine takes, and how much memory of each.

#include <cstdint>
#include <string>

namespace nqueens {

/// The GPUs the GPU engine counts on and the memory it takes on each; the
/// defaults suit a process alone on its node. Every other engine counts on
/// the CPU and refuses anything but the defaults (check_runnable).
struct gpu_options {
  /// Empty: those the node's launcher deals this process (every GPU it sees
  /// where it is alone on its node); "all"; or GPU indices and UUIDs
  /// ("GPU-...") separated by commas. A list that names a GPU not visible
  /// is refused.
  std::string devices;
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

}  // namespace nqueens
