// The GPU engine's plan, run context and registry entry: the quadrant
// engine's subproblems (one per class of north column sets under the mirror
// and the flip, weighted), each counted whole on a CUDA device by the
// kernels of gpu_kernels.hpp: the half joins, the transposition filter, the
// keying and the pair count. A subproblem counts what the quadrant engine's
// does; a slice of a class takes the north row sets of its rank modulo the
// slices (not the quadrant engine's slices), so the plan has its own
// fingerprint, and per-subproblem counts are the same on every run, as
// journals, shards and MPI need.
//
// Where no GPU is usable it refuses before counting; NQUEENS_GPU=emulate
// runs the same kernels on the CPU (gpu_emulator.hpp), which is how every
// test of the suite's engine axis reaches them on machines without a GPU.

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engines/engine.hpp"
#include "engines/fingerprint.hpp"
#include "engines/gpu/gpu_backend.hpp"
#include "engines/gpu/gpu_device.hpp"
#include "engines/gpu/gpu_emulator.hpp"
#include "engines/quadrant/class_plan.hpp"
#include "engines/quadrant/quadrant_memory.hpp"

namespace nqueens::detail {

namespace {

/// The largest board: the whole quarter tables (15 GiB at n = 24) sit on
/// the host and on the device.
constexpr int max_gpu_board_size = 24;

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

class gpu_context final : public engine_context {
 public:
  gpu_context(const gpu_plan& plan, bool emulated, const std::atomic<bool>* cancel)
      : plan_(plan),
        tables_(plan.board_size(), cancel),
        backend_(emulated ? gpu::emulated_backend(tables_) : gpu::device_backend(tables_)),
        tasks_(plan.size() <= listed_plan_size ? plan.tasks() : std::vector<quadrant_task>{}) {}

  subproblem_count solve(std::size_t index) override {
    const quadrant_task task = tasks_.empty() ? plan_.task(index) : tasks_[index];
    std::unique_ptr<gpu::gpu_stream>& stream = streams_.local();
    if (!stream) stream = backend_->open_stream();
    const gpu::gpu_job job = gpu::job_for(task, plan_.split_depth(), tables_, *backend_);
    return {gpu::solutions_of(job, stream->pairs(job), task.weight), 0};
  }

 private:
  const gpu_plan& plan_;
  const half_board_tables tables_;  // the host's copy: the job bounds read it, the emulator runs on it
  const std::unique_ptr<gpu::gpu_backend> backend_;
  const std::vector<quadrant_task> tasks_;  // the plan's, where it is small (as the quadrant engine)
  tbb::enumerable_thread_specific<std::unique_ptr<gpu::gpu_stream>> streams_;  // one per counting thread
};

// Refuses (std::invalid_argument) where the kernels cannot run.
void check_gpu_runnable() {
  if (emulation_asked()) return;
  const gpu::device_probe probe = gpu::probe_device();
  if (!probe.usable) throw std::invalid_argument("--engine gpu needs an NVIDIA GPU: " + probe.description);
}

std::unique_ptr<engine_context> gpu_plan::make_context(isa, int, std::uint64_t, const std::atomic<bool>* cancel) const {
  check_gpu_runnable();
  return std::make_unique<gpu_context>(*this, emulation_asked(), cancel);
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
        "the quadrant join on an NVIDIA GPU (CUDA), each subproblem whole on the device; refused where no GPU "
        "is usable (NQUEENS_GPU=emulate runs its kernels on the CPU, slowly, for tests)",
    .counts_unique = false,
    .max_board_size = max_gpu_board_size,
    .auto_from = 0,  // never picked by auto: it needs a device
    .make_plan = &make_plan,
    .memory_estimate = &gpu_memory_bytes,
    .check_runnable = &check_gpu_runnable,
};

}  // namespace nqueens::detail
