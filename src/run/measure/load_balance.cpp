#include "run/measure/load_balance.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "nqueens/cancelled.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/progress.hpp"
#include "nqueens/reduce.hpp"
#include "run/dispatch.hpp"
#include "run/measure/median.hpp"

namespace nqueens::detail {

load_balance measure_load_balance(const plan& p, int threads, std::uint64_t engine_memory,
                                  const std::atomic<bool>* cancel, const gpu_options& gpu) {
  execute_options options;
  options.threads = threads;
  options.max_memory = engine_memory;
  options.time_subproblems = true;
  options.cancel = cancel;
  options.gpu = gpu;
  std::vector<std::size_t> all(p.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  const std::vector<std::size_t> order = dispatch_order(all);
  const execution run = execute(p, order, options);
  if (std::ranges::find(run.finished, std::uint8_t{0}) != run.finished.end()) throw run_cancelled();
  const totals sums = reduce(run);

  load_balance lb;
  lb.subproblems = p.size();
  lb.split_depth = p.split_depth();
  lb.threads = run.threads;
  lb.wall_seconds = run.seconds;
  for (const double s : run.subproblem_seconds) {
    lb.total_seconds += s;
    lb.longest_seconds = std::max(lb.longest_seconds, s);
  }
  lb.median_seconds = median_of(run.subproblem_seconds);
  lb.longest_share = lb.total_seconds > 0 ? lb.longest_seconds / lb.total_seconds : 0.0;
  lb.bound = lb.longest_seconds > 0 ? lb.total_seconds / lb.longest_seconds : 0.0;
  std::vector<double> seconds(p.size(), 0.0);  // by subproblem index, as the replay reads them
  for (std::size_t k = 0; k < run.indices.size(); ++k) seconds[run.indices[k]] = run.subproblem_seconds[k];
  lb.eta_worst_error = replayed_eta_error(order, seconds, estimate_work(p));
  lb.total = sums.total;
  lb.unique = fundamental_count(p.board_size(), sums.total, sums.symmetric_180, sums.symmetric_90);
  lb.check = verify(p.board_size(), sums.total, lb.unique, sums.symmetric_180, sums.symmetric_90);
  return lb;
}

}  // namespace nqueens::detail
