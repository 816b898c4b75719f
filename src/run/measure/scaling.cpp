#include "nqueens/scaling.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "nqueens/engine.hpp"
#include "nqueens/gpu_options.hpp"
#include "nqueens/threads.hpp"
#include "run/measure/median.hpp"

namespace nqueens {

namespace {

// The GPU engine drives each GPU from a thread of its own, and count()
// refuses fewer threads than the GPUs it would take. A scaling row of fewer
// threads counts on as many of them instead, the first in the order they are
// dealt, named by index: its speed-up is then the GPUs'. (Where the node's
// launcher deals GPUs shared with other processes, count() takes the first
// ones itself.)
class row_options {
 public:
  explicit row_options(const count_options& options) : options_(options) {
    if (!counts_on_gpus(options.kind)) return;
    try {
      taken_ = gpus_taken(options.gpu, max_threads);
    } catch (const std::runtime_error&) {  // no GPU usable: count() refuses the rows, saying why
      return;
    }
    shared_ = std::ranges::any_of(taken_, [](const gpu_taken& g) { return g.sharers > 1; });
  }

  count_options operator()(int threads) const {
    count_options o = options_;
    o.threads = threads;
    if (!shared_ && taken_.size() > static_cast<std::size_t>(threads)) {
      o.gpu.devices.clear();
      for (int d = 0; d < threads; ++d) {
        if (d > 0) o.gpu.devices += ',';
        o.gpu.devices += std::to_string(taken_[static_cast<std::size_t>(d)].index);
      }
    }
    return o;
  }

  int gpus(int threads) const { return static_cast<int>(std::min(taken_.size(), static_cast<std::size_t>(threads))); }

 private:
  count_options options_;
  std::vector<gpu_taken> taken_;  // empty but for the GPU engine
  bool shared_ = false;
};

}  // namespace

std::vector<int> default_thread_counts() {
  const int hardware = hardware_threads();
  std::vector<int> counts;
  for (int t = 1; t < hardware; t *= 2) counts.push_back(t);
  // The cores too, where threads share them: the step past it is SMT's, and
  // its lower efficiency is the hardware's, not a scaling defect.
  const int cores = physical_cores();
  if (cores > 1 && cores < hardware) counts.push_back(cores);
  counts.push_back(hardware);
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

scaling_result measure_scaling(int n, std::span<const int> thread_counts, int repeat, const count_options& options,
                               const std::function<void(const scaling_step&)>& on_step) {
  require_valid_board_size(n);
  if (repeat < 1) throw std::invalid_argument("repeat count must be at least 1");
  // Every run counts the whole plan: a journal would make all but the first
  // read the counts back, and time nothing.
  if (!options.checkpoint.empty()) throw std::invalid_argument("measure_scaling times whole counts: no checkpoint");
  if (!options.shard.whole()) throw std::invalid_argument("measure_scaling times whole counts: no shard");
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
  // One engine and split for every row, as the most threads would count
  // (each thread's buffers count): an automatic pick per row could change
  // engines between rows and time two programs.
  count_options chosen = options;
  if (options.kind == engine::automatic || options.split_depth == 0) {  // an engine named fits its split once too
    // Before the candidates are priced: what no engine takes is named as
    // count() names it, for the largest row (its threads, and its GPUs:
    // more GPUs than the default threads keep busy are no fault of a row's).
    const count_options most = row_options(options)(counts.back());
    validate(most);
    try {
      const engine_choice choice = choose_engine(n, most);
      chosen.kind = choice.kind;
      chosen.split_depth = choice.split_depth;
    } catch (const run_cancelled&) {  // cancelled while it chose: nothing was timed
      scaling_result none;
      none.complete = false;
      return none;
    }
  }
  scaling_result result;
  result.kind = chosen.kind;
  const row_options options_for(chosen);
  // One whole untimed count first, on every thread asked for: oneTBB starts
  // its workers on first use, the tables' pages and the clocks settle, and
  // none of that lands in the one-thread row, every speed-up's base.
  {
    const count_options warm = options_for(counts.back());
    const std::size_t runs = counts.size() * static_cast<std::size_t>(repeat);
    if (on_step) on_step({.run = 0, .runs = runs, .threads = warm.threads});
    try {
      count(n, warm);
    } catch (const run_cancelled&) {  // the loop below sees the cancel too
    }
  }
  std::vector<scaling_row> rows(counts.size());
  for (std::size_t k = 0; k < counts.size(); ++k) {
    rows[k].threads = counts[k];
    rows[k].gpus = options_for.gpus(counts[k]);
  }
  std::vector<std::vector<double>> busy(counts.size());  // each row's busy threads, run by run
  std::vector<int> counted_on(counts.size(), 0);         // the threads each row's counts ran on
  std::optional<uint128> reference;                      // the first run's total; every run must match it
  // Rounds over every thread count, in turn up and down (1 2 4, 4 2 1, ...):
  // a machine's drift, which reaches 30% over minutes on shared hosts, then
  // falls on every row alike instead of on the rows timed last.
  for (int r = 0; r < repeat && result.complete; ++r) {
    for (std::size_t step = 0; step < counts.size(); ++step) {
      const std::size_t k = r % 2 == 0 ? step : counts.size() - 1 - step;
      scaling_row& row = rows[k];
      // Checked here too: a count shorter than the driver's cancellation
      // tick would run to the end, and so would every run left.
      if (options.cancel != nullptr && options.cancel->load()) {
        result.complete = false;
        break;
      }
      const count_options o = options_for(row.threads);
      if (on_step) {
        on_step({.run = static_cast<std::size_t>(r) * counts.size() + step + 1,
                 .runs = counts.size() * static_cast<std::size_t>(repeat),
                 .threads = row.threads});
      }
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
      counted_on[k] = c.threads;
      // The count's own arenas' CPU time, not the process's: the workers a
      // row of more threads than the cores left spinning are not this row's.
      busy[k].push_back(c.seconds > 0 ? c.cpu_seconds / c.seconds : 0.0);
      row.total = c.total;
      if (!reference) {
        reference = c.total;
        result.check = c.check;
        result.split_depth = c.split_depth;
        result.subproblems = c.subproblems;
      } else if (c.total != *reference) {
        result.consistent = false;
      }
    }
  }
  for (std::size_t k = 0; k < rows.size(); ++k) {
    scaling_row& row = rows[k];
    if (row.seconds.empty()) continue;  // cancelled before its first run
    row.threads = counted_on[k];        // a row's efficiency is over the threads that ran
    row.median_seconds = detail::median_of(row.seconds);
    row.busy_threads = detail::median_of(busy[k]);
    result.rows.push_back(row);
  }
  if (result.rows.empty() || result.rows.front().threads != 1) return result;
  const double base = result.rows.front().median_seconds;
  for (scaling_row& row : result.rows) {
    row.speedup = row.median_seconds > 0 ? base / row.median_seconds : 0.0;
    // A GPU row's threads past its GPUs drive more streams on the same GPUs:
    // its efficiency is per GPU, above 1 where one stream left a GPU idle.
    row.efficiency = row.speedup / (row.gpus > 0 ? row.gpus : row.threads);
  }
  return result;
}

}  // namespace nqueens
