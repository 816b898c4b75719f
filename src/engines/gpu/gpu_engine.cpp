// The GPU engine's plan, run context and registry entry: the quadrant
// engine's subproblems (one per class of north column sets under the mirror
// and the flip, weighted), counted on a CUDA device by the kernels of
// gpu_kernels.hpp (the half joins, the transposition filter, the keying and
// the pair count), a round of subproblems per launch
// (gpu_rounds.hpp). A subproblem counts what the quadrant engine's
// does; a slice of a class takes the north row sets of its rank modulo the
// slices (not the quadrant engine's slices), so the plan has its own
// fingerprint, and per-subproblem counts are the same on every run, as
// journals, shards and MPI need.
//
// Where no GPU is usable it refuses before counting; NQUEENS_GPU=emulate
// runs the same kernels on the CPU (gpu_emulator.hpp), which is how every
// test of the suite's engine axis reaches them on machines without a GPU.

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "engines/engine.hpp"
#include "engines/fingerprint.hpp"
#include "engines/gpu/gpu_backend.hpp"
#include "engines/gpu/gpu_device.hpp"
#include "engines/gpu/gpu_emulator.hpp"
#include "engines/gpu/gpu_memory_share.hpp"
#include "engines/gpu/gpu_rounds.hpp"
#include "engines/join_model/class_plan.hpp"
#include "engines/join_model/quadrant_memory.hpp"

namespace nqueens::detail {

namespace {

// Which backend NQUEENS_GPU asks for: the device (unset, empty or
// "device"), or the emulator ("emulate").
bool emulation_asked() {
  const char* asked = std::getenv("NQUEENS_GPU");
  if (asked == nullptr || std::string_view(asked).empty() || std::string_view(asked) == "device") return false;
  if (std::string_view(asked) == "emulate") return true;
  throw std::invalid_argument("NQUEENS_GPU='" + std::string(asked) +
                              "' names no GPU backend: expected device or emulate");
}

class gpu_plan final : public class_plan {
 public:
  using class_plan::class_plan;

  // The quadrant engine's share of each class, but sliced by north row set.
  void add_to_fingerprint(fnv1a& hash, const std::atomic<bool>* cancel) const override {
    add_tasks_to_fingerprint(hash, cancel, "gpu: transposition share (ranked rows), slices by north row set");
  }

  std::unique_ptr<engine_context> make_context(isa kernels, int threads, std::uint64_t max_memory,
                                               const std::atomic<bool>* cancel) const override;
};

// A stream with its rounds and the host's lists of one batch, grown once.
struct counting_stream {
  explicit counting_stream(std::unique_ptr<gpu::gpu_stream> s) : stream(std::move(s)), rounds(*stream) {}
  std::unique_ptr<gpu::gpu_stream> stream;
  gpu::gpu_rounds rounds;
  std::vector<gpu::gpu_job> jobs;
  std::vector<gpu::pair_counts> counts;
  std::vector<std::uint64_t> weights;
};

class gpu_context final : public engine_context {
 public:
  gpu_context(const gpu_plan& plan, bool emulated, int threads, const std::atomic<bool>* cancel)
      : plan_(plan),
        tables_(plan.board_size(), cancel),
        backend_(emulated
                     ? gpu::emulated_backend(tables_)
                     : gpu::device_backend(tables_, std::max(threads, 1),
                                           gpu::most_useful_stream_bytes(largest_group_halves(plan.board_size())))),
        tasks_(plan),
        most_streams_(static_cast<std::size_t>(std::max(threads, 1))) {}

  subproblem_count solve(std::size_t index, const std::atomic<bool>* cancel) override {
    subproblem_count c;
    solve_batch({&index, 1}, {&c, 1}, cancel);
    return c;
  }

  std::size_t batch_size() const noexcept override { return gpu_batch; }

  void solve_batch(std::span<const std::size_t> indices, std::span<subproblem_count> out,
                   const std::atomic<bool>* cancel) override {
    const stream_lease lease(*this);
    counting_stream& s = lease.stream();
    s.jobs.clear();
    s.weights.clear();
    for (const std::size_t index : indices) {
      const quadrant_task task = tasks_[index];
      s.jobs.push_back(gpu::job_for(task, plan_.split_depth(), tables_, *backend_));
      s.weights.push_back(task.weight);
    }
    s.counts.assign(indices.size(), gpu::pair_counts{});
    s.rounds.count(s.jobs, s.counts, cancel);
    for (std::size_t k = 0; k < indices.size(); ++k)
      out[k] = {gpu::solutions_of(s.jobs[k], s.counts[k], s.weights[k]), 0};
  }

  device_work device() const noexcept override {
    const std::lock_guard lock(mutex_);
    device_work sum;
    for (const auto& s : streams_) {
      sum += s->stream->work();
    }
    return sum;
  }

 private:
  /// Subproblems per call: a round's worth.
  static constexpr std::size_t gpu_batch = gpu::round_jobs;

  // A stream of the context's, this thread's until the lease ends: one of
  // those free, else a new one while fewer than the threads the device's
  // memory was shared among, else the next one freed.
  class stream_lease {
   public:
    explicit stream_lease(gpu_context& context) : context_(context) {
      std::unique_lock lock(context_.mutex_);
      for (;;) {
        if (!context_.free_.empty()) {
          stream_ = context_.free_.back();
          context_.free_.pop_back();
          return;
        }
        if (context_.streams_.size() < context_.most_streams_) break;
        context_.freed_.wait(lock);
      }
      // Opened under the lock: the streams never outnumber what was budgeted.
      context_.streams_.push_back(std::make_unique<counting_stream>(context_.backend_->open_stream()));
      context_.free_.reserve(context_.most_streams_);
      stream_ = context_.streams_.back().get();
    }
    ~stream_lease() {
      {
        const std::lock_guard lock(context_.mutex_);
        context_.free_.push_back(stream_);
      }
      context_.freed_.notify_one();
    }
    stream_lease(const stream_lease&) = delete;
    stream_lease& operator=(const stream_lease&) = delete;
    counting_stream& stream() const noexcept { return *stream_; }

   private:
    gpu_context& context_;
    counting_stream* stream_ = nullptr;
  };

  const gpu_plan& plan_;
  const half_board_tables tables_;  // the host's copy: the emulator runs on it
  const std::unique_ptr<gpu::gpu_backend> backend_;
  const task_lookup tasks_;
  const std::size_t most_streams_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  std::vector<std::unique_ptr<counting_stream>> streams_;
  std::vector<counting_stream*> free_;
};

// Refuses (std::invalid_argument) where the kernels cannot run.
void check_gpu_runnable() {
  if (emulation_asked()) return;
  const gpu::device_probe probe = gpu::probe_device();
  if (!probe.usable) throw std::invalid_argument("--engine gpu needs an NVIDIA GPU: " + probe.description);
}

std::unique_ptr<engine_context> gpu_plan::make_context(isa, int threads, std::uint64_t,
                                                       const std::atomic<bool>* cancel) const {
  check_gpu_runnable();
  return std::make_unique<gpu_context>(*this, emulation_asked(), threads, cancel);
}

std::unique_ptr<engine_plan> make_plan(int n, int split_depth, std::size_t, std::uint64_t) {
  column_classes classes(n);
  const int slices = class_plan::slices_for(classes, split_depth);
  return std::make_unique<gpu_plan>(n, class_slicing{slices}, std::move(classes));  // every class takes them all
}

// The host's tables and each thread's buffers, as the quadrant engine's
// unbounded layout (the device holds the same tables in its own memory).
std::uint64_t gpu_memory_bytes(int n, int threads, std::uint64_t) noexcept {
  return quadrant_layout_for(n, threads, std::numeric_limits<std::uint64_t>::max()).bytes;
}

}  // namespace

extern const engine_definition gpu_engine = {
    .id = engine::gpu,
    .name = "gpu",
    .summary =
        "the quadrant join on an NVIDIA GPU (CUDA), a round of subproblems per launch; refused where no GPU "
        "is usable (NQUEENS_GPU=emulate runs its kernels on the CPU, slowly, for tests)",
    .counts_unique = false,
    .max_board_size = gpu::max_gpu_board_size,  // the whole tables (15 GiB at n = 24) on host and device
    .auto_from = 0,                             // never picked by auto: it needs a device
    .make_plan = &make_plan,
    .memory_estimate = &gpu_memory_bytes,
    .check_runnable = &check_gpu_runnable,
};

}  // namespace nqueens::detail
