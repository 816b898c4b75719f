#pragma once

// The GPU engine's calls into its CUDA module (gpu_device.hpp), loaded on the
// first: where no module or no GPU is found, each says why.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engines/gpu/gpu_device.hpp"

namespace nqueens::detail::gpu {

/// Whether the GPU engine can run here (device_probe).
device_probe probe_device();

/// Every GPU the runtime sees (CUDA_VISIBLE_DEVICES decides which), in its
/// order. Throws std::runtime_error when none is usable.
std::vector<device_identity> visible_devices();

/// Why GPU `index` cannot run the kernels (the module holds no image for
/// it), or empty. Throws std::runtime_error when a CUDA call fails.
std::string kernel_refusal(int index);

/// A backend on GPU `device.index`, the quarter tables copied to it (none
/// where `tables` is null: its jobs bring their own quarters), whose
/// `streams` streams share the device memory left with the device's other
/// sharers (gpu_memory_share.hpp), none taking more than
/// `most_stream_bytes`. Throws std::runtime_error when a CUDA call fails,
/// the GPU has no image of the kernels, or no module is found.
std::unique_ptr<gpu_backend> device_backend(const half_board_tables* tables, dealt_device device, int streams,
                                            std::uint64_t most_stream_bytes);

/// Where the module is looked for, in order: NQUEENS_GPU_MODULE alone
/// where it is set; else the directory the program names
/// (nqueens_gpu_module_directory, gpu_device_loader.cpp) alone; else
/// beside the program, then where the installed tools' module is from
/// their folder (../LIBDIR/nqueens). Never a path fixed when the library
/// was built.
std::vector<std::filesystem::path> device_module_places();

}  // namespace nqueens::detail::gpu
