#include "nqueens/estimate.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <limits>
#include <mutex>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "nqueens/cancelled.hpp"
#include "nqueens/count.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/threads.hpp"
#include "run/cpu_clock.hpp"

namespace nqueens {
namespace {

using detail::process_cpu_seconds;
using detail::thread_cpu_seconds;

// A running mean and spread of draws (Welford's update: one pass, no list).
class running_mean {
 public:
  void add(double x) noexcept {
    ++count_;
    const double delta = x - mean_;
    mean_ += delta / static_cast<double>(count_);
    squares_ += delta * (x - mean_);
  }
  std::size_t count() const noexcept { return count_; }
  double mean() const noexcept { return mean_; }
  /// The mean's standard error for draws without replacement from
  /// `population` (the finite population correction: 0 once all are drawn);
  /// NaN, unknown, from one draw of several (no spread to measure).
  double error(std::size_t population) const noexcept {
    if (count_ >= population) return 0;
    if (count_ < 2) return std::numeric_limits<double>::quiet_NaN();
    const auto n = static_cast<double>(count_);
    const double left = 1 - n / static_cast<double>(std::max(population, count_));
    return std::sqrt(squares_ / (n - 1) / n * left);
  }

 private:
  std::size_t count_ = 0;
  double mean_ = 0, squares_ = 0;
};

// The blocks of a plan in a random order drawn from a seed without a list
// (10^8 subproblems would need 800 MB): a four-round Feistel network on the
// next even power of two, walked until it lands inside (at most four steps
// on average). Every block comes once in the first `blocks` draws.
class block_order {
 public:
  block_order(std::size_t blocks, std::uint64_t seed) : blocks_(blocks) {
    while ((std::uint64_t{1} << (2 * half_bits_)) < blocks) ++half_bits_;
    std::uint64_t state = seed;
    for (std::uint64_t& key : keys_) key = splitmix(state);
  }
  std::size_t operator[](std::size_t k) const noexcept {
    std::uint64_t x = k;
    do x = permute(x);
    while (x >= blocks_);
    return static_cast<std::size_t>(x);
  }

 private:
  static std::uint64_t splitmix(std::uint64_t& state) noexcept {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::uint64_t permute(std::uint64_t x) const noexcept {
    const std::uint64_t mask = (std::uint64_t{1} << half_bits_) - 1;
    std::uint64_t left = x >> half_bits_, right = x & mask;
    for (const std::uint64_t key : keys_) {
      std::uint64_t mixed = right ^ key;
      const std::uint64_t next = left ^ (splitmix(mixed) & mask);
      left = right;
      right = next;
    }
    return (left << half_bits_) | right;
  }
  std::size_t blocks_;
  int half_bits_ = 1;
  std::uint64_t keys_[4] = {};
};

// Consecutive subproblems per draw. The quadrant engine's neighbours share
// quarter lists, and on odd boards each thread's east quarters filtered for
// the middle queen, which a real run builds once for hundreds: a lone index
// would pay for them alone. Runs of 4 priced Q(17) and Q(19) 25-30% dear on
// the AMD EPYC; runs of 32 came within 1-8% (Q(18), Q(20) within 1%). Past
// n = 24 each subproblem builds its own lists and keeps no east quarters, and
// a run of 32 would leave 10 s of sampling at n = 25 under 30 draws: runs of
// 4 there, as for the GPU engine (which draws a round's worth of runs,
// below). From n = 26 on, building the lists is about 2% of a subproblem
// (docs/reach.md), and single indices spread the sample wider.
std::size_t run_length_for(const plan& p) {
  if (!p.uniform_work() || p.board_size() >= 26) return 1;
  return p.kind() == engine::gpu || p.board_size() > 24 ? 4 : 32;
}

}  // namespace

double cost_estimate::wall_seconds(int cores) const noexcept {
  if (cores <= 0) return setup_seconds;
  return setup_serial_seconds + (setup_parallel_seconds + thread_seconds) / cores;
}

namespace {

// Splits a build of `wall` seconds that used `cpu` CPU seconds on `threads`
// into its serial part S and its parallel work P: S + P = cpu and
// S + P / threads = wall, clamped to what the equations allow. It takes the
// threads to have cores of their own: on a loaded machine the build's CPU
// time falls behind its wall time and it reads as more serial than it is
// (a projection that errs low). Idle workers' brief spinning counts as work.
std::pair<double, double> split_setup(double wall, double cpu, int threads) {
  if (threads <= 1) return {0.0, wall};
  const double t = threads;
  const double serial = std::clamp((t * wall - cpu) / (t - 1), 0.0, wall);
  return {serial, (wall - serial) * t};
}

}  // namespace

cost_estimate estimate_cost(const plan& p, const estimate_options& options) {
  const int threads = resolve_threads(options.threads);
  if (!(options.seconds > 0 && std::isfinite(options.seconds))) {
    throw std::invalid_argument("sampling seconds must be finite and positive");
  }
  if (!(options.target_error >= 0 && std::isfinite(options.target_error))) {
    throw std::invalid_argument("the target error must be finite and at least 0");
  }
  if (options.max_memory != 0 && options.max_memory < min_max_memory) {
    throw std::invalid_argument("max_memory " + std::to_string(options.max_memory) +
                                " is under the least a run can use (1 MiB): give 0 for the default");
  }
  // Every subproblem, the few that count the rotation-symmetric solutions
  // too: a count runs them all (theirs add nothing to Q(n)).
  const std::size_t size = p.size();
  if (size == 0) throw std::invalid_argument("the plan has no subproblems to sample");
  // Refused as count() refuses this plan, before the tables are built; the
  // engine gets what the run's lists leave it, as in a count.
  const std::uint64_t engine_memory = check_plan_memory(p, options.max_memory, threads);
  cost_estimate e;
  e.subproblems = size;
  e.threads = threads;
  // The engine's draws: a rotational plan has none, only tasks, one a draw.
  e.run_length = p.engine_subproblems() > 0 ? run_length_for(p) : 1;
  const auto start = std::chrono::steady_clock::now();
  const double cpu_at_start = process_cpu_seconds();
  const run_context context(p, options.kernels, threads, options.cancel, engine_memory, options.gpu);
  const auto sampling = std::chrono::steady_clock::now();
  e.setup_seconds = std::chrono::duration<double>(sampling - start).count();
  std::tie(e.setup_serial_seconds, e.setup_parallel_seconds) =
      split_setup(e.setup_seconds, process_cpu_seconds() - cpu_at_start, threads);
  const auto deadline = sampling + std::chrono::duration<double>(options.seconds);
  // A draw begun before the deadline ends at its own pace, but for a plan
  // whose subproblems take hours (a row engine's past n = 26) that is
  // hours: a draw still counting at twice the sampling time is stopped
  // and left out (draws_cut).
  const auto last_call = sampling + 2 * std::chrono::duration<double>(options.seconds);

  // Runs are whole blocks of run_length, drawn without replacement: once
  // every block is drawn the sums are exact, and the standard error shrinks
  // to 0 on the way (the finite population correction). Where subproblems
  // are light enough to draw several together (run_length above 1), an
  // engine that counts best in batches (the GPU engine: a round of up to 64
  // jobs) is drawn as it counts: a run is `batch` blocks, the next of the
  // order, as many subproblems as a count hands it in one call (batch_size,
  // which also keeps their own quarter lists within the thread's memory),
  // counted in that call (a round of one light job leaves a GPU mostly idle
  // and prices a count several times dearer); a heavy one fills the GPU
  // alone, and a batch of them would outlast the sampling time. Runs on a
  // device are timed by the wall clock: the thread waits for it meanwhile,
  // and that wait is the cost (the emulator counts on the thread: its CPU
  // time, not a loaded machine's waits).
  const std::size_t batch = e.run_length > 1 ? std::max<std::size_t>(context.batch_size() / e.run_length, 1) : 1;
  const bool by_wall_clock = context.waits_on_a_device();
  e.draw_length = batch * e.run_length;
  const std::size_t call_length = std::max<std::size_t>(context.batch_size(), 1);
  e.device_timed = by_wall_clock;
  // Two strata, sampled apart and projected each by its own size: the
  // engine's subproblems, and the rotation-symmetric search's tasks at the
  // plan's end. Drawn together they mislead where the tasks are most of
  // the plan and the engine's are heavy (a row engine past n = 26: at
  // n = 30, 175 000 light tasks beside 4 000 subproblems of hours, and a
  // 2 s sample projected Q(30) at ten minutes). The rotation tasks, one a
  // draw (the CPU counts them, not a batch), take the second and third
  // draws and then one in eight: a light search beside Q(n), whose draws
  // cost little time; most go to what the count's time is made of.
  struct stratum {
    std::size_t first = 0, size = 0, run_length = 1, batch = 1;
    std::size_t blocks = 0, draws = 0;  // draws: the population the errors correct for
    std::size_t drawn = 0;
    std::optional<block_order> order;
    running_mean seconds;  // as the runs finish: for the stop once precise enough
    // Each run's seconds and solutions per subproblem, in the order drawn,
    // empty for a run cut at the last call: the figures are summed in that
    // order after sampling, so that the same seed gives the same estimate
    // to the last bit on any number of threads (summed as the runs
    // finished, two threads' totals differed in the 15th digit).
    std::vector<std::optional<std::pair<double, double>>> per_run;
    double all_seconds = 0, all_solutions = 0;
    std::size_t sampled = 0, cut = 0;
    bool left() const noexcept { return drawn < draws; }
  };
  std::array<stratum, 2> strata;
  strata[0] = {.first = 0, .size = p.engine_subproblems(), .run_length = e.run_length, .batch = batch};
  strata[1] = {.first = p.engine_subproblems(), .size = size - p.engine_subproblems()};
  for (std::size_t k = 0; k < strata.size(); ++k) {
    stratum& st = strata[k];
    st.blocks = (st.size + st.run_length - 1) / st.run_length;
    st.draws = (st.blocks + st.batch - 1) / st.batch;
    st.order.emplace(std::max<std::size_t>(st.blocks, 1), options.seed + k);
  }
  std::mutex mutex;  // the draws and the results: once a run, noise next to its subproblems
  std::size_t drawn = 0;
  std::optional<estimate_end> end_reason;
  std::exception_ptr failure;
  // What the draws look at: the caller's cancel, passed on, or the last call.
  std::atomic<bool> stop_draws{false};
  const auto whole = [](const stratum& st) { return static_cast<double>(st.size); };
  // Why sampling ended, decided under the mutex by the first who saw it.
  const auto ended = [&](std::chrono::steady_clock::time_point now) -> std::optional<estimate_end> {
    if (options.cancel != nullptr && options.cancel->load()) return estimate_end::cancelled;
    if (!strata[0].left() && !strata[1].left()) return estimate_end::exhausted;
    if (options.max_runs != 0 && drawn >= options.max_runs) return estimate_end::runs;
    // Precise: the projected seconds' standard error, both strata's,
    // within the target (each stratum with a spread to measure).
    double mean = 0, variance = 0;
    // The engine's draws, which the count's time is made of, at least
    // min_estimate_runs of them (or every one); every stratum's spread known.
    bool measured = strata[0].seconds.count() >= std::min(min_estimate_runs, strata[0].draws);
    for (const stratum& st : strata) {
      if (st.size == 0) continue;
      const double error = st.seconds.error(st.draws) * whole(st);
      measured = measured && std::isfinite(error);
      mean += st.seconds.mean() * whole(st);
      variance += error * error;
    }
    if (options.target_error > 0 && measured && mean > 0 && std::sqrt(variance) <= options.target_error * mean) {
      return estimate_end::precise;
    }
    // The time: once each stratum has a draw under way.
    const bool begun = (strata[0].size == 0 || strata[0].drawn > 0) && (strata[1].size == 0 || strata[1].drawn > 0);
    if (begun && now >= deadline) return estimate_end::time;
    return std::nullopt;
  };
  // Under the mutex: the stratum of the next draw, of those with draws
  // left, by the draws begun alone (never their times), so that the same
  // seed and number of draws is the same sample on any number of threads.
  const auto pick_stratum = [&]() -> std::size_t {
    if (!strata[1].left()) return 0;
    if (!strata[0].left()) return 1;
    if (strata[0].drawn == 0) return 0;  // the engine's first: one draw prices what the count is made of
    if (strata[1].drawn < 2) return 1;   // light: done at once, so that even a short sample measures their spread
    if (strata[0].drawn < 2) return 0;
    return 8 * strata[1].drawn < drawn ? 1 : 0;
  };
  const auto sample = [&] {
    try {
      std::vector<std::size_t> indices;  // a run's subproblems
      std::vector<subproblem_count> counts;
      for (;;) {
        std::size_t run = 0;
        stratum* st = nullptr;
        indices.clear();
        {
          const std::lock_guard lock(mutex);
          if (failure) return;
          if (const auto end = ended(std::chrono::steady_clock::now())) {
            if (!end_reason) end_reason = *end;
            return;
          }
          st = &strata[pick_stratum()];
          ++drawn;
          run = st->drawn++;
          st->per_run.resize(st->drawn);
          for (std::size_t b = run * st->batch; b < std::min(st->blocks, (run + 1) * st->batch); ++b) {
            const std::size_t from = st->first + (*st->order)[b] * st->run_length;
            for (std::size_t i = from; i < std::min(st->first + st->size, from + st->run_length); ++i) {
              indices.push_back(i);
            }
          }
        }
        double spent = 0, found = 0;
        bool completed = false;
        try {
          if (st->batch == 1 && !by_wall_clock) {
            for (const std::size_t i : indices) {
              const double begin = thread_cpu_seconds();
              const subproblem_count c = context.solve(i, &stop_draws);
              spent += thread_cpu_seconds() - begin;
              found += static_cast<double>(c.total);
            }
          } else {
            counts.resize(indices.size());
            const auto wall_begin = std::chrono::steady_clock::now();
            const double begin = thread_cpu_seconds();
            // In calls of at most batch_size, as a count makes them (a block
            // longer than a batch: several calls).
            for (std::size_t at = 0; at < indices.size(); at += call_length) {
              const std::size_t length = std::min(call_length, indices.size() - at);
              context.solve(std::span(indices).subspan(at, length), std::span(counts).subspan(at, length), &stop_draws);
            }
            spent = by_wall_clock ? std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_begin).count()
                                  : thread_cpu_seconds() - begin;
            for (const subproblem_count& c : counts) found += static_cast<double>(c.total);
          }
          completed = true;
        } catch (const subproblem_cancelled&) {
          // The run under way is dropped: a cancel is thrown below as any
          // other; a run cut at the last call is counted as such.
        }
        const std::lock_guard lock(mutex);
        if (!completed) {
          if (options.cancel != nullptr && options.cancel->load()) return;
          ++st->cut;
          continue;
        }
        const auto count = static_cast<double>(indices.size());
        st->seconds.add(spent / count);
        st->per_run[run] = std::pair(spent / count, found / count);
        st->all_seconds += spent;
        st->all_solutions += found;
        st->sampled += indices.size();
      }
    } catch (...) {
      const std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      stop_draws = true;  // the other threads' draws end at once
    }
  };
  // Passes the caller's cancel on to the draws, and stops them at the last call.
  std::mutex watch_mutex;
  std::condition_variable_any watch_wait;
  std::jthread watcher([&](const std::stop_token& token) {
    std::unique_lock lock(watch_mutex);
    while (!token.stop_requested()) {
      if ((options.cancel != nullptr && options.cancel->load()) || std::chrono::steady_clock::now() >= last_call) {
        stop_draws = true;
        return;
      }
      watch_wait.wait_for(lock, token, std::chrono::milliseconds(20), [] { return false; });
    }
  });
  // Plain threads, not the arena's tasks: the sample prices `threads`
  // threads counting at once (a device's runs by the wall clock, shared
  // caches and memory bandwidth), and a task_arena only lets its workers
  // join when they are free, with no promise that they all run together.
  std::vector<std::thread> workers;
  try {
    for (int t = 1; t < threads; ++t) workers.emplace_back(sample);
  } catch (...) {  // a thread the system would not start (a process limit): those started stop their draws
    const std::lock_guard lock(mutex);
    if (!failure) failure = std::current_exception();
    stop_draws = true;
  }
  sample();
  for (std::thread& w : workers) w.join();
  watcher.request_stop();
  watcher.join();
  if (failure) std::rethrow_exception(failure);
  if (options.cancel != nullptr && options.cancel->load()) throw run_cancelled();
  e.sample_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sampling).count();
  e.device = context.device();
  e.ended = end_reason.value_or(estimate_end::time);
  double variance_seconds = 0, variance_total = 0;
  for (std::size_t k = 0; k < strata.size(); ++k) {
    const stratum& st = strata[k];
    e.draws_cut += st.cut;
    e.sampled += st.sampled;
    if (st.size == 0) continue;
    running_mean run_seconds, solutions;
    for (const auto& run : st.per_run) {
      if (!run) continue;  // cut at the last call
      run_seconds.add(run->first);
      solutions.add(run->second);
    }
    e.runs += run_seconds.count();
    if (k == 1) {
      e.rotation_runs = run_seconds.count();
      e.rotation_sampled = st.sampled;
    }
    if (run_seconds.count() == 0 && st.drawn == 0) {  // never drawn (max_runs came first): unknown
      variance_seconds = variance_total = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    if (run_seconds.count() == 0) {
      char limit[32];
      std::snprintf(limit, sizeof limit, "%g", 2 * options.seconds);
      throw std::runtime_error(std::string("no draw of ") +
                               (k == 0 ? "the engine's subproblems" : "the rotation search's tasks") +
                               " ended within " + limit +
                               " s (twice the sampling time): one takes longer; sample longer, or split the plan "
                               "finer");
    }
    if (st.sampled == st.size) {  // every subproblem of the stratum: the sums themselves
      e.thread_seconds += st.all_seconds;
      e.total += st.all_solutions;
      continue;
    }
    e.thread_seconds += run_seconds.mean() * whole(st);
    e.total += solutions.mean() * whole(st);
    const double seconds_error = run_seconds.error(st.draws) * whole(st);
    const double total_error = solutions.error(st.draws) * whole(st);
    variance_seconds += seconds_error * seconds_error;
    variance_total += total_error * total_error;
  }
  e.thread_seconds_error = std::sqrt(variance_seconds);
  e.total_error = std::sqrt(variance_total);
  if (e.ended == estimate_end::exhausted && e.sampled < size) e.ended = estimate_end::time;  // some were cut
  return e;
}

}  // namespace nqueens
