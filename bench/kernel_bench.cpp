// Single-thread engines against the textbook baseline, in one run so ratios
// are measured under the same conditions (run with
// --benchmark_enable_random_interleaving=true, as scripts/bench.sh does).
// Counters: solutions/s, and the search-tree nodes each engine visits
// (counted once, outside the timing). Timed by the calling thread's CPU
// time, which does all the work: on a shared machine the wall clock also
// counts the time it waited for a core.

#include <benchmark/benchmark.h>

#include <map>
#include <string>

#include "nodes.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/plan.hpp"
#include "result_check.hpp"
#include "textbook_baseline.hpp"

namespace {

void report(benchmark::State& state, std::uint64_t total, std::uint64_t nodes) {
  state.counters["solutions/s"] =
      benchmark::Counter(static_cast<double>(total), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["nodes"] = benchmark::Counter(static_cast<double>(nodes));
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsIterationInvariantRate);
}

// Every subproblem of the engine's plan on the calling thread: the kernel
// alone, without oneTBB, for each instruction set (argument "isa": 0
// portable, 1 avx2, 2 avx512) this CPU has.
template <nqueens::engine Kind>
void BM_Engine(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto kernels = static_cast<nqueens::isa>(state.range(1));
  const nqueens::plan p(n, {.kind = Kind});
  const nqueens::run_context context(p, kernels);
  const std::uint64_t nodes = nqueens::bench::plan_nodes(n, Kind);
  const nqueens::uint128 expected = nqueens::bench::expected_total(n);
  std::uint64_t total = 0;
  for (auto _ : state) {
    total = 0;
    for (std::size_t i = 0; i < p.size(); ++i) total += context.solve(i).total;
    benchmark::DoNotOptimize(total);
    if (!nqueens::bench::result_is(state, total, expected, "wrong count")) break;
  }
  report(state, total, nodes);
  state.SetLabel(std::string(nqueens::kernels_name(kernels)));
}

// Plain recursive bitmask with the first-row mirror: what speed-ups are quoted against.
void BM_Textbook(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const nqueens::uint128 expected = nqueens::bench::expected_total(n);
  std::uint64_t total = 0;
  for (auto _ : state) {
    int board = n;  // changed, for all the compiler knows: the inline count is not hoisted out of the loop
    benchmark::DoNotOptimize(board);
    total = nqueens::baseline::textbook_count(board);
    benchmark::DoNotOptimize(total);
    if (!nqueens::bench::result_is(state, total, expected, "wrong count")) break;
  }
  // Walked once per board size: each walk takes as long as a count.
  static std::map<int, std::uint64_t> nodes;
  if (!nodes.contains(n)) nodes[n] = nqueens::baseline::textbook_nodes(n);
  report(state, total, nodes[n]);
}

// The instruction sets this CPU has, alone: Google Benchmark 1.7 can skip a
// row only as an error, which a JSON file then records as a failed run.
void boards_by_isa(benchmark::internal::Benchmark* b) {
  for (const int n : {12, 14, 16, 17}) {
    for (const nqueens::isa kernels : {nqueens::isa::portable, nqueens::isa::avx2, nqueens::isa::avx512}) {
      if (nqueens::cpu_supports(kernels)) b->Args({n, static_cast<std::int64_t>(kernels)});
    }
  }
}

#define NQUEENS_KERNEL_UNITS Unit(benchmark::kMillisecond)
BENCHMARK(BM_Engine<nqueens::engine::symmetric>)->Apply(boards_by_isa)->ArgNames({"n", "isa"})->NQUEENS_KERNEL_UNITS;
BENCHMARK(BM_Engine<nqueens::engine::mirror>)->Apply(boards_by_isa)->ArgNames({"n", "isa"})->NQUEENS_KERNEL_UNITS;
BENCHMARK(BM_Textbook)->Arg(12)->Arg(14)->Arg(16)->Arg(17)->ArgName("n")->NQUEENS_KERNEL_UNITS;

}  // namespace
