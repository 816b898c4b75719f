#pragma once

// The interface of the CUDA module behind the GPU engine. Its code
// (gpu_device.cu) is a module, libnqueens-gpu.so, built where CMake found
// CUDA and loaded when a GPU run first asks (gpu_device_loader.hpp): the CUDA
// runtime, linked statically into it, never reaches the tools' or the
// installed library's link line, so both build and run where there is no
// CUDA toolkit and no NVIDIA driver; there the probe says why no GPU is usable.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engines/gpu/gpu_backend.hpp"
#include "engines/gpu/gpu_device_choice.hpp"
#include "nqueens/device_work.hpp"

namespace nqueens::detail::gpu {

/// Whether the GPU engine can run here: a GPU the runtime sees (opening no
/// context on it; kernel_refusal checks a chosen GPU).
struct device_probe {
  bool usable = false;
  std::string description;  ///< how many GPUs and the first's name and memory, or why none is usable
};

/// What the module gives: the four functions gpu_device_loader.hpp calls. It exports one C
/// symbol, device_module_symbol, a function returning a pointer to this.
struct device_module {
  /// device_module_abi as the module was built: a library of another
  /// layout or interface (the leading number, raised when these functions
  /// change) refuses it rather than hand it jobs it would misread.
  std::uint64_t abi;
  device_probe (*probe)();
  std::vector<device_identity> (*visible)();
  std::string (*kernel_refusal)(int index);
  std::unique_ptr<gpu_backend> (*backend)(const half_board_tables* tables, dealt_device device, int streams,
                                          std::uint64_t most_stream_bytes);
};
inline constexpr std::uint64_t device_module_abi =
    (std::uint64_t{11} << 48) ^ (std::uint64_t{sizeof(gpu_job)} << 32) ^ (std::uint64_t{sizeof(job_state)} << 8) ^
    sizeof(job_result) ^ (std::uint64_t{sizeof(half_board_tables)} << 40) ^ (std::uint64_t{max_job_key_bits} << 56) ^
    (std::uint64_t{sizeof(device_work)} << 16);
inline constexpr const char* device_module_symbol = "nqueens_gpu_device_module";
inline constexpr const char* device_module_file = "libnqueens-gpu.so";

}  // namespace nqueens::detail::gpu
