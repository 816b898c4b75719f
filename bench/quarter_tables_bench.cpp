// The quadrant engines' whole quarter tables (half_board_tables: every
// placement of the north half's two quarters, what the GPU engine uploads
// and the CPU quadrant engine joins up to n = 24), built on one thread: the
// setup a count pays before its first subproblem. The lists built for each
// subproblem past the tables, with the same search, are timed as a count
// makes them by nqueens_gpu_host_lists. Run it with
//   nqueens_bench --benchmark_filter=QuarterTables --benchmark_repetitions=5

#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include <cstddef>

#include "engines/join_model/quarter_tables.hpp"

namespace {

void BM_QuarterTables(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  tbb::task_arena one_thread(1);
  std::size_t placements = 0;
  for (auto _ : state) {
    one_thread.execute([&] {
      const nqueens::detail::half_board_tables tables(n);
      placements = tables.west().masks().size() + tables.east().masks().size();
      benchmark::DoNotOptimize(placements);
    });
  }
  state.counters["placements/s"] =
      benchmark::Counter(static_cast<double>(placements), benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

BENCHMARK(BM_QuarterTables)->Arg(16)->Arg(18)->Arg(20)->ArgName("n")->Unit(benchmark::kMillisecond)->UseRealTime();
