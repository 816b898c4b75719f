// Estimates what a whole count would cost from a random sample of its
// subproblems (docs/reach.md). A plan is indexed, so runs of consecutive
// subproblems from uniformly random starts are an unbiased sample of the
// whole: mean time x subproblems estimates its thread-seconds, and mean
// count x subproblems estimates Q(n). A run that reaches the plan's end goes
// on from its start, so that every subproblem lies in as many runs as any
// other: runs cut at the end weighed the last subproblems more (Q(10) from
// runs of 20 of its 30 read 397, not 724). Times are the thread's CPU time, so a
// sample on a shared machine is not charged for the time it waited for a
// core. Runs, not single indices, because a real run hands out runs of
// neighbours (dispatch_order), which share quarter lists; a lone index would
// pay for building them alone.
//
//   nqueens_reach_sample N RUNS RUN_LENGTH SEED [ENGINE] [MAX_MEMORY] [THREADS] [SPLIT_DEPTH]
//
// THREADS (default 1) sizes the memory layout as a run on that many threads
// would (each thread's share of MAX_MEMORY, hence how finely large
// subproblems are sliced); the samples still run on one thread. A bound the
// count would refuse is refused, and the engine gets what the count would
// give it: MAX_MEMORY less the plan's own lists. The same
// seed draws the same indices, so two layouts can be compared run by run;
// and two engines too, where their plans are cut alike (SPLIT_DEPTH 1: a
// class a subproblem, for the quadrant and GPU engines; default 0, the
// engine's own choice: where that does not fit, a count of the named engine
// would take a shallower split, which this refuses instead).
//
// Prints a CSV line per run (n, engine, first index, subproblems, seconds,
// solutions) on stdout, then the estimate on stderr, with its thread-ns per
// solution (over the published Q(n), or the sample's solutions past the table). One thread: the figures
// are thread-seconds.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/arguments.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/threads.hpp"
#include "thread_clock.hpp"
#include "tool_main.hpp"
#include "warm_up.hpp"

namespace {

struct sample {
  double seconds = 0;
  double solutions = 0;
};

// Mean and its standard error.
std::pair<double, double> mean_and_error(const std::vector<double>& x) {
  double sum = 0;
  for (const double v : x) sum += v;
  const double mean = sum / static_cast<double>(x.size());
  double squares = 0;
  for (const double v : x) squares += (v - mean) * (v - mean);
  const double n = static_cast<double>(x.size());
  return {mean, x.size() > 1 ? std::sqrt(squares / (n - 1) / n) : 0.0};
}

int run(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr,
                 "usage: nqueens_reach_sample N RUNS RUN_LENGTH SEED [ENGINE] [MAX_MEMORY] [THREADS] "
                 "[SPLIT_DEPTH]\n  (MAX_MEMORY as --max-memory takes it: 8G, 512M, or bytes; 0 for the default)\n");
    return 2;
  }
  // Read as the tool reads them: "8G" is 8 GiB, never 8 bytes, and a
  // word that is no number is refused, never read as 0.
  using nqueens::cli::parse_integer;
  constexpr long long most = std::numeric_limits<int>::max();
  const auto n = static_cast<int>(parse_integer(argv[1], "N", 1, nqueens::max_board_size));
  const auto runs = static_cast<int>(parse_integer(argv[2], "RUNS", 1, most));
  const auto length = static_cast<int>(parse_integer(argv[3], "RUN_LENGTH", 1, most));
  const auto seed = static_cast<std::uint64_t>(parse_integer(argv[4], "SEED", 0, INT64_MAX));
  const std::optional<nqueens::engine> kind =
      argc > 5 ? nqueens::parse_engine(argv[5]) : std::optional{nqueens::engine::quadrant};
  const std::uint64_t max_memory =
      argc > 6 && std::string_view(argv[6]) != "0" ? nqueens::cli::parse_byte_size(argv[6], "MAX_MEMORY") : 0;
  const auto layout_threads =
      static_cast<int>(argc > 7 ? parse_integer(argv[7], "THREADS", 1, nqueens::max_threads) : 1);
  const auto split_depth =
      static_cast<int>(argc > 8 ? parse_integer(argv[8], "SPLIT_DEPTH", 0, nqueens::max_split_depth) : 0);
  if (!kind || argc > 9) {
    std::fprintf(stderr, "nqueens_reach_sample: bad arguments\n");
    return 2;
  }
  // Planned as a count plans, and refused as it would be: the engine's need
  // checked before the plan is built (seconds at n = 28), the plan's lists
  // beside it after.
  const auto start = std::chrono::steady_clock::now();
  const nqueens::planned_run planned_run =
      nqueens::plan_within_memory(n, {.kind = *kind, .split_depth = split_depth}, max_memory, layout_threads);
  const nqueens::plan& p = planned_run.p;
  const auto planned = std::chrono::steady_clock::now();
  const std::size_t size = p.engine_subproblems();
  if (size == 0) {
    std::fprintf(stderr, "nqueens_reach_sample: the %s plan of n = %d has no subproblems to sample\n",
                 std::string(nqueens::to_string(*kind)).c_str(), n);
    return 2;
  }
  if (static_cast<std::size_t>(length) > size) {
    std::fprintf(stderr, "nqueens_reach_sample: RUN_LENGTH %d is more than the plan's %zu subproblems\n", length, size);
    return 2;
  }
  const nqueens::run_context context(p, std::nullopt, layout_threads, nullptr, planned_run.engine_memory);
  const auto built = std::chrono::steady_clock::now();
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::size_t> first(0, size - 1);
  nqueens::bench::warm_up(context, n, size);
  std::vector<double> seconds, solutions;
  for (int r = 0; r < runs; ++r) {
    const std::size_t from = first(random);
    sample s;
    for (std::size_t k = 0; k < static_cast<std::size_t>(length); ++k) {
      const double begin = nqueens::bench::thread_seconds();
      const nqueens::subproblem_count c = context.solve((from + k) % size);
      s.seconds += nqueens::bench::thread_seconds() - begin;
      s.solutions += static_cast<double>(c.total);
    }
    seconds.push_back(s.seconds / length);
    solutions.push_back(s.solutions / length);
    if (std::printf("%d,%s,%zu,%d,%.6f,%.0f\n", n, std::string(nqueens::to_string(*kind)).c_str(), from, length,
                    s.seconds, s.solutions) < 0 ||
        std::fflush(stdout) != 0) {
      std::fprintf(stderr, "nqueens_reach_sample: cannot write the output\n");
      return 1;
    }
  }
  const auto [t, t_error] = mean_and_error(seconds);
  const auto [q, q_error] = mean_and_error(solutions);
  const double whole = static_cast<double>(size);
  // Thread-ns per solution as docs/reach.md's tables give it: the whole
  // count's estimated time over the published Q(n) where there is one, else
  // (n = 28) the sample's seconds over its solutions; none where the draws
  // held no solution.
  char per_solution[64] = "none";
  if (const std::optional<std::uint64_t> published = nqueens::published_total(n); published && *published > 0) {
    std::snprintf(per_solution, sizeof per_solution, "%.3g (over the published Q(n))",
                  t * whole / static_cast<double>(*published) * 1e9);
  } else {
    double sampled_seconds = 0, sampled_solutions = 0;
    for (std::size_t r = 0; r < seconds.size(); ++r) {
      sampled_seconds += seconds[r];
      sampled_solutions += solutions[r];
    }
    if (sampled_solutions > 0) {
      std::snprintf(per_solution, sizeof per_solution, "%.3g (over the sample's solutions)",
                    sampled_seconds / sampled_solutions * 1e9);
    }
  }
  std::fprintf(stderr,
               "n = %d, %s: %zu subproblems, plan %.2f s, context %.2f s; per subproblem %.4g s +- %.2g (one "
               "thread); whole count %.4g thread-hours +- %.2g; Q(n) estimated %.4g +- %.2g; thread-ns per "
               "solution %s\n",
               n, std::string(nqueens::to_string(*kind)).c_str(), size,
               std::chrono::duration<double>(planned - start).count(),
               std::chrono::duration<double>(built - planned).count(), t, t_error, t * whole / 3600,
               t_error * whole / 3600, q * whole, q_error * whole, per_solution);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return nqueens::bench::tool_main("nqueens_reach_sample", [&] { return run(argc, argv); });
}
