#include <algorithm>
#include <array>
#include <atomic>
#include <span>
#include <stdexcept>
#include <string>

#include "engines/gpu/gpu_cuda_stream.hpp"
#include "engines/gpu/gpu_kernels.hpp"
#include "engines/gpu/gpu_memory_share.hpp"
#include "engines/gpu/gpu_stream_tally.hpp"
#include "nqueens/device_work.hpp"

/// 0: a host thread waits for its stream's round blocked on an event (the
/// driver wakes it), using no core meanwhile. 1 builds the module that
/// waits as the runtime does by default (scripts/gpu.sh ab's `spin`): it
/// spins a core for each waiting thread where the host has the cores, and a
/// Q(22) of 16 streams on an H200 took 798 CPU-seconds in 50 s, every core
/// of the host, which the quarter lists past n = 24 and other processes need.
#ifndef NQUEENS_GPU_WAIT_SPIN
#define NQUEENS_GPU_WAIT_SPIN 0
#endif

/// 1: every kernel asks for the most shared memory an SM has (the carveout,
/// a hint the driver takes): 16 streams' kernels share the SMs, and an SM
/// the driver set up with less for another stream's kernel may hold fewer
/// visit blocks than the six that 228 KiB take. L1 keeps the rest, 28 KiB.
/// 0 builds the module that leaves the choice to the driver (scripts/gpu.sh
/// ab's `carveout`).
#ifndef NQUEENS_GPU_MAX_SHARED_CARVEOUT
#define NQUEENS_GPU_MAX_SHARED_CARVEOUT 1
#endif

/// 1: each round's copies and launches replayed as one CUDA graph, made
/// the first time a stream runs a round of its kind, size and visit: one
/// call to the driver a round where there are a dozen, against the fixed
/// cost a subproblem took at small n on the H200 (30-56 us of the whole
/// GPU, docs/performance.md). A graph's grids are fixed, so every kernel
/// takes the most blocks (those past its items end at once). Untimed runs
/// alone: NQUEENS_GPU_TIMES=1 launches each kernel between its events.
/// 0 until a device has timed it (scripts/gpu.sh ab's `graphs`).
#ifndef NQUEENS_GPU_ROUND_GRAPHS
#define NQUEENS_GPU_ROUND_GRAPHS 0
#endif

/// 1: a call's jobs whose group_bounds fit the stream's arena go to a count
/// round with no round of sizes before it (gpu_rounds.hpp): two launches,
/// two copies and a wait fewer a call, where a small board's call cost the
/// H200 more than its work. 0 builds the module that sizes every call on
/// the device first, as before (scripts/gpu.sh ab's `device_sizes`).
#ifndef NQUEENS_GPU_HOST_SIZES
#define NQUEENS_GPU_HOST_SIZES 1
#endif

namespace nqueens::detail::gpu {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
  }
}

namespace {

// The blocks an SM must keep resident where a kernel asks (its min_blocks):
// the compiler keeps its registers within them.
template <class Kernel>
constexpr int min_blocks_of() {
  if constexpr (requires { Kernel::min_blocks; }) {
    return Kernel::min_blocks;
  } else {
    return 0;  // none asked: the compiler's choice, as with no second bound
  }
}

template <class Kernel>
__global__ void __launch_bounds__(block_threads, min_blocks_of<Kernel>())
    kernel_of(const gpu_job* jobs, std::uint32_t count) {
  static_assert(deals_one_way<Kernel>, "a counter-dealt kernel looks for a stop as it takes an item");
  __shared__ typename Kernel::shared shared;
  __shared__ round_items_for<Kernel> round;
  __shared__ std::uint32_t taken;
  round.template count<Kernel>(jobs, count, threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) round.add_up(count);
  __syncthreads();
  if constexpr (counter_dealt<Kernel>) {
    static_assert(round_jobs <= block_threads, "a thread faults each job");
    if (!counter_deals(round.before[count], gridDim.x)) {  // the same for every block
      if (threadIdx.x < count) raise_fault(*jobs[threadIdx.x].state, job_fault::counter_overflow);
      return;
    }
  }
  std::uint32_t takes = 0;  // the items this block took (thread 0's, where dealt by the counter)
  for (std::uint64_t item = blockIdx.x;; item += gridDim.x) {
    if constexpr (counter_dealt<Kernel>) {
      // Once the run is stopped, past every item (finish faults the jobs).
      if (threadIdx.x == 0) {
        const bool look = takes++ % items_between_stop_looks == 0;
        taken = look && stop_set(jobs[0].stop) ? UINT32_MAX : atomic_add(round_counter(jobs), 1U);
      }
      __syncthreads();
      // Read by every thread before the phases' barriers: thread 0 writes
      // the next only after the last of them.
      item = taken;
    }
    if (item >= round.before[count]) return;  // the same for the whole block
    if constexpr (looks_for_stop<Kernel>) {
      if (takes++ % items_between_stop_looks == 0) {  // every thread counts: the same for the whole block
        if (threadIdx.x == 0) taken = stop_set(jobs[0].stop) ? 1U : 0U;
        __syncthreads();
        if (taken != 0) return;  // as above, read before the phases' barriers
      }
    }
    const std::uint32_t j = round.job_of(count, item);
    for (int phase = 0; phase < Kernel::phases; ++phase) {
      Kernel::run(phase, jobs[j], static_cast<std::uint32_t>(item - round.before[j]), threadIdx.x, shared);
      __syncthreads();
    }
  }
}

class cuda_stream final : public gpu_stream {
 public:
  /// A stream with `bytes` of device memory in all.
  cuda_stream(int device, std::uint32_t max_grid, std::uint64_t bytes) : device_(device), max_grid_(max_grid) {
    try {
      check(cudaSetDevice(device_), "cudaSetDevice");
      check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
      if constexpr (!wait_spins) {
        check(cudaEventCreateWithFlags(&round_done_, cudaEventBlockingSync | cudaEventDisableTiming),
              "cudaEventCreateWithFlags");
      }
      if (timed_) {
        for (std::size_t k = 0; k < began_.size(); ++k) {
          check(cudaEventCreate(&began_[k]), "cudaEventCreate");
          check(cudaEventCreate(&ended_[k]), "cudaEventCreate");
        }
      }
      check(cudaMalloc(&jobs_, round_jobs * sizeof(gpu_job)), "cudaMalloc (jobs)");
      check(cudaMalloc(&states_, round_jobs * sizeof(job_state)), "cudaMalloc (states)");
      check(cudaMalloc(&results_, round_jobs * sizeof(job_result)), "cudaMalloc (results)");
      check(cudaMallocHost(&host_jobs_, round_jobs * sizeof(gpu_job)), "cudaMallocHost (jobs)");
      check(cudaMallocHost(&host_results_, round_jobs * sizeof(job_result)), "cudaMallocHost (results)");
      // Host memory the kernels read directly: the host stops a round
      // mid-kernel by writing it.
      check(cudaHostAlloc(&host_stop_, sizeof(std::uint32_t), cudaHostAllocMapped), "cudaHostAlloc (stop)");
      *host_stop_ = 0;
      check(cudaHostGetDevicePointer(&device_stop_, host_stop_, 0), "cudaHostGetDevicePointer (stop)");
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
  bool sizes_on_host() const noexcept override { return NQUEENS_GPU_HOST_SIZES != 0; }
  std::uint64_t* arena() const noexcept override { return arena_; }
  std::uint64_t arena_words() const noexcept override { return arena_words_; }
  job_state* state(std::uint32_t k) const noexcept override { return states_ + k; }
  job_result* result(std::uint32_t k) const noexcept override { return results_ + k; }

  std::span<const job_result> run(std::span<const gpu_job> jobs, round_kind round) override {
    try {
      return run_round(jobs, round);
    } catch (...) {
      // What was queued may still read the pinned jobs: wait for it before
      // the stream goes back to the pool (its own error is the one thrown);
      // a copy not issued is dropped, never run from lists freed since.
      cudaStreamSynchronize(stream_);
      cudaGetLastError();
      staged_.clear();
      launched_.fill(false);  // their times are not read: no later round adds them
      throw;
    }
  }

  device_work work() const noexcept override { return tally_.work(); }

  void stage(const void* from, std::uint64_t bytes, std::uint64_t* to) override {
    staged_.push_back({from, static_cast<std::size_t>(bytes), to});
  }

  std::uint32_t* stop_word() const noexcept override { return device_stop_; }
  void stop() noexcept override { std::atomic_ref<std::uint32_t>(*host_stop_).store(1, std::memory_order_relaxed); }
  bool stopped() const noexcept override {
    return std::atomic_ref<std::uint32_t>(*host_stop_).load(std::memory_order_relaxed) != 0;
  }
  void clear_stop() noexcept override {
    std::atomic_ref<std::uint32_t>(*host_stop_).store(0, std::memory_order_relaxed);
  }

  // The launcher launch_round calls. Where asked, an event before and after
  // the launch (each kernel runs at most once a round), read once the round
  // has been waited for (read_kernel_times).
  template <class Kernel, std::size_t Slot>
  void run(std::uint64_t most_blocks) {
    // graph_for asks the carveout before a capture, which takes no such call.
    if constexpr (max_shared_carveout) {
      if (!capturing_) prefer_most_shared(kernel_of<Kernel>);
    }
    if (configuring_) return;
    const auto grid =
        capturing_ ? max_grid_ : static_cast<std::uint32_t>(std::clamp<std::uint64_t>(most_blocks, 1, max_grid_));
    if (timed_) check(cudaEventRecord(began_[Slot], stream_), "cudaEventRecord");
    kernel_of<Kernel><<<grid, block_threads, 0, stream_>>>(jobs_, count_);
    check(cudaGetLastError(), "a launch of the GPU engine");
    if (timed_) {
      check(cudaEventRecord(ended_[Slot], stream_), "cudaEventRecord");
      launched_[Slot] = true;
    }
    if (capturing_) {
      ++captured_launches_;  // counted as the graph runs
    } else {
      tally_.count_launch();
    }
  }

 private:
  std::span<const job_result> run_round(std::span<const gpu_job> jobs, round_kind round) {
    tally_.round_began();
    check(cudaSetDevice(device_), "cudaSetDevice");
    // From pageable memory: each call returns once its bytes are staged,
    // so the host's lists are free when the round has run.
    for (const staged_copy& c : staged_) {
      check(cudaMemcpyAsync(c.to, c.from, c.bytes, cudaMemcpyHostToDevice, stream_), "cudaMemcpyAsync (quarters)");
      tally_.count_staged(c.bytes);
    }
    staged_.clear();
    count_ = static_cast<std::uint32_t>(jobs.size());
    std::copy(jobs.begin(), jobs.end(), host_jobs_);
    if (round_graphs && !timed_) {
      const round_graph& graph = graph_for(round);
      check(cudaGraphLaunch(graph.exec, stream_), "cudaGraphLaunch");
      for (std::uint32_t k = 0; k < graph.launches; ++k) tally_.count_launch();
    } else {
      enqueue_round(round);  // its launches counted by run()
    }
    tally_.count_operation();  // the jobs copied in
    tally_.count_operation();  // the results copied back
    tally_.round_submitted();
    wait_for_round();
    tally_.count_operation();
    tally_.round_ended();
    if (timed_) read_kernel_times();
    return {host_results_, count_};
  }

  // A round's copies and launches, on the stream or into its capture.
  void enqueue_round(round_kind round) {
    check(cudaMemcpyAsync(jobs_, host_jobs_, count_ * sizeof(gpu_job), cudaMemcpyHostToDevice, stream_),
          "cudaMemcpyAsync (jobs)");
    launch_round(*this, round, host_jobs_, count_);  // the bounds read the host's copy
    check(cudaMemcpyAsync(host_results_, results_, count_ * sizeof(job_result), cudaMemcpyDeviceToHost, stream_),
          "cudaMemcpyAsync (results)");
  }

  // The graph of rounds of this kind, count_ jobs and the visit the jobs
  // in host_jobs_ take (NQUEENS_GPU_ROUND_GRAPHS), captured the first time.
  // The copies read and write the pinned buffers as the graph runs, and the
  // kernels take jobs_ and count_, the same for every round it serves.
  struct round_graph {
    cudaGraphExec_t exec = nullptr;
    std::uint32_t launches = 0;
  };
  const round_graph& graph_for(round_kind round) {
    // A round of sizes launches no visit: one graph whatever the jobs' digits.
    const bool counts = round == round_kind::counts;
    const std::size_t variant = (counts ? 2 : 0) + (counts && round_takes_wide_visit(host_jobs_, count_) ? 1 : 0);
    round_graph& graph = graphs_[variant * (round_jobs + 1) + count_];
    if (graph.exec != nullptr) return graph;
    configuring_ = true;
    try {
      launch_round(*this, round, host_jobs_, count_);
    } catch (...) {
      configuring_ = false;
      throw;
    }
    configuring_ = false;
    check(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
    capturing_ = true;
    captured_launches_ = 0;
    cudaGraph_t captured = nullptr;
    try {
      enqueue_round(round);
    } catch (...) {
      capturing_ = false;
      cudaStreamEndCapture(stream_, &captured);  // the stream out of capture, its error the one thrown
      if (captured != nullptr) cudaGraphDestroy(captured);
      throw;
    }
    capturing_ = false;
    check(cudaStreamEndCapture(stream_, &captured), "cudaStreamEndCapture");
    cudaGraphExec_t exec = nullptr;  // cached only once made: a failed one is no handle
    const cudaError_t made = cudaGraphInstantiate(&exec, captured, 0);
    cudaGraphDestroy(captured);
    check(made, "cudaGraphInstantiate");
    graph.exec = exec;
    graph.launches = captured_launches_;
    return graph;
  }

  // The carveout (NQUEENS_GPU_MAX_SHARED_CARVEOUT) asked for each kernel
  // once a stream, on its device (run_round made it current).
  template <class Function>
  void prefer_most_shared(Function* kernel) {
    const auto* key = reinterpret_cast<const void*>(kernel);
    const auto asked = preferred_.begin() + preferred_count_;
    if (std::find(preferred_.begin(), asked, key) != asked) return;
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared),
          "cudaFuncSetAttribute (carveout)");
    if (preferred_count_ < preferred_.size()) preferred_[preferred_count_++] = key;
  }

  // Until what the stream was given has run; an error of a kernel of the
  // round is raised here.
  void wait_for_round() {
    if constexpr (wait_spins) {
      check(cudaStreamSynchronize(stream_), "a kernel of the GPU engine");
    } else {
      check(cudaEventRecord(round_done_, stream_), "cudaEventRecord");
      check(cudaEventSynchronize(round_done_), "a kernel of the GPU engine");
    }
  }

  // Adds each kernel the round launched its time between its events.
  void read_kernel_times() {
    for (std::size_t k = 0; k < launched_.size(); ++k) {
      if (!launched_[k]) continue;
      launched_[k] = false;
      float milliseconds = 0;
      check(cudaEventElapsedTime(&milliseconds, began_[k], ended_[k]), "cudaEventElapsedTime");
      tally_.add_time(k, static_cast<std::uint64_t>(static_cast<double>(milliseconds) * 1e6));
    }
  }

  // Frees what was made (null handles are no-ops).
  void release() noexcept {
    cudaSetDevice(device_);
    cudaFree(arena_);
    cudaFree(jobs_);
    cudaFree(states_);
    cudaFree(results_);
    cudaFreeHost(host_jobs_);
    cudaFreeHost(host_results_);
    cudaFreeHost(host_stop_);
    for (std::size_t k = 0; k < began_.size(); ++k) {
      if (began_[k] != nullptr) cudaEventDestroy(began_[k]);
      if (ended_[k] != nullptr) cudaEventDestroy(ended_[k]);
    }
    if (round_done_ != nullptr) cudaEventDestroy(round_done_);
    for (const round_graph& graph : graphs_) {
      if (graph.exec != nullptr) cudaGraphExecDestroy(graph.exec);
    }
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }

  static constexpr bool wait_spins = NQUEENS_GPU_WAIT_SPIN != 0;
  static constexpr bool max_shared_carveout = NQUEENS_GPU_MAX_SHARED_CARVEOUT != 0;
  static constexpr bool round_graphs = NQUEENS_GPU_ROUND_GRAPHS != 0;

  int device_;
  std::uint32_t max_grid_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t round_done_ = nullptr;  // blocking: waited for without spinning (wait_for_round)
  std::uint64_t* arena_ = nullptr;
  std::uint64_t arena_words_ = 0;
  gpu_job* jobs_ = nullptr;
  job_state* states_ = nullptr;
  job_result* results_ = nullptr;
  gpu_job* host_jobs_ = nullptr;  // pinned: the copies are asynchronous
  job_result* host_results_ = nullptr;
  std::uint32_t* host_stop_ = nullptr;    // mapped: the stop word, as the host writes it
  std::uint32_t* device_stop_ = nullptr;  // and as the kernels read it
  std::uint32_t count_ = 0;
  stream_tally tally_;
  bool timed_ = kernel_times_asked();  // NQUEENS_GPU_TIMES, read as the stream opens
  std::array<cudaEvent_t, device_kernel_names.size()> began_{}, ended_{};
  std::array<bool, device_kernel_names.size()> launched_{};
  std::array<const void*, device_kernel_names.size() + 1> preferred_{};  // the kernels, both visits among them
  std::size_t preferred_count_ = 0;
  // NQUEENS_GPU_ROUND_GRAPHS: a graph for each round kind and visit (2 x 2)
  // and job count (0 to round_jobs), and the state of graph_for's capture.
  std::array<round_graph, 4 * (round_jobs + 1)> graphs_{};
  bool configuring_ = false, capturing_ = false;
  std::uint32_t captured_launches_ = 0;
  struct staged_copy {
    const void* from;
    std::size_t bytes;
    std::uint64_t* to;
  };
  std::vector<staged_copy> staged_;  // for the next round
};

}  // namespace

cudaError_t kernel_image_status() {
  cudaFuncAttributes attributes{};
  return cudaFuncGetAttributes(&attributes, kernel_of<clear_kernel>);
}

std::unique_ptr<gpu_stream> open_cuda_stream(int device, std::uint32_t max_grid, std::uint64_t bytes) {
  return std::make_unique<cuda_stream>(device, max_grid, bytes);
}

std::uint32_t cuda_round_jobs() noexcept { return round_jobs; }

}  // namespace nqueens::detail::gpu
