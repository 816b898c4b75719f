#include "nqueens/count.hpp"

#include <chrono>

#include "nqueens/checkpoint.hpp"
#include "nqueens/memory.hpp"
#include "run/executor.hpp"
#include "run/run_driver.hpp"

namespace nqueens {

namespace {

// The journal is taken first, before the plan and the tables: a second run
// on it is refused before it spends anything.
checkpoint_file take_journal(const count_options& options) {
  return options.checkpoint.empty() ? checkpoint_file() : checkpoint_file(options.checkpoint);
}

}  // namespace

count_result count(int n, const count_options& options) {
  const auto start = std::chrono::steady_clock::now();
  checkpoint_file journal = take_journal(options);
  // A bound the engine alone cannot keep is refused before the plan, which
  // can take seconds; the run's lists are priced once the plan is known.
  check_memory(n, options.kind, options.max_memory, options.threads);
  const plan p(n, plan_options{.kind = options.kind,
                               .split_depth = options.split_depth,
                               .cancel = options.cancel,
                               .max_memory = options.max_memory != 0 ? options.max_memory : default_memory_limit()});
  // Before a journal file is created, and before the lists are allocated.
  const std::uint64_t engine_memory = check_run_memory(p, options.max_memory, options.threads, options.shard);
  detail::arena_executor arena(options.threads, options.kernels, engine_memory);
  return detail::drive(p, options, arena, start, std::move(journal));
}

count_result symmetric_counts(int n, const count_options& options) {
  const auto start = std::chrono::steady_clock::now();
  checkpoint_file journal = take_journal(options);
  const plan p(n, plan_options{.scope = plan_scope::rotational, .cancel = options.cancel});
  detail::arena_executor arena(options.threads, options.kernels, options.max_memory);
  return detail::drive(p, options, arena, start, std::move(journal));
}

}  // namespace nqueens
