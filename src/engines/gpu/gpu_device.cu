// The GPU engine's CUDA device: the one the node-local rank takes
// (gpu_node_ranks.hpp), refused with the reason when it has no image of the
// kernels; the quarter tables copied to it once; each counting thread's
// stream opened on it with its share of the memory (gpu_cuda_stream.hpp).
// Every CUDA call is checked; a result is only ever taken with its job's
// mark (gpu_backend.hpp's check_result).

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "engines/gpu/gpu_cuda_stream.hpp"
#include "engines/gpu/gpu_device.hpp"
#include "engines/gpu/gpu_memory_share.hpp"
#include "engines/gpu/gpu_node_ranks.hpp"

namespace nqueens::detail::gpu {

namespace {

struct chosen_device {
  int index = -1;
  cudaDeviceProp properties{};
  int sharers = 1;  // gpu_sharers, read when the device is chosen: a bad value is refused before any table is built
  std::string why;  // when none
};

chosen_device choose_device() {
  // One hardware queue per stream (CUDA's default of 8 would serialise 16
  // counting threads' streams in pairs); read when the context is made.
  ::setenv("CUDA_DEVICE_MAX_CONNECTIONS", "32", /*overwrite=*/0);
  chosen_device d;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear it: the process goes on without a GPU
    // The runtime calls a missing driver "insufficient": say which it is.
    int driver = 0;
    if (cudaDriverGetVersion(&driver) != cudaSuccess || driver == 0) {
      d.why = "no NVIDIA driver is installed (libcuda.so.1 was not found)";
    } else if (status == cudaErrorInsufficientDriver) {
      d.why = "the NVIDIA driver supports CUDA " + std::to_string(driver / 1000) + "." +
              std::to_string(driver % 1000 / 10) + ", older than the CUDA " + std::to_string(CUDART_VERSION / 1000) +
              "." + std::to_string(CUDART_VERSION % 1000 / 10) + " this nqueens was built with: update the driver";
    } else {
      d.why = cudaGetErrorString(status);
    }
    cudaGetLastError();
    return d;
  }
  if (count == 0) {
    d.why = "no CUDA device is visible";
    return d;
  }
  const int index = local_rank() % count;
  d.sharers = gpu_sharers(count);
  check(cudaGetDeviceProperties(&d.properties, index), "cudaGetDeviceProperties");
  // The kernels are built for NQUEENS_CUDA_ARCHITECTURES only: a GPU with no
  // image for them is refused here, not at the first launch.
  check(cudaSetDevice(index), "cudaSetDevice");
  const cudaError_t image = kernel_image_status();
  if (image != cudaSuccess) {
    cudaGetLastError();
    d.why = std::string(d.properties.name) + " (compute capability " + std::to_string(d.properties.major) + "." +
            std::to_string(d.properties.minor) + ") has no image of the kernels: " + cudaGetErrorString(image) +
            " (configure with -DNQUEENS_CUDA_ARCHITECTURES for it)";
    return d;
  }
  d.index = index;
  return d;
}

template <typename T>
T* device_copy(const T* host, std::size_t count) {
  T* out = nullptr;
  check(cudaMalloc(&out, std::max<std::size_t>(count, 1) * sizeof(T)), "cudaMalloc (tables)");
  if (count != 0) check(cudaMemcpy(out, host, count * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy (tables)");
  return out;
}

class cuda_backend final : public gpu_backend {
 public:
  cuda_backend(const half_board_tables& tables, int streams, std::uint64_t most_stream_bytes)
      : device_(choose_device()) {
    if (device_.index < 0) throw std::runtime_error("no usable GPU: " + device_.why);
    check(cudaSetDevice(device_.index), "cudaSetDevice");
    const quarter_table* quarters[2] = {&tables.west(), &tables.east()};
    try {  // a half-built backend frees what it copied (15 GiB of tables at n = 24)
      for (int q = 0; q < 2; ++q) {
        arrays_[q].offsets = device_copy(quarters[q]->offsets().data(), quarters[q]->offsets().size());
        arrays_[q].masks = device_copy(quarters[q]->masks().data(), quarters[q]->masks().size());
        arrays_[q].signatures = device_copy(quarters[q]->signatures().data(), quarters[q]->signatures().size());
      }
    } catch (...) {
      free_tables();
      throw;
    }
    // What each stream may take (gpu_memory_share.hpp): ranks of the node
    // spread over its GPUs round robin, as choose_device does; the cap is on
    // the arena, beside the stream's fixed buffers.
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    device_memory memory{free, total, 0, device_.sharers};
    for (const quarter_table* q : quarters) {
      memory.tables += q->offsets().size_bytes() + q->masks().size_bytes() + q->signatures().size_bytes();
    }
    stream_bytes_ = stream_share(memory, streams, most_stream_bytes + stream_fixed_bytes);
  }
  ~cuda_backend() override { free_tables(); }
  cuda_backend(const cuda_backend&) = delete;
  cuda_backend& operator=(const cuda_backend&) = delete;

  std::unique_ptr<gpu_stream> open_stream() override {
    // Blocks enough to fill every SM several times over; a launch strides beyond.
    const auto max_grid = static_cast<std::uint32_t>(device_.properties.multiProcessorCount * 8);
    return open_cuda_stream(device_.index, max_grid, stream_bytes_);
  }
  quarter_arrays west() const noexcept override { return arrays_[0]; }
  quarter_arrays east() const noexcept override { return arrays_[1]; }
  std::string where() const override { return device_.properties.name; }

 private:
  void free_tables() noexcept {  // null pointers are no-ops
    cudaSetDevice(device_.index);
    for (const quarter_arrays& a : arrays_) {
      cudaFree(const_cast<std::uint32_t*>(a.offsets));
      cudaFree(const_cast<std::uint64_t*>(a.masks));
      cudaFree(const_cast<std::uint32_t*>(a.signatures));
    }
  }

  chosen_device device_;
  quarter_arrays arrays_[2];
  std::uint64_t stream_bytes_ = 0;
};

device_probe probe() {
  const chosen_device d = choose_device();
  if (d.index < 0) return {false, d.why};
  return {true, std::string(d.properties.name) + " (device " + std::to_string(d.index) + ", " +
                    std::to_string(d.properties.totalGlobalMem >> 20) + " MiB, " +
                    std::to_string(d.properties.multiProcessorCount) + " SMs)"};
}

std::unique_ptr<gpu_backend> backend(const half_board_tables& tables, int streams, std::uint64_t most_stream_bytes) {
  return std::make_unique<cuda_backend>(tables, streams, most_stream_bytes);
}

const device_module module{device_module_abi, &probe, &backend};

}  // namespace

}  // namespace nqueens::detail::gpu

// What gpu_device_loader.cpp looks up (device_module_symbol).
extern "C" __attribute__((visibility("default"))) const nqueens::detail::gpu::device_module*
nqueens_gpu_device_module() {
  return &nqueens::detail::gpu::module;
}
