// The GPU engine's CUDA devices: those the runtime sees, by index, UUID and
// name; a backend on each one a run takes (gpu_device_choice.hpp), refused
// with the reason when it has no image of the kernels, the quarter tables
// copied to it once, each of its streams opened with its share of the
// memory (gpu_cuda_stream.hpp).
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

namespace nqueens::detail::gpu {

namespace {

// Why the CUDA runtime sees no GPU, or empty when it sees `count` of them.
std::string runtime_refusal(int& count) {
  // One hardware queue per stream (CUDA's default of 8 would serialise 16
  // counting threads' streams in pairs); read when the context is made.
  // Once: a later probe (nqueens-mpi's ranks probe again) must not write the
  // environment while another thread may read it.
  static const bool connections_set = ::setenv("CUDA_DEVICE_MAX_CONNECTIONS", "32", /*overwrite=*/0) == 0;
  static_cast<void>(connections_set);
  count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status == cudaSuccess) return count == 0 ? "no CUDA device is visible" : "";
  cudaGetLastError();  // clear it: the process goes on without a GPU
  // The runtime calls a missing driver "insufficient": say which it is.
  int driver = 0;
  std::string why;
  if (cudaDriverGetVersion(&driver) != cudaSuccess || driver == 0) {
    why = "no NVIDIA driver is installed (libcuda.so.1 was not found)";
  } else if (status == cudaErrorInsufficientDriver) {
    why = "the NVIDIA driver supports CUDA " + std::to_string(driver / 1000) + "." +
          std::to_string(driver % 1000 / 10) + ", older than the CUDA " + std::to_string(CUDART_VERSION / 1000) + "." +
          std::to_string(CUDART_VERSION % 1000 / 10) + " this nqueens was built with: update the driver";
  } else {
    why = cudaGetErrorString(status);
  }
  cudaGetLastError();
  count = 0;
  return why;
}

// Why device `index` cannot run the kernels, or empty. They are built for
// NQUEENS_CUDA_ARCHITECTURES only: a GPU with no image for them is refused
// here, not at the first launch.
std::string image_refusal(int index, const cudaDeviceProp& properties) {
  check(cudaSetDevice(index), "cudaSetDevice");
  const cudaError_t image = kernel_image_status();
  if (image == cudaSuccess) return "";
  cudaGetLastError();
  return std::string(properties.name) + " (compute capability " + std::to_string(properties.major) + "." +
         std::to_string(properties.minor) + ") has no image of the kernels: " + cudaGetErrorString(image) +
         " (configure with -DNQUEENS_CUDA_ARCHITECTURES for it)";
}

// A UUID as nvidia-smi prints it: GPU-8-4-4-4-12 hex digits.
std::string uuid_text(const cudaUUID_t& uuid) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string text = "GPU-";
  for (int k = 0; k < 16; ++k) {
    if (k == 4 || k == 6 || k == 8 || k == 10) text += '-';
    const auto byte = static_cast<unsigned char>(uuid.bytes[k]);
    text += hex[byte >> 4];
    text += hex[byte & 15];
  }
  return text;
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
  cuda_backend(const half_board_tables* tables, dealt_device device, int streams, std::uint64_t most_stream_bytes)
      : device_(device) {
    check(cudaGetDeviceProperties(&properties_, device_.index), "cudaGetDeviceProperties");
    const std::string refusal = image_refusal(device_.index, properties_);
    if (!refusal.empty()) throw std::runtime_error("no usable GPU: " + refusal);
    // Without tables, each job brings its own quarters (staged with its round).
    const quarter_table* quarters[2] = {tables == nullptr ? nullptr : &tables->west(),
                                        tables == nullptr ? nullptr : &tables->east()};
    try {  // a half-built backend frees what it copied (15 GiB of tables at n = 24)
      for (int q = 0; q < 2 && tables != nullptr; ++q) {
        arrays_[q].offsets = device_copy(quarters[q]->offsets().data(), quarters[q]->offsets().size());
        arrays_[q].masks = device_copy(quarters[q]->masks().data(), quarters[q]->masks().size());
        arrays_[q].signatures = device_copy(quarters[q]->signatures().data(), quarters[q]->signatures().size());
      }
      // A copy from pageable memory may return before its last bytes land,
      // and the streams (non-blocking) do not wait for it: the first round
      // must not read a table's tail before it is there.
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (tables)");
      // What each stream may take (gpu_memory_share.hpp), with the processes
      // dealt this GPU (gpu_node_ranks.hpp); the cap is on the arena, beside
      // the stream's fixed buffers.
      std::size_t free = 0, total = 0;
      check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
      device_memory memory{free, total, 0, device_.sharers};
      for (const quarter_table* q : quarters) {
        if (q != nullptr)
          memory.tables += q->offsets().size_bytes() + q->masks().size_bytes() + q->signatures().size_bytes();
      }
      stream_bytes_ = stream_share(memory, streams, most_stream_bytes + stream_fixed_bytes_for(cuda_round_jobs()));
    } catch (...) {
      free_tables();
      throw;
    }
  }
  ~cuda_backend() override { free_tables(); }
  cuda_backend(const cuda_backend&) = delete;
  cuda_backend& operator=(const cuda_backend&) = delete;

  std::uint32_t round_jobs() const noexcept override { return cuda_round_jobs(); }
  std::unique_ptr<gpu_stream> open_stream() override {
    // Blocks enough to fill every SM several times over; a launch strides beyond.
    const auto max_grid = static_cast<std::uint32_t>(properties_.multiProcessorCount * 8);
    return open_cuda_stream(device_.index, max_grid, stream_bytes_);
  }
  quarter_arrays west() const noexcept override { return arrays_[0]; }
  quarter_arrays east() const noexcept override { return arrays_[1]; }
  std::string where() const override { return "GPU " + std::to_string(device_.index) + " (" + properties_.name + ")"; }

 private:
  void free_tables() noexcept {  // null pointers are no-ops
    cudaSetDevice(device_.index);
    for (const quarter_arrays& a : arrays_) {
      cudaFree(const_cast<std::uint32_t*>(a.offsets));
      cudaFree(const_cast<std::uint64_t*>(a.masks));
      cudaFree(const_cast<std::uint32_t*>(a.signatures));
    }
  }

  dealt_device device_;
  cudaDeviceProp properties_{};
  quarter_arrays arrays_[2];
  std::uint64_t stream_bytes_ = 0;
};

// Usable where the runtime sees a GPU: opens no context (each rank of a
// node would hold memory on the first GPU). Whether a chosen GPU has an
// image of the kernels is kernel_refusal's to say.
device_probe probe() {
  int count = 0;
  const std::string why = runtime_refusal(count);
  if (!why.empty()) return {false, why};
  cudaDeviceProp first{};
  check(cudaGetDeviceProperties(&first, 0), "cudaGetDeviceProperties");
  return {true, std::to_string(count) + (count == 1 ? " GPU, " : " GPUs, the first ") + first.name + " (" +
                    std::to_string(first.totalGlobalMem >> 20) + " MiB, " + std::to_string(first.multiProcessorCount) +
                    " SMs)"};
}

std::vector<device_identity> visible() {
  int count = 0;
  const std::string why = runtime_refusal(count);
  if (!why.empty()) throw std::runtime_error("no usable GPU: " + why);
  std::vector<device_identity> out;
  for (int index = 0; index < count; ++index) {
    cudaDeviceProp properties{};
    check(cudaGetDeviceProperties(&properties, index), "cudaGetDeviceProperties");
    out.push_back({index, uuid_text(properties.uuid), properties.name, properties.totalGlobalMem});
  }
  return out;
}

std::string kernel_refusal(int index) {
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, index), "cudaGetDeviceProperties");
  return image_refusal(index, properties);
}

std::unique_ptr<gpu_backend> backend(const half_board_tables* tables, dealt_device device, int streams,
                                     std::uint64_t most_stream_bytes) {
  return std::make_unique<cuda_backend>(tables, device, streams, most_stream_bytes);
}

const device_module module{device_module_abi, &probe, &visible, &kernel_refusal, &backend};

}  // namespace

}  // namespace nqueens::detail::gpu

// What gpu_device_loader.cpp looks up (device_module_symbol).
extern "C" __attribute__((visibility("default"))) const nqueens::detail::gpu::device_module*
nqueens_gpu_device_module() {
  return &nqueens::detail::gpu::module;
}
