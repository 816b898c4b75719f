// Full counts (plan -> execute -> reduce) for n x threads, with every engine
// a count chooses among (the quadrant engine is what `nqueens count` takes
// from n = 16, symmetric below). Timed by the wall clock (UseRealTime); the CPU column is the
// process's, oneTBB's workers included (the default counts the calling
// thread alone); the thread count is an argument for the arena, never
// ->Threads().

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "nodes.hpp"
#include "nqueens/count.hpp"
#include "nqueens/scaling.hpp"
#include "result_check.hpp"

namespace {

template <nqueens::engine Kind>
void BM_Count(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const nqueens::uint128 expected = nqueens::bench::expected_total(n);
  nqueens::uint128 total = 0;
  for (auto _ : state) {
    total = nqueens::count(n, {.kind = Kind, .threads = threads}).total;
    benchmark::DoNotOptimize(total);
    if (!nqueens::bench::result_is(state, total, expected, "wrong count")) break;
  }
  state.counters["solutions/s"] =
      benchmark::Counter(static_cast<double>(total), benchmark::Counter::kIsIterationInvariantRate);
  if constexpr (Kind != nqueens::engine::quadrant) {  // a join of half boards walks no tree of rows
    state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nqueens::bench::plan_nodes(n, Kind)),
                                                   benchmark::Counter::kIsIterationInvariantRate);
  }
}

// 1, 2, 4, ... up to the hardware threads, and the hardware count itself.
std::vector<std::int64_t> thread_counts() {
  std::vector<std::int64_t> counts;
  for (const int t : nqueens::default_thread_counts()) counts.push_back(t);
  return counts;
}

#define NQUEENS_COUNT_ARGS                         \
  ArgsProduct({{12, 14, 16, 17}, thread_counts()}) \
      ->ArgNames({"n", "threads"})                 \
      ->Unit(benchmark::kMillisecond)              \
      ->MeasureProcessCPUTime()                    \
      ->UseRealTime()
BENCHMARK(BM_Count<nqueens::engine::quadrant>)->NQUEENS_COUNT_ARGS;
BENCHMARK(BM_Count<nqueens::engine::symmetric>)->NQUEENS_COUNT_ARGS;
BENCHMARK(BM_Count<nqueens::engine::mirror>)->NQUEENS_COUNT_ARGS;

}  // namespace
