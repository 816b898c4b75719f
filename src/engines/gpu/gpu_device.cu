// The GPU engine's CUDA device: the tables copied once; per counting
// thread a stream and its memory, taken once when it opens, its share of the
// device (gpu_memory_share.hpp; never freed or grown mid-run); rounds of jobs
// launched on it, a launch per kernel per round (gpu_rounds.hpp). Every
// CUDA call and launch is checked; a result is only ever taken with its
// job's mark (gpu_backend.hpp's check_result).

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "engines/gpu/gpu_device.hpp"
#include "engines/gpu/gpu_kernels.hpp"
#include "engines/gpu/gpu_memory_share.hpp"
#include "engines/plain_number.hpp"

namespace nqueens::detail::gpu {

namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
  }
}

// The node-local rank of an MPI job (Open MPI, MPICH, Slurm), else 0: one
// rank per GPU. Read strictly: a rank atoi made 0 of would share GPU 0.
int local_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    if (const auto rank = environment_integer(name, 0, std::numeric_limits<int>::max())) return static_cast<int>(*rank);
  }
  return 0;
}

// How many processes count on each GPU of the node: NQUEENS_GPU_SHARERS
// where set (1 where each rank has a GPU of its own, which a rank cannot
// see), else the node's ranks (Open MPI, MPICH) over its GPUs, else 1. Not
// Slurm's job-wide task count: a plain run inside a batch job inherits it.
int gpu_sharers(int devices) {
  if (const auto asked = environment_integer("NQUEENS_GPU_SHARERS", 1, max_gpu_sharers)) {
    return static_cast<int>(*asked);
  }
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}) {
    if (const auto ranks = environment_integer(name, 1, std::numeric_limits<int>::max())) {
      return static_cast<int>((*ranks + std::max(devices, 1) - 1) / std::max(devices, 1));
    }
  }
  return 1;
}

template <class Kernel>
__global__ void __launch_bounds__(block_threads) kernel_of(const gpu_job* jobs, std::uint32_t count) {
  __shared__ typename Kernel::shared shared;
  for_each_item<Kernel>(jobs, count, blockIdx.x, gridDim.x, [&](const gpu_job& job, std::uint32_t item) {
    for (int phase = 0; phase < Kernel::phases; ++phase) {
      Kernel::run(phase, job, item, threadIdx.x, shared);
      __syncthreads();
    }
  });
}

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

class cuda_stream final : public gpu_stream {
 public:
  /// A stream with `bytes` of device memory in all.
  cuda_stream(int device, std::uint32_t max_grid, std::uint64_t bytes) : device_(device), max_grid_(max_grid) {
    try {
      check(cudaSetDevice(device_), "cudaSetDevice");
      check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
      check(cudaMalloc(&jobs_, round_jobs * sizeof(gpu_job)), "cudaMalloc (jobs)");
      check(cudaMalloc(&states_, round_jobs * sizeof(job_state)), "cudaMalloc (states)");
      check(cudaMalloc(&results_, round_jobs * sizeof(job_result)), "cudaMalloc (results)");
      check(cudaMallocHost(&host_jobs_, round_jobs * sizeof(gpu_job)), "cudaMallocHost (jobs)");
      check(cudaMallocHost(&host_results_, round_jobs * sizeof(job_result)), "cudaMallocHost (results)");
      constexpr std::uint64_t least_arena_words = std::uint64_t{1} << 17;  // 1 MiB
      if (bytes < stream_fixed_bytes + least_arena_words * sizeof(std::uint64_t)) {
        throw std::runtime_error("GPU engine: a stream gets " + std::to_string(bytes >> 20) +
                                 " MiB of device memory, too little: count with fewer threads (or set "
                                 "NQUEENS_GPU_SHARERS=1 where each rank has a GPU of its own)");
      }
      // Half as much while the device has too little free (another process
      // took it since the share was set), down to 1 MiB.
      arena_words_ = (bytes - stream_fixed_bytes) / sizeof(std::uint64_t);
      for (;;) {
        const cudaError_t status = cudaMalloc(&arena_, arena_words_ * sizeof(std::uint64_t));
        if (status == cudaSuccess) break;
        if (status != cudaErrorMemoryAllocation || arena_words_ / 2 < least_arena_words) {
          cudaGetLastError();
          throw std::runtime_error(std::string("GPU engine: no device memory for a stream (") +
                                   cudaGetErrorString(status) +
                                   "): other processes hold it, or count with fewer threads");
        }
        cudaGetLastError();
        arena_words_ /= 2;
      }
      // On this stream: a non-blocking stream does not wait for the legacy default one.
      check(cudaMemsetAsync(results_, 0xFF, round_jobs * sizeof(job_result), stream_), "cudaMemsetAsync (results)");
    } catch (...) {
      release();
      throw;
    }
  }
  ~cuda_stream() override { release(); }
  cuda_stream(const cuda_stream&) = delete;
  cuda_stream& operator=(const cuda_stream&) = delete;

  std::uint32_t max_jobs() const noexcept override { return round_jobs; }
  std::uint64_t* arena() const noexcept override { return arena_; }
  std::uint64_t arena_words() const noexcept override { return arena_words_; }
  job_state* state(std::uint32_t k) const noexcept override { return states_ + k; }
  job_result* result(std::uint32_t k) const noexcept override { return results_ + k; }

  std::span<const job_result> run(std::span<const gpu_job> jobs, round_kind round) override {
    try {
      return run_round(jobs, round);
    } catch (...) {
      // What was queued may still read the pinned jobs: wait for it before
      // the stream goes back to the pool (its own error is the one thrown).
      cudaStreamSynchronize(stream_);
      cudaGetLastError();
      throw;
    }
  }

  device_work work() const noexcept override {
    return {launches_.load(std::memory_order_relaxed), operations_.load(std::memory_order_relaxed)};
  }

  // The launcher launch_round calls.
  template <class Kernel>
  void run(std::uint64_t most_blocks) {
    const auto grid = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(most_blocks, 1, max_grid_));
    kernel_of<Kernel><<<grid, block_threads, 0, stream_>>>(jobs_, count_);
    check(cudaGetLastError(), "a launch of the GPU engine");
    launches_.fetch_add(1, std::memory_order_relaxed);
    count_operation();
  }

 private:
  std::span<const job_result> run_round(std::span<const gpu_job> jobs, round_kind round) {
    check(cudaSetDevice(device_), "cudaSetDevice");
    count_ = static_cast<std::uint32_t>(jobs.size());
    std::copy(jobs.begin(), jobs.end(), host_jobs_);
    check(cudaMemcpyAsync(jobs_, host_jobs_, count_ * sizeof(gpu_job), cudaMemcpyHostToDevice, stream_),
          "cudaMemcpyAsync (jobs)");
    count_operation();
    launch_round(*this, round, host_jobs_, count_);  // the bounds read the host's copy
    check(cudaMemcpyAsync(host_results_, results_, count_ * sizeof(job_result), cudaMemcpyDeviceToHost, stream_),
          "cudaMemcpyAsync (results)");
    count_operation();
    check(cudaStreamSynchronize(stream_), "a kernel of the GPU engine");
    count_operation();
    return {host_results_, count_};
  }

  void count_operation() noexcept { operations_.fetch_add(1, std::memory_order_relaxed); }

  // Frees what was made (null handles are no-ops).
  void release() noexcept {
    cudaSetDevice(device_);
    cudaFree(arena_);
    cudaFree(jobs_);
    cudaFree(states_);
    cudaFree(results_);
    cudaFreeHost(host_jobs_);
    cudaFreeHost(host_results_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }

  int device_;
  std::uint32_t max_grid_;
  cudaStream_t stream_ = nullptr;
  std::uint64_t* arena_ = nullptr;
  std::uint64_t arena_words_ = 0;
  gpu_job* jobs_ = nullptr;
  job_state* states_ = nullptr;
  job_result* results_ = nullptr;
  gpu_job* host_jobs_ = nullptr;  // pinned: the copies are asynchronous
  job_result* host_results_ = nullptr;
  std::uint32_t count_ = 0;
  std::atomic<std::uint64_t> launches_{0}, operations_{0};
};

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
    return std::make_unique<cuda_stream>(device_.index, max_grid, stream_bytes_);
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
