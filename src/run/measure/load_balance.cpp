#include "run/measure/load_balance.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <exception>
#include <optional>
#include <vector>

#include "nqueens/cancelled.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/progress.hpp"
#include "nqueens/reduce.hpp"
#include "nqueens/threads.hpp"
#include "run/dispatch.hpp"
#include "run/helper_thread.hpp"
#include "run/measure/median.hpp"
#include "run/progress_relay.hpp"
#include "run/run_tally.hpp"
#include "run/shard/shard_members.hpp"

namespace nqueens::detail {

load_balance measure_load_balance(const plan& p, int threads, std::uint64_t engine_memory,
                                  const std::atomic<bool>* cancel, const gpu_options& gpu,
                                  const std::function<void(const progress&)>& on_progress,
                                  double progress_interval_seconds) {
  using clock_type = std::chrono::steady_clock;
  const auto start = clock_type::now();
  std::vector<std::size_t> all(p.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  const std::vector<std::size_t> order = dispatch_order(all);
  // The progress as a count reports it, reduced as the subproblems finish.
  run_tally tally(p, shard_members(p, shard_spec{}), order, totals{}, static_cast<bool>(on_progress),
                  threads_or_hardware(threads), start);
  std::atomic<bool> stop{cancel != nullptr && cancel->load()};
  execute_options options;
  options.threads = threads;
  options.max_memory = engine_memory;
  options.time_subproblems = true;
  options.cancel = &stop;
  options.gpu = gpu;
  if (on_progress)
    options.on_finished = [&tally](std::size_t index, const subproblem_count& c) { tally.finished(index, c); };
  execution run;
  {
    std::optional<progress_relay> relay;  // outlives the helper, which posts to it
    if (on_progress) relay.emplace(on_progress, stop);
    {
      std::optional<helper_thread> helper;
      if (on_progress || cancel != nullptr) {
        helper.emplace(0.05, [&, last_progress = start]() mutable {
          if (cancel != nullptr && cancel->load()) stop = true;
          const auto now = clock_type::now();
          if (relay && std::chrono::duration<double>(now - last_progress).count() >= progress_interval_seconds) {
            last_progress = now;
            relay->post(tally.snapshot(false));
          }
        });
      }
      run = execute(p, order, options);
    }
    if (const std::exception_ptr thrown = relay ? relay->finish() : nullptr) std::rethrow_exception(thrown);
  }
  if (std::ranges::find(run.finished, std::uint8_t{0}) != run.finished.end()) throw run_cancelled();
  if (on_progress) on_progress(tally.snapshot(true));
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
