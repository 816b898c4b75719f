#include "nqueens/scaling.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "nqueens/dispatch.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/progress.hpp"
#include "nqueens/reduce.hpp"
#include "nqueens/threads.hpp"

namespace nqueens {
namespace {

double median_of(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

}  // namespace

std::vector<int> default_thread_counts() {
  const int hardware = hardware_threads();
  std::vector<int> counts;
  for (int t = 1; t < hardware; t *= 2) counts.push_back(t);
  counts.push_back(hardware);
  return counts;
}

scaling_result measure_scaling(int n, std::span<const int> thread_counts, int repeat, const count_options& options) {
  require_valid_board_size(n);
  if (repeat < 1) throw std::invalid_argument("repeat count must be at least 1");
  std::vector<int> counts(thread_counts.begin(), thread_counts.end());
  counts.push_back(1);
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  for (const int t : counts) {
    if (t < 1 || t > max_threads) {
      throw std::invalid_argument("thread count " + std::to_string(t) + " is out of range: expected 1 to " +
                                  std::to_string(max_threads));
    }
  }
  // One untimed run first: oneTBB starts its worker threads on first use, and
  // that start-up would otherwise land in the one-thread row alone.
  {
    count_options warm = options;
    warm.threads = counts.back();
    try {
      count(std::min(n, 10), warm);
    } catch (const run_cancelled&) {  // the loop below sees the cancel too
    }
  }
  scaling_result result;
  std::optional<uint128> reference;  // the first run's total; every run must match it
  for (const int t : counts) {
    scaling_row row;
    row.threads = t;
    for (int r = 0; r < repeat; ++r) {
      // Checked here too: a count shorter than the driver's cancellation
      // tick would run to the end, and so would every run left.
      if (options.cancel != nullptr && options.cancel->load()) {
        result.complete = false;
        break;
      }
      count_options o = options;
      o.threads = t;
      count_result c;
      try {
        c = count(n, o);
      } catch (const run_cancelled&) {
        c.complete = false;  // cancelled while it planned
      }
      if (!c.complete) {  // cancelled midway: a partial total is no measurement
        result.complete = false;
        break;
      }
      row.seconds.push_back(c.seconds);
      row.total = c.total;
      if (!reference) {
        reference = c.total;
        result.check = c.check;
      } else if (c.total != *reference) {
        result.consistent = false;
      }
    }
    if (!result.complete) break;
    row.median_seconds = median_of(row.seconds);
    result.rows.push_back(row);
  }
  if (result.rows.empty()) return result;
  const double base = result.rows.front().median_seconds;
  for (scaling_row& row : result.rows) {
    row.speedup = row.median_seconds > 0 ? base / row.median_seconds : 0.0;
    row.efficiency = row.speedup / row.threads;
  }
  return result;
}

load_balance measure_load_balance(const plan& p, int threads) {
  execute_options options;
  options.threads = threads;
  options.time_subproblems = true;
  std::vector<std::size_t> all(p.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  const std::vector<std::size_t> order = dispatch_order(all);
  const execution run = execute(p, order, options);
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

}  // namespace nqueens
