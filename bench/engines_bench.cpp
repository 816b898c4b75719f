// The CPU engines and the textbook baseline side by side, each a whole
// count on one thread (plan, tables and search), with the peak memory of each
// run above what was resident before it: the table docs/performance.md quotes. Run the n = 18 row with
//   nqueens_bench --benchmark_filter='Solve.*n:18' --benchmark_min_time=0.01
// (one count a row, as that table was taken; add --benchmark_repetitions=3
// --benchmark_enable_random_interleaving=true for medians, three times as long).

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <fstream>
#include <optional>
#include <string>

#include "nqueens/count.hpp"
#include "result_check.hpp"
#include "textbook_baseline.hpp"

namespace {

// The resident set size ("VmRSS:") or its peak ("VmHWM:") from
// /proc/self/status, in MiB; 0 where unavailable.
double status_mib(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == field) {
      double kib = 0;
      status >> kib;
      return kib / 1024.0;
    }
    status.ignore(1 << 16, '\n');
  }
  return 0;
}

// Resets the peak resident set size the kernel tracks for this process
// (Linux: writing 5 to /proc/self/clear_refs) to what is resident now, after
// handing the allocator's free memory back; returns that: the process's own
// memory and what earlier benchmarks left, which the peak reported is above.
// None where the reset is refused (a kernel or sandbox without it): the
// peak would then be the whole process's, earlier benchmarks' included.
std::optional<double> reset_peak_memory() {
  ::malloc_trim(0);
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5" << std::flush;
  if (!clear) return std::nullopt;
  return status_mib("VmRSS:");
}

void report(benchmark::State& state, nqueens::uint128 total, std::optional<double> resident_before) {
  state.counters["solutions/s"] =
      benchmark::Counter(static_cast<double>(total), benchmark::Counter::kIsIterationInvariantRate);
  // The count's own peak: above what was resident before it; no figure
  // rather than a wrong one.
  if (resident_before) state.counters["peak_MiB"] = benchmark::Counter(status_mib("VmHWM:") - *resident_before);
}

template <nqueens::engine Kind>
void BM_Solve(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::optional<double> resident_before = reset_peak_memory();
  const nqueens::uint128 expected = nqueens::bench::expected_total(n);
  nqueens::uint128 total = 0;
  for (auto _ : state) {
    nqueens::count_options options{.kind = Kind, .threads = 1};
    options.max_memory = ~std::uint64_t{0};  // measure, do not refuse
    total = nqueens::count(n, options).total;
    benchmark::DoNotOptimize(total);
    if (!nqueens::bench::result_is(state, total, expected, "wrong count")) break;
  }
  report(state, total, resident_before);
}

void BM_SolveTextbook(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::optional<double> resident_before = reset_peak_memory();
  const nqueens::uint128 expected = nqueens::bench::expected_total(n);
  nqueens::uint128 total = 0;
  for (auto _ : state) {
    int board = n;  // changed, for all the compiler knows: the inline count is not hoisted out of the loop
    benchmark::DoNotOptimize(board);
    total = nqueens::baseline::textbook_count(board);
    benchmark::DoNotOptimize(total);
    if (!nqueens::bench::result_is(state, total, expected, "wrong count")) break;
  }
  report(state, total, resident_before);
}

#define NQUEENS_SOLVE_ARGS DenseRange(14, 18)->ArgName("n")->Unit(benchmark::kMillisecond)->UseRealTime()
BENCHMARK(BM_Solve<nqueens::engine::quadrant>)->NQUEENS_SOLVE_ARGS;
BENCHMARK(BM_Solve<nqueens::engine::symmetric>)->NQUEENS_SOLVE_ARGS;
BENCHMARK(BM_Solve<nqueens::engine::mirror>)->NQUEENS_SOLVE_ARGS;
BENCHMARK(BM_SolveTextbook)->NQUEENS_SOLVE_ARGS;

}  // namespace
