// Proves the kernel allocates nothing: every global operator new in this test
// binary is counted, and a whole solve of every subproblem must add zero.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/plan.hpp"

namespace {
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

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

}  // namespace
}  // namespace nqueens
