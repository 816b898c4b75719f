#pragma once

// The GPU engine's kernels run on the CPU: every block of a launch, and
// every thread of a block phase by phase, one after another, over host
// memory. Slow (a core does a GPU's work), exact, and the same source as on
// the device: what the tests check against the quadrant engine on machines
// with no GPU, and what NQUEENS_GPU=emulate selects.

#include <cstring>
#include <memory>

#include "engines/gpu/gpu_backend.hpp"
#include "engines/gpu/gpu_kernels.hpp"

namespace nqueens::detail::gpu {

/// One launch of `Kernel` on the CPU: every item as one block, every phase
/// for every thread of it before the next phase (the barrier). `shared` is
/// poisoned for each block, as a GPU block's shared memory starts undefined.
template <class Kernel>
void emulate_launch(const gpu_job& job, typename Kernel::shared& shared) {
  const std::uint32_t items = Kernel::items(job);
  for (std::uint32_t item = 0; item < items; ++item) {
    std::memset(static_cast<void*>(&shared), 0xA5, sizeof shared);
    for (int phase = 0; phase < Kernel::phases; ++phase) {
      for (std::uint32_t thread = 0; thread < block_threads; ++thread) Kernel::run(phase, job, item, thread, shared);
    }
  }
}

/// A backend over `tables` (kept by reference: they must outlive it).
std::unique_ptr<gpu_backend> emulated_backend(const half_board_tables& tables);

}  // namespace nqueens::detail::gpu
