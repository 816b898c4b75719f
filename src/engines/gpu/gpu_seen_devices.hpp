#pragma once

// The GPUs this process sees: the CUDA runtime's, or the emulator's node
// where NQUEENS_GPU asks for it. What a GPU run chooses from, and what
// nqueens-mpi compares across a node's ranks to tell which share GPUs.

#include <vector>

#include "engines/gpu/gpu_device_choice.hpp"

namespace nqueens::detail::gpu {

/// Which backend NQUEENS_GPU asks for: the devices (unset, empty or
/// "device"), or the emulator ("emulate": one emulated GPU; "emulate:N" a
/// node of N). Returns the emulated devices, 0 for the real ones. Throws
/// std::invalid_argument for any other value.
int emulated_devices();

/// The GPUs this process sees (emulated_node's, or visible_devices'), in
/// their order. Throws as those do, and as emulated_devices does.
std::vector<device_identity> seen_devices();

}  // namespace nqueens::detail::gpu
