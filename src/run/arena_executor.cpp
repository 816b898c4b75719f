#include "run/arena_executor.hpp"

#include <utility>

#include "nqueens/threads.hpp"
#include "run/execute_on_arena.hpp"
#include "run/worker_limit.hpp"

namespace nqueens::detail {

arena_executor::arena_executor(int threads, std::optional<isa> kernels, std::uint64_t max_memory, gpu_options gpu,
                               const std::atomic<bool>* cancel)
    : threads_(threads_allowed(resolve_threads(threads))),  // what each run's arena will have
      kernels_(kernels ? *kernels : active_isa()),
      max_memory_(max_memory),
      gpu_(std::move(gpu)),
      cancel_(cancel) {}

void arena_executor::run(const plan& p, std::span<const std::size_t> indices, const report_fn& report,
                         const std::atomic<bool>& stop) {
  execute_options options;
  options.threads = threads_;
  options.kernels = kernels_;
  options.max_memory = max_memory_;
  options.gpu = gpu_;
  options.cancel = &stop;
  options.on_finished = report;
  // The driver sums the reports: results are kept only for their times.
  options.time_subproblems = !seconds_by_index_.empty();
  options.keep_results = options.time_subproblems;
  const execution done = execute_on_arena(p, indices, options, nullptr, cancel_);
  for (std::size_t k = 0; k < done.subproblem_seconds.size(); ++k) {
    if (done.finished[k] != 0) seconds_by_index_[done.indices[k]] = done.subproblem_seconds[k];
  }
  device_ += done.device;
  phases_.start += done.start_seconds;
  phases_.release += done.release_seconds;
  counting_began_ = counting_began_ || done.counting_began || indices.empty();
}

}  // namespace nqueens::detail
