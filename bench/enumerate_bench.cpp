// Listing against counting: enumerate() delivering every solution in order
// (a visitor that only touches each one), for n x threads. Compare with
// BM_Count at the same n and threads in the same run.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "nqueens/enumerate.hpp"
#include "nqueens/threads.hpp"
#include "result_check.hpp"

namespace {

void BM_Enumerate(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  nqueens::enumerate_options options;
  options.threads = static_cast<int>(state.range(1));
  const nqueens::uint128 expected = nqueens::bench::expected_total(n);
  std::uint64_t listed = 0;
  for (auto _ : state) {
    std::uint64_t checksum = 0;
    listed = nqueens::enumerate(n, options, [&](const nqueens::listed_solution& s) {
               checksum += s.columns.back();
               return true;
             }).delivered;
    benchmark::DoNotOptimize(checksum);
    if (!nqueens::bench::result_is(state, listed, expected, "wrong number of solutions")) break;
  }
  state.counters["solutions/s"] =
      benchmark::Counter(static_cast<double>(listed), benchmark::Counter::kIsIterationInvariantRate);
}

// One thread and every hardware thread: once where they are the same.
std::vector<std::int64_t> listing_threads() {
  const std::int64_t all = nqueens::hardware_threads();
  return all > 1 ? std::vector<std::int64_t>{1, all} : std::vector<std::int64_t>{1};
}

BENCHMARK(BM_Enumerate)
    ->ArgsProduct({{12, 14, 16}, listing_threads()})
    ->ArgNames({"n", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()  // the CPU column: every thread's, not the caller's alone
    ->UseRealTime();

}  // namespace
