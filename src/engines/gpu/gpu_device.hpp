#pragma once

// The CUDA device behind the GPU engine: gpu_device.cu where CMake found
// CUDA, gpu_device_absent.cpp (which says so) where it did not. The CUDA
// runtime is linked statically and reaches the driver at run time, so the
// binaries start on machines without the NVIDIA driver; there the probe
// says why no GPU is usable.

#include <memory>
#include <string>

#include "engines/gpu/gpu_backend.hpp"

namespace nqueens::detail::gpu {

/// The device a process uses: for MPI, the node-local rank's (one rank per
/// GPU, round robin), else the first.
struct device_probe {
  bool usable = false;
  std::string description;  ///< the GPU's name and memory, or why none is usable
};
device_probe probe_device();

/// A backend on the probed device, the quarter tables copied to it, whose
/// `streams` streams share the device memory left. Throws
/// std::runtime_error when a CUDA call fails.
std::unique_ptr<gpu_backend> device_backend(const half_board_tables& tables, int streams);

}  // namespace nqueens::detail::gpu
