// What the GPU engine's host does for each subproblem past n = 24, where no
// whole tables are copied to the device: its four quarter lists (north west,
// north east, south west, south east), built on a counting thread before
// the call's rounds. Times those builds as a count makes them, so that they
// can be set beside a GPU's time per subproblem: the host threads a GPU
// needs to keep it fed.
//
//   nqueens_gpu_host_lists N RUNS SEED [BATCH] [RUN_LENGTH] [COMPACT]
//
// Draws RUNS runs of RUN_LENGTH (default 64, as dispatch_positions.hpp
// hands a large plan out) consecutive subproblems from uniformly random
// starts (the same seed, the same draws), one class each (split depth 1, as
// the GPU engine plans n >= 25), and builds their lists on one thread in
// calls of BATCH (default 8, the engine's most; gpu_engine.cpp's
// own_quarters_batch says how many a node's memory gives), each job in its
// slot's lists as the engine keeps them (a slot's list is rebuilt only
// where its columns changed), two ways on the same runs, in turn: each job
// building its own, and shared (as the engine does: a list an earlier job
// of the call built for the same side and columns is used again). A run of
// each way first, untimed, grows the slots' buffers as a long count has.
// COMPACT 1: the two-search lists of a tight memory bound.
// Prints a CSV line per run (thread seconds each way), then on stderr, each
// way, the mean thread seconds a subproblem +- its standard error and the
// share the west and the east lists take, the bytes a call stages on the
// device (shared: each list once), the ratio of the means, and the host
// nanoseconds a solution shared where the published Q(N) is known (that
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

#include "cli/arguments.hpp"
#include "engines/engine_definition.hpp"
#include "engines/join_model/column_classes.hpp"
#include "engines/join_model/quarter_tables.hpp"
#include "engines/quadrant/quadrant_engine.hpp"
#include "kernels/bits.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/plan.hpp"
#include "run/plan_access.hpp"
#include "thread_clock.hpp"
#include "tool_main.hpp"

namespace {

int run(int argc, char** argv) {
  using namespace nqueens;
  using namespace nqueens::detail;
  if (argc < 4 || argc > 7) {
    std::fprintf(stderr, "usage: nqueens_gpu_host_lists N RUNS SEED [BATCH] [RUN_LENGTH] [COMPACT]\n");
    return 2;
  }
  // Read as the tool reads its numbers: "-1" is refused, never 2^64 - 1.
  // Past 28 the quadrant plan's masks do not fit (engines.md); below 8 a
  // class has lists of a few placements.
  using cli::parse_integer;
  const auto n = static_cast<int>(parse_integer(argv[1], "N", 8, 28));
  const auto runs = static_cast<int>(parse_integer(argv[2], "RUNS", 1, INT32_MAX));
  const auto seed = static_cast<unsigned>(parse_integer(argv[3], "SEED", 0, UINT32_MAX));
  const auto batch = static_cast<std::size_t>(argc > 4 ? parse_integer(argv[4], "BATCH", 1, 4096) : 8);
  auto run_length = static_cast<std::size_t>(argc > 5 ? parse_integer(argv[5], "RUN_LENGTH", 1, INT32_MAX) : 64);
  const bool compact = argc > 6 && parse_integer(argv[6], "COMPACT", 0, 1) == 1;
  const int h = n / 2;
  const plan p(n, {.kind = engine::quadrant, .split_depth = 1});
  const engine_plan& ep = *plan_access::engine(p);
  run_length = std::min(run_length, ep.size());

  // One way of building a run's lists, its slots kept from run to run.
  struct way {
    bool shared = false;
    std::vector<std::array<quarter_list, 4>> slots;  // north west, north east, south west, south east
    std::vector<double> per_subproblem;              // a run's mean thread seconds
    double side_seconds[2] = {0, 0};                 // west, east
    double staged_bytes = 0;                         // what the calls stage on the device
  };
  std::array<way, 2> ways;
  ways[1].shared = true;
  for (way& w : ways) w.slots.resize(batch);
  // Builds the run from `first` the way `w` does; returns its thread seconds.
  const auto run = [&](way& w, std::size_t first, bool timed) {
    double seconds = 0;
    for (std::size_t at = 0; at < run_length; at += batch) {
      std::vector<std::pair<int, std::uint32_t>> call;  // (east, its columns) built in this call
      for (std::size_t k = 0; k < batch && at + k < run_length; ++k) {
        const quadrant_task task = quadrant_task_of(ep, (first + at + k) % ep.size());
        const std::uint32_t groups[2] = {task.north, south_columns_of(n, task.north, task.middle)};
        for (int q = 0; q < 4; ++q) {
          const std::uint32_t columns = groups[q / 2];
          const int east = q % 2;
          const std::uint32_t side_columns = east ? columns >> h : columns & low_bits(h);
          if (w.shared && std::find(call.begin(), call.end(), std::pair{east, side_columns}) != call.end()) continue;
          call.emplace_back(east, side_columns);
          quarter_list& list = w.slots[k][static_cast<std::size_t>(q)];
          const double start = bench::thread_seconds();
          list.build(n, east ? h : 0, east ? n - h : h, side_columns, compact);
          const double took = bench::thread_seconds() - start;
          seconds += took;
          if (timed) {
            w.side_seconds[east] += took;
            w.staged_bytes += static_cast<double>(list.bytes());
          }
        }
      }
    }
    return seconds;
  };
  std::mt19937_64 random(seed);
  // Any start, a run past the plan's end going on from its start: every
  // subproblem lies in as many runs as any other (as nqueens_reach_sample's).
  std::uniform_int_distribution<std::size_t> draw(0, ep.size() - 1);
  for (way& w : ways) run(w, draw(random), /*timed=*/false);
  std::printf("n,first,subproblems,seconds_each_its_own,seconds_shared\n");
  for (int r = 0; r < runs; ++r) {
    const std::size_t first = draw(random);
    double seconds[2];
    for (int i = 0; i < 2; ++i) {  // in turn: each way first every other run
      const auto which = static_cast<std::size_t>((r + i) % 2);
      seconds[which] = run(ways[which], first, /*timed=*/true);
      ways[which].per_subproblem.push_back(seconds[which] / static_cast<double>(run_length));
    }
    std::printf("%d,%zu,%zu,%.6f,%.6f\n", n, first, run_length, seconds[0], seconds[1]);
    std::fflush(stdout);
  }
  const auto mean_and_error = [](const std::vector<double>& x) {
    const double k = static_cast<double>(x.size());
    double mean = 0;
    for (const double v : x) mean += v;
    mean /= k;
    double squares = 0;
    for (const double v : x) squares += (v - mean) * (v - mean);
    return std::pair{mean, k > 1 ? std::sqrt(squares / (k - 1) / k) : 0.0};
  };
  const double calls =
      static_cast<double>(runs) * std::ceil(static_cast<double>(run_length) / static_cast<double>(batch));
  std::fprintf(stderr, "n = %d: %zu subproblems, %d runs of %zu in calls of %zu%s\n", n, ep.size(), runs, run_length,
               batch, compact ? ", compact lists" : "");
  for (const way& w : ways) {
    const auto [mean, error] = mean_and_error(w.per_subproblem);
    const double sides = w.side_seconds[0] + w.side_seconds[1];
    std::fprintf(stderr,
                 "  %-16s lists %.4g +- %.2g thread-s a subproblem (west %.0f%%, east %.0f%%), %.4g MB staged a call\n",
                 w.shared ? "shared:" : "each its own:", mean, error, 100 * w.side_seconds[0] / sides,
                 100 * w.side_seconds[1] / sides, w.staged_bytes / calls / 1e6);
  }
  const double own = mean_and_error(ways[0].per_subproblem).first;
  const double shared = mean_and_error(ways[1].per_subproblem).first;
  std::fprintf(stderr, "  each its own / shared: %.3gx time, %.3gx bytes staged", own / shared,
               ways[0].staged_bytes / ways[1].staged_bytes);
  if (const auto known = published_total(n)) {
    const double solutions = static_cast<double>(*known) / static_cast<double>(ep.size());
    std::fprintf(stderr, "; shared, %.3g host ns a solution (%.3g solutions a subproblem)", shared * 1e9 / solutions,
                 solutions);
  }
  std::fprintf(stderr, "\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return nqueens::bench::tool_main("nqueens_gpu_host_lists", [&] { return run(argc, argv); });
}
