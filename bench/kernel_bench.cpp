// Single-thread kernel throughput against the textbook baseline, in one run so
// the ratio is measured under the same conditions.

#include <benchmark/benchmark.h>

#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/plan.hpp"
#include "textbook_baseline.hpp"

namespace {

void report(benchmark::State& state, int n, std::uint64_t total) {
  if (total != *nqueens::published_total(n)) state.SkipWithError("wrong count");
  state.counters["solutions/s"] =
      benchmark::Counter(static_cast<double>(total), benchmark::Counter::kIsIterationInvariantRate);
}

// The library's kernel over every subproblem of the plan, on the calling thread.
void BM_Kernel(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const nqueens::plan p(n);
  std::uint64_t total = 0;
  for (auto _ : state) {
    total = 0;
    for (std::size_t i = 0; i < p.size(); ++i) total += nqueens::solve_subproblem(p, i).total;
    benchmark::DoNotOptimize(total);
  }
  report(state, n, total);
}

// Plain recursive bitmask with the first-row mirror: what speed-ups are quoted against.
void BM_Textbook(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::uint64_t total = 0;
  for (auto _ : state) {
    total = nqueens::baseline::textbook_count(n);
    benchmark::DoNotOptimize(total);
  }
  report(state, n, total);
}

BENCHMARK(BM_Kernel)->DenseRange(10, 16, 2)->ArgName("n")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Textbook)->DenseRange(10, 16, 2)->ArgName("n")->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
