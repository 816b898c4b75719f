#include "nqueens/execute.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "kernel/backtrack.hpp"

namespace nqueens {

subproblem_count solve_subproblem(const plan& p, std::size_t index) noexcept {
  const subproblem& s = p[index];
  const auto prefix = std::span(s.columns).first(s.depth);
  const detail::board_state state = detail::place_prefix(p.board_size(), prefix);
  return {detail::count_completions(p.board_size(), state) * s.weight};
}

int hardware_threads() noexcept { return tbb::info::default_concurrency(); }

execution execute(const plan& p, std::span<const std::size_t> indices,
                  const execute_options& options) {
  if (options.threads < 0 || options.threads > max_threads) {
    throw std::invalid_argument("thread count " + std::to_string(options.threads) +
                                " is out of range: expected 1 to " + std::to_string(max_threads));
  }
  for (const std::size_t index : indices) {
    if (index >= p.size()) {
      throw std::invalid_argument("subproblem index " + std::to_string(index) +
                                  " is outside the plan of " + std::to_string(p.size()));
    }
  }
  execution run;
  run.threads = options.threads == 0 ? hardware_threads() : options.threads;
  run.counts.assign(p.size(), subproblem_count{});
  run.finished.assign(p.size(), 0);

  const auto start = std::chrono::steady_clock::now();
  tbb::task_arena arena(run.threads);
  arena.execute([&] {
    // One subproblem per task (grain 1, simple_partitioner): subproblem costs
    // vary by orders of magnitude, so only fine-grained stealing balances them.
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, indices.size(), 1),
        [&](const tbb::blocked_range<std::size_t>& range) {
          for (std::size_t i = range.begin(); i != range.end(); ++i) {
            if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) return;
            const std::size_t index = indices[i];
            const subproblem_count c = solve_subproblem(p, index);
            // Each slot is written by exactly one task; the arena's join
            // publishes the writes to the caller.
            run.counts[index] = c;
            run.finished[index] = 1;
            if (options.on_finished) options.on_finished(index, c);
          }
        },
        tbb::simple_partitioner());
  });
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

execution execute(const plan& p, const execute_options& options) {
  std::vector<std::size_t> all(p.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  return execute(p, all, options);
}

}  // namespace nqueens
