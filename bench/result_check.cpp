#include "result_check.hpp"

#include <atomic>
#include <stdexcept>
#include <string>

#include "nqueens/known_counts.hpp"

namespace nqueens::bench {
namespace {

std::atomic<bool> wrong_result{false};

}  // namespace

bool result_is(benchmark::State& state, uint128 got, uint128 expected, const char* what) {
  if (got == expected) return true;
  wrong_result.store(true, std::memory_order_relaxed);
  state.SkipWithError(what);
  return false;
}

uint128 expected_total(int n) {
  const auto published = published_total(n);
  // The benchmarks' sizes are all published: another is a defect of the bench.
  if (!published) throw std::logic_error("no published Q(" + std::to_string(n) + ") to check a benchmark against");
  return *published;
}

bool any_wrong_result() noexcept { return wrong_result.load(std::memory_order_relaxed); }

}  // namespace nqueens::bench
