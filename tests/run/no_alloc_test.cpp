// Proves the kernel allocates nothing: every global operator new in this test
// binary is counted, and a whole solve of every subproblem must add zero.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <span>
#include <vector>

#include "engines/join_model/quadrant_memory.hpp"
#include "engines/quadrant/quadrant_engine.hpp"
#include "engines/quadrant/quadrant_kernels.hpp"
#include "engines/quadrant/quadrant_solve.hpp"
#include "engines/row_engine.hpp"
#include "isa/implementation.hpp"
#include "kernels/search.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/plan.hpp"
#include "run/dispatch_positions.hpp"
#include "run/plan_access.hpp"
#include "support/axes.hpp"

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

// Every engine on every instruction set: a solve that allocates nothing once
// its per-thread buffers have grown (the quadrant engine's grow to the largest
// groups seen, then are reused: a second pass over a whole plan, on the same
// thread, allocates nothing). Planning and building the context may allocate.
TEST(NoAllocationTest, EveryEngineSolvesAWholePlanWithoutAllocating) {
  for (const engine e : testing::registered_engines()) {
    for (const isa kernels : testing::all_isas()) {
      if (!cpu_supports(kernels)) continue;
      if (e == engine::gpu && kernels != isa::portable) continue;  // the same kernels on every set (axes.hpp)
      for (const int n : {1, 8, 12, 13}) {
        const plan p(n, {.kind = e});
        // The default bound (the quadrant engine's whole tables), and one so
        // small that it builds each subproblem's quarters and slices its groups.
        for (const std::uint64_t bound : {std::uint64_t{0}, std::uint64_t{9} << 20}) {
          const run_context context(p, kernels, 1, nullptr, bound);
          for (std::size_t i = 0; i < p.size(); ++i) context.solve(i);
          std::uint64_t total = 0;
          const long before = allocations.load();
          for (std::size_t i = 0; i < p.size(); ++i) total += context.solve(i).total;
          EXPECT_EQ(allocations.load() - before, 0)
              << to_string(e) << ", " << to_string(kernels) << ", n = " << n << ", bound " << bound;
          EXPECT_EQ(total, *published_total(n)) << to_string(e) << ", " << to_string(kernels) << ", n = " << n;
        }
      }
    }
  }
}

// The executor around the kernels: a run of a plan's subproblems through
// execute(), in the run driver's dispatch order (which deals the rotation
// tasks among the engine's: batches mixing both) and its results not kept,
// allocates as much for a quarter of the plan as for the whole: nothing per
// subproblem or per batch (the GPU engine's, 64 at a time), once warm. On
// one thread, so that per-thread buffers are taken alike in both runs.
TEST(NoAllocationTest, ExecuteAllocatesNothingPerSubproblem) {
  for (const engine e : testing::registered_engines()) {
    const plan p(13, {.kind = e});
    const run_context context(p, isa::portable, 1);
    std::atomic<std::uint64_t> total{0};
    const execute_options options{
        .threads = 1,
        .on_finished = [&](std::size_t, const subproblem_count& c) { total += c.total; },
        .keep_results = false,
    };
    std::vector<std::size_t> all;
    detail::for_each_dispatch_position(p.size(), [&](std::size_t k) { all.push_back(k); });
    const std::span<const std::size_t> quarter = std::span(all).first(all.size() / 4);
    execute(p, all, options, &context);  // warm: the thread's buffers grow
    total = 0;
    const long at_quarter = allocations.load();
    execute(p, quarter, options, &context);
    const long quarter_allocations = allocations.load() - at_quarter;
    total = 0;
    const long at_whole = allocations.load();
    execute(p, all, options, &context);
    const long whole_allocations = allocations.load() - at_whole;
    EXPECT_EQ(whole_allocations, quarter_allocations)
        << to_string(e) << ": " << p.size() << " subproblems, " << all.size() / 4 << " in a quarter";
    EXPECT_EQ(total.load(), *published_total(13)) << to_string(e);
  }
}

// The transposition filter on an even and an odd board, whole and in
// slices, its ties ruled out by tags and counted apart: the runs put in
// order for the ties apart, the partition by the middle column's queen, the
// skipped quarter placements and the tie counts allocate nothing once warm,
// on every compiled kernel variant.
TEST(NoAllocationTest, TransposedBoardsSolveWithoutAllocatingInBothTieModes) {
  for (const int n : {12, 13}) {  // even: the ties counted apart reorder the runs; odd: the middle's partition
    const plan p(n, {.kind = engine::quadrant});
    const detail::half_board_tables tables(n);
    // Pieces of 37 halves at most, or as the quarter lists leave room in a
    // thread's share (the fewest: 37), compact lists.
    const detail::quadrant_layout share{
        .tables = false, .max_group = 1000, .compact_lists = true, .thread_bytes = 300000, .fewest_halves = 37};
    for (const detail::quarter_source& source :
         {detail::quarter_source(n, &tables), detail::quarter_source(n, nullptr, {.tables = false, .max_group = 37}),
          detail::quarter_source(n, nullptr, share)}) {
      for (const detail::implementation& v : detail::implementations()) {
        if (!v.cpu_runs()) continue;
        for (const detail::tie_counting ties : {detail::tie_counting::tags, detail::tie_counting::apart}) {
          detail::quadrant_scratch scratch;
          scratch.ties = ties;
          std::vector<detail::quadrant_task> tasks;
          for (std::size_t i = 0; i < p.engine_subproblems(); ++i) {
            tasks.push_back(detail::quadrant_task_of(*detail::plan_access::engine(p), i));
          }
          for (const detail::quadrant_task& t : tasks)
            detail::solve_task(detail::quadrant_kernels_of(v), source, t,
                               detail::quadrant_slicing_of(*detail::plan_access::engine(p)), scratch);
          const long before = allocations.load();
          for (const detail::quadrant_task& t : tasks)
            detail::solve_task(detail::quadrant_kernels_of(v), source, t,
                               detail::quadrant_slicing_of(*detail::plan_access::engine(p)), scratch);
          EXPECT_EQ(allocations.load() - before, 0) << "n " << n << ", " << v.name << ", tables " << source.has_tables()
                                                    << ", ties " << static_cast<int>(ties);
        }
      }
    }
  }
}

// The searches of every instruction set, counting and visiting, called directly.
TEST(NoAllocationTest, EverySearchKernelRunsWithoutAllocating) {
  const plan p(12, {.kind = engine::symmetric});
  std::vector<detail::search_start> starts;
  for (std::size_t i = 0; i < p.engine_subproblems(); ++i)
    starts.push_back(*detail::row_search_start(*detail::plan_access::engine(p), i));
  const auto leaf = [](std::span<const std::uint8_t>, void*) noexcept -> std::uint64_t { return 1; };
  for (const isa kernels : testing::all_isas()) {
    if (!cpu_supports(kernels)) continue;
    const detail::search_kernels& search = detail::search_kernels_for(kernels);
    std::uint64_t sum = 0;
    const long before = allocations.load();
    for (const auto& start : starts) sum += search.count(12, start) + search.visit(12, start, leaf, nullptr);
    EXPECT_EQ(allocations.load() - before, 0) << to_string(kernels);
    EXPECT_GT(sum, 0u);
  }
}

}  // namespace
}  // namespace nqueens
