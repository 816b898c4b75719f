// What the GPU engine's host does for each subproblem past n = 24, where no
// whole tables are copied to the device: its four quarter lists (north west,
// north east, south west, south east), built on a counting thread before
// the call's rounds. Times those builds as a count makes them, so that they
// can be set beside a GPU's time per subproblem: the host threads a GPU
// needs to keep it fed.
//
//   nqueens_gpu_host_lists N RUNS SEED [BATCH] [RUN_LENGTH] [SHARED] [COMPACT]
//
// Draws RUNS runs of RUN_LENGTH (default 64, as dispatch_positions.hpp
// hands a large plan out) consecutive subproblems from uniformly random
// starts (the same seed, the same draws), one class each (split depth 1, as
// the GPU engine plans n >= 25), and builds their lists on one thread in
// calls of BATCH (default 8, the engine's most), each call's job in its slot's
// lists as the engine keeps them (a slot's list is rebuilt only where its
// columns changed). SHARED 1 (the default, as the engine does): a list an
// earlier job of the call built for the same side and columns is used again
// (0: each job builds its own, as the engine did before). COMPACT 1: the
// two-search lists of a tight memory bound.
// Prints a CSV line per run (its lists' thread seconds),
// then on stderr the mean thread seconds a subproblem +- its standard error
// over the runs, what share of that the west and the east lists take, and
// the host nanoseconds a solution where the published Q(N) is known (that
// mean over Q(N) / subproblems).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <utility>
#include <vector>

#include "engines/engine.hpp"
#include "engines/join_model/column_classes.hpp"
#include "engines/join_model/quarter_tables.hpp"
#include "engines/quadrant/quadrant_engine.hpp"
#include "kernels/bits.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/plan.hpp"
#include "run/plan_access.hpp"
#include "thread_clock.hpp"

int main(int argc, char** argv) {
  using namespace nqueens;
  using namespace nqueens::detail;
  if (argc < 4) {
    std::fprintf(stderr, "usage: nqueens_gpu_host_lists N RUNS SEED [BATCH] [RUN_LENGTH] [SHARED] [COMPACT]\n");
    return 2;
  }
  const int n = std::atoi(argv[1]);
  const int runs = std::atoi(argv[2]);
  const auto seed = static_cast<unsigned>(std::atoi(argv[3]));
  const std::size_t batch = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 8;
  std::size_t run_length = argc > 5 ? std::strtoull(argv[5], nullptr, 10) : 64;
  const bool shared = argc <= 6 || std::atoi(argv[6]) != 0;
  const bool compact = argc > 7 && std::atoi(argv[7]) != 0;
  // Past 28 the quadrant plan's masks do not fit (engines.md); below 8 a
  // class has lists of a few placements.
  if (n < 8 || n > 28 || runs < 1 || batch < 1 || run_length < 1) {
    std::fprintf(stderr, "nqueens_gpu_host_lists: N from 8 to 28, RUNS, BATCH and RUN_LENGTH at least 1\n");
    return 2;
  }
  const int h = n / 2;
  const plan p(n, {.kind = engine::quadrant, .split_depth = 1});
  const engine_plan& ep = *plan_access::engine(p);
  run_length = std::min(run_length, ep.size());
  // Each slot's lists: north west, north east, south west, south east.
  std::vector<std::array<quarter_list, 4>> slots(batch);
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::size_t> draw(0, ep.size() - run_length);
  std::vector<double> per_subproblem;
  double side_seconds[2] = {0, 0};  // west, east
  std::printf("n,first,subproblems,seconds\n");
  for (int r = 0; r < runs; ++r) {
    const std::size_t first = draw(random);
    double seconds = 0;
    for (std::size_t at = 0; at < run_length; at += batch) {
      std::vector<std::pair<int, std::uint32_t>> call;  // (east, its columns) built in this call
      for (std::size_t k = 0; k < batch && at + k < run_length; ++k) {
        const quadrant_task task = quadrant_task_of(ep, first + at + k);
        const std::uint32_t groups[2] = {task.north, south_columns_of(n, task.north, task.middle)};
        for (int q = 0; q < 4; ++q) {
          const std::uint32_t columns = groups[q / 2];
          const int east = q % 2;
          const std::uint32_t side_columns = east ? columns >> h : columns & low_bits(h);
          if (shared && std::find(call.begin(), call.end(), std::pair{east, side_columns}) != call.end()) continue;
          call.emplace_back(east, side_columns);
          const double start = bench::thread_seconds();
          slots[k][static_cast<std::size_t>(q)].build(n, east ? h : 0, east ? n - h : h, side_columns, compact);
          const double took = bench::thread_seconds() - start;
          seconds += took;
          side_seconds[east] += took;
        }
      }
    }
    per_subproblem.push_back(seconds / static_cast<double>(run_length));
    std::printf("%d,%zu,%zu,%.6f\n", n, first, run_length, seconds);
    std::fflush(stdout);
  }
  const double k = static_cast<double>(per_subproblem.size());
  double mean = 0;
  for (const double s : per_subproblem) mean += s;
  mean /= k;
  double squares = 0;
  for (const double s : per_subproblem) squares += (s - mean) * (s - mean);
  const double error = k > 1 ? std::sqrt(squares / (k - 1) / k) : 0.0;
  const double sides = side_seconds[0] + side_seconds[1];
  std::fprintf(stderr,
               "n = %d: %zu subproblems; lists %.4g +- %.2g thread-s a subproblem in calls of %zu, %s (west %.0f%%, "
               "east %.0f%%)",
               n, ep.size(), mean, error, batch, shared ? "shared" : "each job its own", 100 * side_seconds[0] / sides,
               100 * side_seconds[1] / sides);
  if (const auto known = published_total(n)) {
    const double solutions = static_cast<double>(*known) / static_cast<double>(ep.size());
    std::fprintf(stderr, ", %.3g host ns a solution (%.3g solutions a subproblem)", mean * 1e9 / solutions, solutions);
  }
  std::fprintf(stderr, "\n");
  return 0;
}
