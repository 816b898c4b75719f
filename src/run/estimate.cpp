#include "nqueens/estimate.hpp"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "nqueens/cancelled.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/threads.hpp"

namespace nqueens {
namespace {

// The calling thread's CPU time: a subproblem is charged what it ran, not the
// time it waited for a core on a shared machine.
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Mean of `x` and its standard error.
std::pair<double, double> mean_and_error(const std::vector<double>& x) {
  if (x.empty()) return {0, 0};
  double sum = 0;
  for (const double v : x) sum += v;
  const double n = static_cast<double>(x.size());
  const double mean = sum / n;
  double squares = 0;
  for (const double v : x) squares += (v - mean) * (v - mean);
  return {mean, x.size() > 1 ? std::sqrt(squares / (n - 1) / n) : 0.0};
}

// Consecutive subproblems per draw. The quadrant engine's neighbours share
// quarter lists, which a real run builds once for several: a lone index
// would pay for them alone. From n = 26 on, building them is about 2% of a
// subproblem (docs/reach.md), and single indices spread the sample wider.
std::size_t run_length_for(const plan& p) { return p.uniform_work() && p.board_size() < 26 ? 4 : 1; }

}  // namespace

double cost_estimate::wall_seconds(int cores) const noexcept {
  return setup_seconds + (cores > 0 ? thread_seconds / cores : 0.0);
}

cost_estimate estimate_cost(const plan& p, const estimate_options& options) {
  const int threads = resolve_threads(options.threads);
  if (!(options.seconds > 0 && std::isfinite(options.seconds))) {
    throw std::invalid_argument("sampling seconds must be finite and positive");
  }
  // Every subproblem, the few that count the rotation-symmetric solutions
  // too: a count runs them all (theirs add nothing to Q(n)).
  const std::size_t size = p.size();
  if (size == 0) throw std::invalid_argument("the plan has no subproblems to sample");
  cost_estimate e;
  e.subproblems = size;
  e.threads = threads;
  e.run_length = run_length_for(p);
  const auto start = std::chrono::steady_clock::now();
  const run_context context(p, options.kernels, threads, options.cancel, options.max_memory);
  const auto sampling = std::chrono::steady_clock::now();
  e.setup_seconds = std::chrono::duration<double>(sampling - start).count();
  const auto deadline = sampling + std::chrono::duration<double>(options.seconds);

  std::mutex mutex;  // the draws and the results: once a run, noise next to its subproblems
  std::mt19937_64 random(options.seed);
  std::uniform_int_distribution<std::size_t> first(0, size - 1);
  std::size_t drawn = 0;
  std::vector<double> seconds, solutions;
  std::exception_ptr failure;
  const auto sample = [&] {
    try {
      for (;;) {
        std::size_t from = 0;
        {
          const std::lock_guard lock(mutex);
          const bool first_run = drawn == 0;
          if (failure || (options.max_runs != 0 && drawn >= options.max_runs)) return;
          if (!first_run && std::chrono::steady_clock::now() >= deadline) return;
          if (options.cancel != nullptr && options.cancel->load()) return;
          from = first(random);
          ++drawn;
        }
        const std::size_t to = std::min(size, from + e.run_length);
        double cpu = 0, found = 0;
        for (std::size_t i = from; i < to; ++i) {
          const double begin = thread_cpu_seconds();
          const subproblem_count c = context.solve(i);
          cpu += thread_cpu_seconds() - begin;
          found += static_cast<double>(c.total);
        }
        const auto count = static_cast<double>(to - from);
        const std::lock_guard lock(mutex);
        seconds.push_back(cpu / count);
        solutions.push_back(found / count);
        e.sampled += to - from;
      }
    } catch (...) {
      const std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < threads; ++t) workers.emplace_back(sample);
  sample();
  for (std::thread& w : workers) w.join();
  if (failure) std::rethrow_exception(failure);
  if (options.cancel != nullptr && options.cancel->load()) throw run_cancelled();
  e.sample_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sampling).count();
  e.runs = seconds.size();
  const auto whole = static_cast<double>(size);
  const auto [t, t_error] = mean_and_error(seconds);
  const auto [q, q_error] = mean_and_error(solutions);
  e.thread_seconds = t * whole;
  e.thread_seconds_error = t_error * whole;
  e.total = q * whole;
  e.total_error = q_error * whole;
  return e;
}

}  // namespace nqueens
