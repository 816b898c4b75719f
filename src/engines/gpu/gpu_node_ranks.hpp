#pragma once

// Where a process of an MPI job sits on its node, read from what the
// launchers set (Open MPI, MPICH, Slurm), and which of the node's GPUs that
// gives it: every GPU where it is alone on its node, its share of them where
// ranks share the node, and how many processes count on each GPU it takes
// (gpu_memory_share.hpp), counted GPU by GPU. Host code only, so that the
// tests read it without a device.

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <optional>
#include <vector>

#include "engines/gpu/gpu_memory_share.hpp"
#include "engines/plain_number.hpp"

namespace nqueens::detail::gpu {

/// The node-local rank of an MPI job or a Slurm step, where a launcher set
/// one. Read strictly: a rank atoi made 0 of would take rank 0's GPUs.
inline std::optional<int> launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    if (const auto rank = environment_integer(name, 0, std::numeric_limits<int>::max())) return static_cast<int>(*rank);
  }
  return std::nullopt;
}

/// The ranks on this node (Open MPI, MPICH), where the launcher says. Not
/// Slurm's job-wide task count: a plain run inside a batch job inherits it.
inline std::optional<int> launcher_node_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}) {
    if (const auto ranks = environment_integer(name, 1, std::numeric_limits<int>::max())) {
      return static_cast<int>(*ranks);
    }
  }
  return std::nullopt;
}

/// NQUEENS_GPU_SHARERS, where set: the processes counting on each GPU this
/// one takes, whatever the launcher says. Throws std::invalid_argument on
/// a value out of range.
inline std::optional<int> asked_sharers() {
  if (const auto asked = environment_integer("NQUEENS_GPU_SHARERS", 1, max_gpu_sharers)) {
    return static_cast<int>(*asked);
  }
  return std::nullopt;
}

/// A GPU a process takes: its index among those it sees, and the processes
/// counting on it (this one included).
struct dealt_device {
  int index = 0;
  int sharers = 1;
  friend bool operator==(const dealt_device&, const dealt_device&) = default;
};

/// The GPUs of `visible` (>= 1) that node-local rank `rank` of `ranks` takes:
/// all of them, alone, with no rank (a plain run); those of index = rank
/// modulo ranks, alone, where the node has no more ranks than GPUs; else GPU
/// rank modulo visible, with the ranks dealt to it. A rank whose node's
/// ranks are not known (Slurm) takes GPU rank modulo visible, as one rank
/// per GPU.
inline std::vector<dealt_device> deal_devices(int visible, std::optional<int> rank, std::optional<int> ranks) {
  std::vector<dealt_device> out;
  if (!rank) {
    for (int d = 0; d < visible; ++d) out.push_back({d, 1});
    return out;
  }
  if (!ranks) return {{*rank % visible, 1}};
  const int r = *rank % *ranks, n = *ranks;
  if (n <= visible) {
    for (int d = r; d < visible; d += n) out.push_back({d, 1});
    return out;
  }
  const int device = r % visible;
  return {{device, n / visible + (device < n % visible ? 1 : 0)}};
}

/// The GPUs this process takes of the `visible` it sees (>= 1), by default:
/// deal_devices from the launchers' variables; one GPU that a launcher bound
/// it to (CUDA_VISIBLE_DEVICES naming one GPU, as Slurm's per-task binding
/// does) is its own. NQUEENS_GPU_SHARERS sets the sharers of each. Throws
/// std::invalid_argument where a variable is no number in range.
inline std::vector<dealt_device> node_devices(int visible) {
  const std::optional<int> sharers = asked_sharers();
  const char* bound = std::getenv("CUDA_VISIBLE_DEVICES");
  std::vector<dealt_device> out = visible == 1 && bound != nullptr && *bound != '\0'
                                      ? std::vector<dealt_device>{{0, 1}}
                                      : deal_devices(visible, launcher_rank(), launcher_node_ranks());
  if (sharers) {
    for (dealt_device& d : out) d.sharers = *sharers;
  }
  return out;
}

/// The sharers of each GPU a process was told to take (--devices): every
/// rank of its node may have been told the same, so the node's ranks, unless
/// NQUEENS_GPU_SHARERS says; 1 outside MPI.
inline int listed_device_sharers() {
  if (const std::optional<int> sharers = asked_sharers()) return *sharers;
  return std::min(launcher_node_ranks().value_or(1), max_gpu_sharers);
}

}  // namespace nqueens::detail::gpu
