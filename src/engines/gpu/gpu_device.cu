// The GPU engine's CUDA device: the tables copied once, a stream and
// buffers per counting thread, the kernels of gpu_kernels.hpp launched in
// order on it. Every CUDA call and launch is checked; the job's state is
// poisoned before each subproblem, so a kernel that did not run leaves no
// finished mark, and a count is only ever returned with it.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "engines/gpu/gpu_device.hpp"
#include "engines/gpu/gpu_kernels.hpp"

namespace nqueens::detail::gpu {

namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
  }
}

// The node-local rank of an MPI job (Open MPI, MPICH, Slurm), else 0: one
// rank per GPU.
int local_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}

template <class Kernel>
__global__ void __launch_bounds__(block_threads) kernel_of(gpu_job job) {
  __shared__ typename Kernel::shared shared;
  const std::uint32_t items = Kernel::items(job);
  for (std::uint32_t item = blockIdx.x; item < items; item += gridDim.x) {
    for (int phase = 0; phase < Kernel::phases; ++phase) {
      Kernel::run(phase, job, item, threadIdx.x, shared);
      __syncthreads();
    }
  }
}

struct chosen_device {
  int index = -1;
  cudaDeviceProp properties{};
  std::string why;  // when none
};

chosen_device choose_device() {
  chosen_device d;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    d.why = cudaGetErrorString(status);
    cudaGetLastError();  // clear it: the process goes on without a GPU
    return d;
  }
  if (count == 0) {
    d.why = "no CUDA device is visible";
    return d;
  }
  const int index = local_rank() % count;
  check(cudaGetDeviceProperties(&d.properties, index), "cudaGetDeviceProperties");
  // The kernels are built for NQUEENS_CUDA_ARCHITECTURES only: a GPU with no
  // image for them is refused here, not at the first launch.
  cudaFuncAttributes attributes{};
  check(cudaSetDevice(index), "cudaSetDevice");
  const cudaError_t image = cudaFuncGetAttributes(&attributes, kernel_of<clear_kernel>);
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

// What the host reads back: the job_state from `pairs` on.
constexpr std::size_t tail_offset = offsetof(job_state, pairs);
constexpr std::size_t tail_bytes = sizeof(job_state) - tail_offset;

class cuda_stream final : public gpu_stream {
 public:
  cuda_stream(int device, std::uint32_t max_grid) : device_(device), max_grid_(max_grid) {
    try {
      check(cudaSetDevice(device_), "cudaSetDevice");
      check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
      check(cudaMalloc(&state_, sizeof(job_state)), "cudaMalloc (state)");
      check(cudaMallocHost(&tail_, sizeof(job_state)), "cudaMallocHost");
    } catch (...) {
      release();
      throw;
    }
  }
  ~cuda_stream() override { release(); }
  cuda_stream(const cuda_stream&) = delete;
  cuda_stream& operator=(const cuda_stream&) = delete;

  pair_counts pairs(gpu_job job) override {
    check(cudaSetDevice(device_), "cudaSetDevice");
    for (int g = 0; g < 2; ++g) {
      if (job.capacity[g] + std::size_t{1} > size_[g]) {
        check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
        cudaFree(halves_[g]);
        cudaFree(codes_[g]);
        halves_[g] = codes_[g] = nullptr;
        size_[g] = 0;
        const std::size_t size = job.capacity[g] + std::size_t{1} + job.capacity[g] / 4;  // room to grow
        check(cudaMalloc(&halves_[g], size * sizeof(std::uint64_t)), "cudaMalloc (halves)");
        check(cudaMalloc(&codes_[g], size * sizeof(std::uint64_t)), "cudaMalloc (codes)");
        size_[g] = size;
      }
      job.halves[g] = halves_[g];
      job.codes[g] = codes_[g];
      job.once_list[g] = codes_[g];  // free until scatter
    }
    job.state = state_;
    job_ = &job;
    check(cudaMemsetAsync(state_, 0xFF, sizeof(job_state), stream_), "cudaMemsetAsync (poison)");
    launch_subproblem(*this, job);
    check(cudaMemcpyAsync(reinterpret_cast<char*>(tail_) + tail_offset, reinterpret_cast<char*>(state_) + tail_offset,
                          tail_bytes, cudaMemcpyDeviceToHost, stream_),
          "cudaMemcpyAsync (result)");
    check(cudaStreamSynchronize(stream_), "a kernel of the GPU engine");
    check_finished(*tail_, job);
    return {tail_->pairs, tail_->once};
  }

  // The launcher launch_subproblem calls.
  template <class Kernel>
  void run(std::uint32_t most_blocks) {
    const std::uint32_t grid = std::clamp<std::uint32_t>(most_blocks, 1, max_grid_);
    kernel_of<Kernel><<<grid, block_threads, 0, stream_>>>(*job_);
    check(cudaGetLastError(), "a launch of the GPU engine");
  }

 private:
  // Frees what was made (null handles are no-ops).
  void release() noexcept {
    cudaSetDevice(device_);
    for (int g = 0; g < 2; ++g) {
      cudaFree(halves_[g]);
      cudaFree(codes_[g]);
    }
    cudaFree(state_);
    cudaFreeHost(tail_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }

  int device_;
  std::uint32_t max_grid_;
  cudaStream_t stream_ = nullptr;
  std::uint64_t* halves_[2] = {};
  std::uint64_t* codes_[2] = {};
  std::size_t size_[2] = {};
  job_state* state_ = nullptr;
  job_state* tail_ = nullptr;  // pinned: the copy back is asynchronous
  const gpu_job* job_ = nullptr;
};

class cuda_backend final : public gpu_backend {
 public:
  explicit cuda_backend(const half_board_tables& tables) : device_(choose_device()) {
    if (device_.index < 0) throw std::runtime_error("no usable GPU: " + device_.why);
    check(cudaSetDevice(device_.index), "cudaSetDevice");
    const quarter_table* quarters[2] = {&tables.west(), &tables.east()};
    for (int q = 0; q < 2; ++q) {
      arrays_[q] = {device_copy(quarters[q]->offsets().data(), quarters[q]->offsets().size()),
                    device_copy(quarters[q]->masks().data(), quarters[q]->masks().size()),
                    device_copy(quarters[q]->signatures().data(), quarters[q]->signatures().size())};
    }
  }
  ~cuda_backend() override {
    cudaSetDevice(device_.index);
    for (const quarter_arrays& a : arrays_) {
      cudaFree(const_cast<std::uint32_t*>(a.offsets));
      cudaFree(const_cast<std::uint64_t*>(a.masks));
      cudaFree(const_cast<std::uint32_t*>(a.signatures));
    }
  }
  cuda_backend(const cuda_backend&) = delete;
  cuda_backend& operator=(const cuda_backend&) = delete;

  std::unique_ptr<gpu_stream> open_stream() override {
    // Blocks enough to fill every SM several times over; a launch strides beyond.
    const auto max_grid = static_cast<std::uint32_t>(device_.properties.multiProcessorCount * 8);
    return std::make_unique<cuda_stream>(device_.index, max_grid);
  }
  quarter_arrays west() const noexcept override { return arrays_[0]; }
  quarter_arrays east() const noexcept override { return arrays_[1]; }
  std::string where() const override { return device_.properties.name; }

 private:
  chosen_device device_;
  quarter_arrays arrays_[2];
};

}  // namespace

device_probe probe_device() {
  const chosen_device d = choose_device();
  if (d.index < 0) return {false, d.why};
  return {true, std::string(d.properties.name) + " (device " + std::to_string(d.index) + ", " +
                    std::to_string(d.properties.totalGlobalMem >> 20) + " MiB, " +
                    std::to_string(d.properties.multiProcessorCount) + " SMs)"};
}

std::unique_ptr<gpu_backend> device_backend(const half_board_tables& tables) {
  return std::make_unique<cuda_backend>(tables);
}

}  // namespace nqueens::detail::gpu
