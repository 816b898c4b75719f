// Benchmarks that compute a wrong and a right count on purpose, linked with
// nqueens_bench's own main (Bench.WrongResultFailsTheRun): a wrong result
// must end the run with exit 1 once every benchmark has run, so that
// scripts/bench.sh saves no timing of it.

#include <benchmark/benchmark.h>

#include "result_check.hpp"

namespace {

void BM_WrongCount(benchmark::State& state) {
  const nqueens::uint128 expected = nqueens::bench::expected_total(8);
  for (auto _ : state) {
    if (!nqueens::bench::result_is(state, expected + 1, expected, "wrong count")) break;
  }
}

void BM_RightCount(benchmark::State& state) {
  const nqueens::uint128 expected = nqueens::bench::expected_total(8);
  for (auto _ : state) {
    if (!nqueens::bench::result_is(state, expected, expected, "wrong count")) break;
  }
}

}  // namespace

BENCHMARK(BM_WrongCount);
BENCHMARK(BM_RightCount);
