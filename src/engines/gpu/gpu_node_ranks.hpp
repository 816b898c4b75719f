#pragma once

// Where a process of an MPI job sits on its node, read from what the
// launchers set (Open MPI, MPICH, Slurm): which GPU it takes and how many
// processes share that GPU's memory (gpu_memory_share.hpp). Host code only,
// so that the tests read it without a device.

#include <algorithm>
#include <limits>

#include "engines/gpu/gpu_memory_share.hpp"
#include "engines/plain_number.hpp"

namespace nqueens::detail::gpu {

/// The node-local rank of an MPI job, else 0: one rank per GPU. Read
/// strictly: a rank atoi made 0 of would share GPU 0.
inline int local_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    if (const auto rank = environment_integer(name, 0, std::numeric_limits<int>::max())) return static_cast<int>(*rank);
  }
  return 0;
}

/// How many processes count on each of the node's `devices` GPUs:
/// NQUEENS_GPU_SHARERS where set (1 where each rank has a GPU of its own,
/// which a rank cannot see), else the node's ranks (Open MPI, MPICH) over
/// its GPUs, else 1. Not Slurm's job-wide task count: a plain run inside a
/// batch job inherits it. Throws std::invalid_argument on a value out of range.
inline int gpu_sharers(int devices) {
  if (const auto asked = environment_integer("NQUEENS_GPU_SHARERS", 1, max_gpu_sharers)) {
    return static_cast<int>(*asked);
  }
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}) {
    if (const auto ranks = environment_integer(name, 1, std::numeric_limits<int>::max())) {
      return static_cast<int>((*ranks + std::max(devices, 1) - 1) / std::max(devices, 1));
    }
  }
  return 1;
}

}  // namespace nqueens::detail::gpu
