// The quadrant engine's kernels side by side: every compiled implementation
// this CPU runs (argument "kernels": its index in implementations(), whose
// names the label gives), each counting every subproblem of one plan on the
// calling thread from the whole quarter tables, in one run so that their
// ratios are measured under the same conditions (interleaved, as
// scripts/bench.sh runs them), by the CPU time of the one thread that
// counts (the wall clock would count its waits for a core too). Where run_context picks one
// implementation per instruction set (avx2-no-pdep only on AMD Zen 1 and 2),
// this times them all, the fallbacks built without BMI2 included.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engines/join_model/quarter_tables.hpp"
#include "engines/quadrant/quadrant_engine.hpp"
#include "engines/quadrant/quadrant_kernels.hpp"
#include "engines/quadrant/quadrant_solve.hpp"
#include "isa/implementation.hpp"
#include "nqueens/plan.hpp"
#include "result_check.hpp"
#include "run/plan_access.hpp"

namespace {

using namespace nqueens;

void BM_QuadrantKernels(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto index = static_cast<std::size_t>(state.range(1));
  const detail::implementation& kernels = detail::implementations()[index];
  state.SetLabel(std::string(kernels.name));
  const plan p(n, {.kind = engine::quadrant});
  const detail::engine_plan& engine = *detail::plan_access::engine(p);
  std::vector<detail::quadrant_task> tasks;
  for (std::size_t i = 0; i < p.engine_subproblems(); ++i) tasks.push_back(detail::quadrant_task_of(engine, i));
  const detail::half_board_tables tables(n);
  const detail::quarter_source source(n, &tables);
  detail::quadrant_scratch scratch;
  const uint128 expected = bench::expected_total(n);
  std::uint64_t total = 0;
  for (auto _ : state) {
    total = 0;
    for (const detail::quadrant_task& t : tasks) {
      total += detail::solve_task(detail::quadrant_kernels_of(kernels), source, t, detail::quadrant_slicing_of(engine),
                                  scratch);
    }
    benchmark::DoNotOptimize(total);
    if (!bench::result_is(state, total, expected, "wrong count")) break;
  }
  state.counters["solutions/s"] =
      benchmark::Counter(static_cast<double>(total), benchmark::Counter::kIsIterationInvariantRate);
}

// The implementations this CPU runs, alone: Google Benchmark 1.7 can skip a
// row only as an error, which a JSON file then records as a failed run.
void boards_by_implementation(benchmark::internal::Benchmark* b) {
  for (const int n : {16, 17, 18}) {
    for (const detail::implementation& kernels : detail::implementations()) {
      if (kernels.cpu_runs()) b->Args({n, static_cast<std::int64_t>(kernels.index)});
    }
  }
}

BENCHMARK(BM_QuadrantKernels)
    ->Apply(boards_by_implementation)
    ->ArgNames({"n", "kernels"})
    ->Unit(benchmark::kMillisecond);

}  // namespace
