#include "run/measure/load_balance.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <optional>
#include <vector>

#include "nqueens/cancelled.hpp"
#include "nqueens/checkpoint.hpp"
#include "nqueens/count.hpp"
#include "nqueens/progress.hpp"
#include "run/arena_executor.hpp"
#include "run/dispatch_order.hpp"
#include "run/measure/eta_replay.hpp"
#include "run/measure/median.hpp"
#include "run/run_driver.hpp"

namespace nqueens::detail {

load_balance measure_load_balance(const plan& p, int threads, std::uint64_t engine_memory,
                                  const std::atomic<bool>* cancel, const gpu_options& gpu,
                                  const std::function<void(const progress&)>& on_progress,
                                  double progress_interval_seconds) {
  const auto start = std::chrono::steady_clock::now();
  // A count of the whole plan through the run driver (its progress, its
  // stop, its reduction and checks), each subproblem timed.
  std::vector<double> seconds(p.size(), 0.0);  // by subproblem index, as the replay reads them
  arena_executor arena(threads, std::nullopt, engine_memory, gpu, cancel);
  arena.time_subproblems_into(seconds);
  count_options options;
  options.threads = threads;
  options.cancel = cancel;
  options.on_progress = on_progress;
  options.progress_interval_seconds = progress_interval_seconds;
  const count_result run = drive(p, options, arena, start, checkpoint_file{});
  if (!run.complete) throw run_cancelled();  // a part of the times would not describe the plan

  load_balance lb;
  lb.subproblems = p.size();
  lb.split_depth = p.split_depth();
  lb.threads = run.threads;
  lb.wall_seconds = run.seconds;
  for (const double s : seconds) {
    lb.total_seconds += s;
    lb.longest_seconds = std::max(lb.longest_seconds, s);
  }
  lb.median_seconds = median_of(seconds);
  lb.longest_share = lb.total_seconds > 0 ? lb.longest_seconds / lb.total_seconds : 0.0;
  lb.bound = lb.longest_seconds > 0 ? lb.total_seconds / lb.longest_seconds : 0.0;
  std::vector<std::size_t> all(p.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  lb.eta_worst_error = replayed_eta_error(dispatch_order(all), seconds, estimate_work(p));
  lb.total = run.total;
  lb.unique = run.unique.value_or(0);
  lb.check = run.check;
  return lb;
}

}  // namespace nqueens::detail
