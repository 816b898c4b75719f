// The quadrant engine's memory: its estimate, the layouts it picks under a
// bound, and the refusals.

#include "engines/join_model/quadrant_memory.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "engines/quadrant/quadrant_engine.hpp"
#include "engines/quadrant/quadrant_kernels.hpp"
#include "engines/quadrant/quadrant_solve.hpp"
#include "nqueens/count.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/plan.hpp"
#include "run/plan_access.hpp"

namespace nqueens {
namespace {

TEST(QuadrantMemoryTest, EstimateGrowsAndCoversTheTables) {
  constexpr std::uint64_t unbounded = UINT64_MAX;  // always the whole tables
  for (int n = 6; n <= 24; ++n) {
    EXPECT_GT(memory_estimate(n, engine::quadrant, 2, unbounded),
              memory_estimate(n - 1, engine::quadrant, 2, unbounded))
        << n;
    EXPECT_TRUE(detail::quadrant_layout_for(n, 2, unbounded).tables);
  }
  EXPECT_EQ(memory_estimate(20, engine::symmetric), 0u);
  // The real tables stay within the estimate.
  for (const int n : {10, 13, 14}) {
    const detail::half_board_tables tables(n);
    EXPECT_LE(tables.bytes(), memory_estimate(n, engine::quadrant, 1)) << n;
  }
}

// Under a bound the whole tables do not fit, the engine builds each
// subproblem's quarters, then also slices its groups; the estimate follows
// the bound, and the counts stay exact.
TEST(QuadrantMemoryTest, SmallerBoundsChooseSmallerLayouts) {
  constexpr std::uint64_t mib = std::uint64_t{1024} * 1024;
  const detail::quadrant_layout roomy = detail::quadrant_layout_for(20, 2, 64ULL << 30);
  EXPECT_TRUE(roomy.tables);
  const detail::quadrant_layout lists = detail::quadrant_layout_for(20, 2, 128 * mib);
  EXPECT_FALSE(lists.tables);
  EXPECT_LE(lists.bytes, 128 * mib);
  EXPECT_LT(lists.bytes, roomy.bytes);
  const detail::quadrant_layout squeezed = detail::quadrant_layout_for(18, 2, 16 * mib);
  EXPECT_FALSE(squeezed.tables);
  EXPECT_LE(squeezed.bytes, 16 * mib);
  EXPECT_LE(memory_estimate(18, engine::quadrant, 2, 16 * mib), 16 * mib);
  for (int n = 22; n <= 24; ++n) {  // boards whose tables alone pass the bound, sliced
    const detail::quadrant_layout l = detail::quadrant_layout_for(n, 2, 1024 * mib);
    EXPECT_FALSE(l.tables) << n;
    EXPECT_LE(l.bytes, 1024 * mib) << n;
  }
  // A run given a bound its tables do not fit counts exactly, in slices.
  const std::uint64_t tight = 10 * mib;
  const detail::quadrant_layout small = detail::quadrant_layout_for(14, 2, tight);
  ASSERT_FALSE(small.tables);
  ASSERT_NE(small.max_group, 0U);
  ASSERT_LE(small.bytes, tight);
  count_options o;
  o.kind = engine::quadrant;
  o.threads = 2;
  o.max_memory = tight;
  EXPECT_EQ(count(14, o).total, *published_total(14));
}

// Counted in slices, each thread's share holds its quarter lists and its
// groups' pieces: the larger the lists, the smaller the pieces, 64 bytes a
// half, within the fewest halves and the pair counter's limit.
TEST(QuadrantMemoryTest, PiecesGetWhatTheListsLeave) {
  constexpr std::uint64_t gib = 1024ULL * 1024 * 1024;
  const detail::quadrant_layout l = detail::quadrant_layout_for(28, 1, 2 * gib);
  ASSERT_FALSE(l.tables);
  ASSERT_TRUE(l.compact_lists);
  ASSERT_NE(l.thread_bytes, 0U);
  EXPECT_LE(l.bytes, 2 * gib);
  const std::uint64_t lists = 300ULL << 20;  // about what one n = 28 subproblem's four lists hold
  const std::size_t pieces = detail::group_capacity(l, lists);
  EXPECT_EQ(pieces - detail::group_capacity(l, lists + std::uint64_t{64} * 1000), 1000U);
  EXPECT_GT(pieces, 16'000'000U);  // 1.6 GiB beside the lists
  // The pieces, the lists and the small buffers (the block table and the
  // rest, half a MiB) all within the thread's share, none of it left unused.
  constexpr std::uint64_t small_buffers = 512 * 1024;
  EXPECT_LE(lists + std::uint64_t{64} * pieces + small_buffers, l.thread_bytes);
  EXPECT_GT(lists + std::uint64_t{64} * (pieces + 1) + small_buffers, l.thread_bytes);
  EXPECT_EQ(detail::group_capacity(l, l.thread_bytes), l.fewest_halves);
  EXPECT_LE(detail::group_capacity(l, 0), l.max_group);
  // Two threads share twice the bound: about as much each (the fixed margin is shared).
  const detail::quadrant_layout two = detail::quadrant_layout_for(28, 2, 4 * gib);
  EXPECT_NEAR(static_cast<double>(two.thread_bytes), static_cast<double>(l.thread_bytes), 1e-2 * l.thread_bytes);
}

// A subproblem whose quarter lists would grow past the thread's share beside
// the group buffers an earlier one left releases those buffers first.
TEST(QuadrantMemoryTest, ListsThatWouldPassTheShareReleaseTheGroups) {
  const int n = 14;
  const plan p(n, {.kind = engine::quadrant});
  const detail::quadrant_layout share{
      .tables = false, .max_group = 5000, .compact_lists = true, .thread_bytes = 400000, .fewest_halves = 1000};
  const detail::quarter_source source(n, nullptr, share);
  const detail::quadrant_kernels& k = detail::quadrant_kernels_for(active_isa());
  detail::quadrant_scratch scratch;
  scratch.north.reserve(1 << 20);  // 8 MiB: far past the share
  const detail::quadrant_task t = detail::quadrant_task_of(*detail::plan_access::engine(p), 0);
  const detail::class_slicing slicing = detail::quadrant_slicing_of(*detail::plan_access::engine(p));
  const std::uint64_t count = detail::solve_task(k, source, t, slicing, scratch);
  EXPECT_LT(scratch.north.capacity(), std::size_t{1} << 20);
  // 120 kB alone is within the share beside n = 14's lists, but past the
  // sorted copy's part of the pieces they leave room for (12 bytes a half
  // of about 2000): let go all the same, and the count unchanged.
  detail::quadrant_scratch held;
  held.pairs.south_sorted.reserve(15000);
  EXPECT_EQ(detail::solve_task(k, source, t, slicing, held), count);
  EXPECT_LT(held.pairs.south_sorted.capacity(), 15000U);
}

// Each group buffer holding more than its part of the pieces' budget is let
// go, and only those: whatever sizes earlier subproblems left, the buffers
// then grow to at most the parts, which sum to the 64 bytes a half the
// share prices.
TEST(QuadrantMemoryTest, BuffersPastTheirPartOfThePiecesAreLetGo) {
  const std::size_t halves = 100000;
  const detail::piece_budget budget = detail::piece_budget_for(halves);
  EXPECT_GE(budget.group_bytes, 8 * halves);
  EXPECT_GE(budget.entry_bytes, 16 * halves);
  EXPECT_LE(3 * budget.group_bytes + budget.entry_bytes + budget.blocked_bytes + budget.row_bytes,
            64 * halves + std::size_t{64} * 1024);
  detail::quadrant_scratch scratch;
  scratch.north.reserve(budget.group_bytes / 8);          // at its part: kept
  scratch.south.reserve(budget.group_bytes / 8 + 1);      // past it: let go
  scratch.sorter.halves.reserve(10);                      // kept
  scratch.pairs.entries.reserve(budget.entry_bytes);      // 2 bytes each: let go
  scratch.pairs.south_sorted.reserve(1000);               // kept
  scratch.pairs.rows.reserve(budget.row_bytes / 64 + 1);  // let go
  scratch.keep_within(budget);
  EXPECT_EQ(scratch.north.capacity(), budget.group_bytes / 8);
  EXPECT_EQ(scratch.south.capacity(), 0U);
  EXPECT_EQ(scratch.sorter.halves.capacity(), 10U);
  EXPECT_EQ(scratch.pairs.entries.capacity(), 0U);
  EXPECT_EQ(scratch.pairs.south_sorted.capacity(), 1000U);
  EXPECT_EQ(scratch.pairs.rows.capacity(), 0U);
}

TEST(QuadrantMemoryTest, RefusesUpFrontWhenOverTheBound) {
  const plan p(14, {.kind = engine::quadrant});
  execute_options options;
  options.max_memory = 1024;
  EXPECT_THROW(execute(p, options), memory_limit_error);
  count_options count_opts{.kind = engine::quadrant};
  count_opts.max_memory = min_max_memory;
  try {
    count(14, count_opts);
    FAIL() << "no memory_limit_error";
  } catch (const memory_limit_error& e) {
    EXPECT_NE(std::string(e.what()).find("for n = 14"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(check_memory(14, engine::symmetric, 1));  // backtracking needs nothing
}

}  // namespace
}  // namespace nqueens
