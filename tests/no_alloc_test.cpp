// Proves the kernel allocates nothing: every global operator new in this test
// binary is counted, and a whole solve of every subproblem must add zero.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <span>
#include <vector>

#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "kernel/backtrack.hpp"
#include "kernel/batched.hpp"
#include "kernel/quadrant.hpp"
#include "nqueens/plan.hpp"

namespace {
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, std::align_val_t align) {
  ++allocations;
  const auto a = static_cast<std::size_t>(align);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace nqueens {
namespace {

TEST(NoAllocationTest, CounterSeesAllocations) {
  const long before = allocations.load();
  // A direct call: new-expressions may be elided by the optimiser, calls may not.
  void* p = ::operator new(16);
  ::operator delete(p);
  EXPECT_EQ(allocations.load() - before, 1);
}

TEST(NoAllocationTest, KernelSolvesAWholePlanWithoutAllocating) {
  for (const int n : {1, 8, 12, 13}) {
    const plan p(n);  // planning may allocate; solving may not
    std::uint64_t total = 0;
    const long before = allocations.load();
    for (std::size_t i = 0; i < p.size(); ++i) total += solve_subproblem(p, i).total;
    const long during = allocations.load() - before;
    EXPECT_EQ(during, 0) << "n = " << n;
    EXPECT_EQ(total, *published_total(n));
  }
}

// The quadrant kernel's buffers grow to the largest groups seen, then are
// reused: a second pass over a whole plan (the same thread's buffers, as
// execute() keeps one set per thread) allocates nothing.
TEST(NoAllocationTest, QuadrantKernelAllocatesNothingOnceItsBuffersHaveGrown) {
  for (const int n : {12, 13}) {
    const plan p(n, {.kind = engine::quadrant});
    const detail::half_board_tables tables(n);
    detail::quadrant_scratch scratch;
    for (std::size_t i = 0; i < p.size(); ++i) detail::solve_quadrant(tables, p[i], p.split_depth(), scratch);
    std::uint64_t total = 0;
    const long before = allocations.load();
    for (std::size_t i = 0; i < p.size(); ++i) total += detail::solve_quadrant(tables, p[i], p.split_depth(), scratch);
    EXPECT_EQ(allocations.load() - before, 0) << "n = " << n;
    EXPECT_EQ(total, *published_total(n));
  }
}

// Both searches, called directly: the scalar fallback must stay
// allocation-free too even where the batched search is the default.
TEST(NoAllocationTest, ScalarAndBatchedSearchesDoNotAllocate) {
  for (const engine kind : {engine::symmetric, engine::mirror}) {
    const plan p(12, {.kind = kind});
    std::vector<detail::search_start> starts;
    for (std::size_t i = 0; i < p.size(); ++i) starts.push_back(detail::prepare(12, kind, p[i]));
    std::uint64_t sum = 0;
    const auto leaf = [](std::span<const std::uint8_t>, void*) noexcept -> std::uint64_t { return 1; };
    const long before = allocations.load();
    for (const auto& start : starts) {
      sum += detail::count_completions_scalar(12, start);
      sum += detail::visit_completions_scalar(12, start, leaf, nullptr);
      if (detail::has_batched_search()) {
        sum += detail::count_completions_batched(12, start);
        sum += detail::visit_completions_batched(12, start, leaf, nullptr);
      }
    }
    EXPECT_EQ(allocations.load() - before, 0) << to_string(kind);
    EXPECT_GT(sum, 0u);
  }
}

}  // namespace
}  // namespace nqueens
