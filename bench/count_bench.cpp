// Full counts (plan -> execute -> reduce) for n x threads. oneTBB workers are
// invisible to the default CPU timer, hence UseRealTime(); the thread count is
// an argument for the arena, never ->Threads().

#include <benchmark/benchmark.h>

#include "nqueens/count.hpp"
#include "nqueens/known_counts.hpp"

namespace {

void BM_Count(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  nqueens::uint128 total = 0;
  for (auto _ : state) {
    total = nqueens::count(n, {.threads = threads}).total;
    benchmark::DoNotOptimize(total);
  }
  if (total != *nqueens::published_total(n)) state.SkipWithError("wrong count");
  state.counters["solutions/s"] =
      benchmark::Counter(static_cast<double>(total), benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_Count)
    ->ArgsProduct({benchmark::CreateDenseRange(12, 16, 2), {1, 2}})
    ->ArgNames({"n", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
