#pragma once

// A CUDA stream of the GPU engine (gpu_cuda_stream.cu): its memory, taken
// once when it opens (its share of the device, gpu_memory_share.hpp; never
// freed or grown mid-run), and its rounds of jobs, a launch per kernel per
// round (gpu_rounds.hpp). Every CUDA call and launch is checked. Only the
// module's CUDA sources include this.

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>

#include "engines/gpu/gpu_backend.hpp"

namespace nqueens::detail::gpu {

/// Throws std::runtime_error naming `what` unless `status` is cudaSuccess.
void check(cudaError_t status, const char* what);

/// Whether the module holds an image of the kernels for the current
/// device (cudaFuncGetAttributes of one of them): cudaSuccess, or why not.
cudaError_t kernel_image_status();

/// A stream on `device` with `bytes` of device memory in all, launching at
/// most `max_grid` blocks. Throws std::runtime_error when the memory is too
/// little or not there.
std::unique_ptr<gpu_stream> open_cuda_stream(int device, std::uint32_t max_grid, std::uint64_t bytes);

/// Jobs its streams' rounds hold (round_jobs as this file's kernels were
/// built: a candidate module may differ from the device's opening, built once).
std::uint32_t cuda_round_jobs() noexcept;

}  // namespace nqueens::detail::gpu
