// The quadrant engines' whole quarter tables (half_board_tables: every
// placement of the north half's two quarters, what the GPU engine uploads
// and the CPU quadrant engine joins up to n = 24), built and let go on one
// thread (the calling one, in an arena of one: timed by its CPU time): the
// setup a count pays before its first subproblem, and at its end. Each
// build's placements are checked against a plain search's. The lists built
// for each subproblem past the tables, with the same search, are timed as a count
// makes them by nqueens_gpu_host_lists. Run it with
//   nqueens_bench --benchmark_filter=QuarterTables --benchmark_repetitions=5

#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include <cstddef>
#include <cstdint>

#include "engines/join_model/quarter_tables.hpp"
#include "result_check.hpp"

namespace {

// Placements of any number of queens, none attacking another, on a
// side x side board: what each quarter of an even board holds (at n = 18,
// 915 442). Row by row, each row empty or holding a queen on a free square.
std::uint64_t placements_on(int side, int row = 0, std::uint32_t columns = 0, std::uint32_t left = 0,
                            std::uint32_t right = 0) {
  if (row == side) return 1;
  std::uint64_t count = placements_on(side, row + 1, columns, left << 1, right >> 1);  // no queen on this row
  const std::uint32_t full = (std::uint32_t{1} << side) - 1;
  for (std::uint32_t free = full & ~(columns | left | right); free != 0; free &= free - 1) {
    const std::uint32_t bit = free & (~free + 1);
    count += placements_on(side, row + 1, columns | bit, (left | bit) << 1, (right | bit) >> 1);
  }
  return count;
}

void BM_QuarterTables(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::uint64_t expected = 2 * placements_on(n / 2);  // the west quarter's and the east's
  tbb::task_arena one_thread(1);
  std::size_t placements = 0;
  for (auto _ : state) {
    one_thread.execute([&] {
      const nqueens::detail::half_board_tables tables(n);
      placements = tables.west().masks().size() + tables.east().masks().size();
      benchmark::DoNotOptimize(placements);
    });
    if (!nqueens::bench::result_is(state, placements, expected, "wrong placement count")) break;
  }
  state.counters["placements/s"] =
      benchmark::Counter(static_cast<double>(placements), benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

BENCHMARK(BM_QuarterTables)->Arg(16)->Arg(18)->Arg(20)->ArgName("n")->Unit(benchmark::kMillisecond);
