#pragma once

// The GPUs one GPU run counts on: those --devices chooses (or the node's
// launcher deals) of the GPUs this process sees, as many as its threads can
// keep busy.

#include <string_view>
#include <vector>

#include "engines/gpu/gpu_device_choice.hpp"

namespace nqueens::detail::gpu {

/// The GPUs a run counts on: `chosen` of `seen` (their identities), which
/// are NQUEENS_GPU's emulated node's (`emulated` of them) or the runtime's.
struct run_devices {
  int emulated = 0;
  std::vector<dealt_device> chosen;
  std::vector<device_identity> seen;
};

/// A thread drives one GPU at a time, so `threads` (resolved) keep at most
/// that many busy. A process with fewer threads than the GPUs it takes alone
/// is refused (std::invalid_argument), not left with some idle (mpirun binds
/// a rank of a small job to one core); where the node's ranks share the
/// GPUs, it takes as many as its threads from its node-local rank's place
/// on, so that the ranks' threads between them start on every GPU. Throws
/// as choose_devices and seen_devices do.
run_devices choose_run_devices(std::string_view devices, int threads);

}  // namespace nqueens::detail::gpu
