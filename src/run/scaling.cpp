#include "nqueens/scaling.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "nqueens/threads.hpp"
#include "run/median.hpp"

namespace nqueens {
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
  // Every run counts the whole plan: a journal would make all but the first
  // read the counts back, and time nothing.
  if (!options.checkpoint.empty()) throw std::invalid_argument("measure_scaling times whole counts: no checkpoint");
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
    row.median_seconds = detail::median_of(row.seconds);
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

}  // namespace nqueens
