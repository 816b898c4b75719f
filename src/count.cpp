#include "nqueens/count.hpp"

#include <chrono>

#include "executor.hpp"
#include "nqueens/memory.hpp"
#include "run_driver.hpp"

namespace nqueens {

count_result count(int n, const count_options& options) {
  const auto start = std::chrono::steady_clock::now();
  const plan p(n, plan_options{.kind = options.kind, .split_depth = options.split_depth});
  check_memory(n, options.kind, options.max_memory, options.threads);  // before a journal file is created
  detail::arena_executor arena(options.threads, options.kernels, options.max_memory);
  return detail::drive(p, options, arena, start);
}

count_result symmetric_counts(int n, const count_options& options) {
  const auto start = std::chrono::steady_clock::now();
  const plan p(n, plan_options{.scope = plan_scope::rotational});
  detail::arena_executor arena(options.threads, options.kernels, options.max_memory);
  return detail::drive(p, options, arena, start);
}

}  // namespace nqueens
