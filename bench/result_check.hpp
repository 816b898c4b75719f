#pragma once

// The benchmarks' check of what they computed. Every iteration's result is
// checked, not the last alone (a count wrong once in five runs is a defect
// too). A wrong one skips the benchmark with the reason and makes
// nqueens_bench exit 1 (bench_main.cpp), so that scripts/bench.sh saves no
// timing of a wrong count. Kernels this CPU lacks are not registered at all
// (kernel_bench.cpp, quadrant_kernels_bench.cpp).

#include <benchmark/benchmark.h>

#include "nqueens/count.hpp"

namespace nqueens::bench {

// True when `got` is `expected`; otherwise skips the benchmark saying
// `what` and remembers the failure (the caller then leaves its loop).
bool result_is(benchmark::State& state, uint128 got, uint128 expected, const char* what);

// The published Q(n): what a count must give.
uint128 expected_total(int n);

// Whether any benchmark of this process computed a wrong result.
bool any_wrong_result() noexcept;

}  // namespace nqueens::bench
